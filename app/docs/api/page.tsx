import type { Metadata } from 'next';
import { Markdown, MethodBadge, OperationEntry, operationsByTag, PathText, SchemaTable, tagTitle } from '@/components/api-reference';
import { apiDocument } from '@/lib/http/openapi-document';
import { pageContext } from '@/lib/web/page-context';

export const metadata: Metadata = {
  title: 'API reference',
  description: 'Every path and method of the Plot Files Chart Studio v2 API, from its OpenAPI description.',
};

// The same document /v2/openapi.json serves, read from the same file (no request to ourselves, no route loaded).
export default async function ApiReference() {
  const { origin } = await pageContext();
  const doc = apiDocument(origin);
  const groups = operationsByTag(doc);
  const server = doc.servers[0].url;
  return (
    <main className="api-docs">
      <h1>API reference</h1>
      <div className="api-intro">
        <Markdown text={doc.info.description} />
        <dl className="api-facts">
          <dt>Base URL</dt>
          <dd>
            <code>{`${server}/v2/`}</code>
          </dd>
          <dt>OpenAPI 3.1 document</dt>
          <dd>
            <a href="/v2/openapi.json">{`${server}/v2/openapi.json`}</a>
          </dd>
        </dl>
      </div>
      <div className="api-layout">
        <nav aria-label="API contents" className="api-toc">
          <h2>Contents</h2>
          <ul>
            {groups.map((g) => (
              <li key={g.name}>
                <a href={`#tag-${g.name}`}>{tagTitle(g.name)}</a>
                <ul>
                  {g.operations.map(({ path, method, op }) => (
                    <li key={op.operationId}>
                      <a href={`#${op.operationId}`}>
                        <MethodBadge method={method} />{' '}
                        <span className="api-toc-path">
                          <PathText path={path} />
                        </span>
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            <li>
              <a href="#schema-Error">Error body</a>
            </li>
          </ul>
        </nav>
        <div className="api-sections">
          {groups.map((g) => (
            <section key={g.name} aria-labelledby={`tag-${g.name}`} className="api-section">
              <h2 id={`tag-${g.name}`}>{tagTitle(g.name)}</h2>
              {g.description && <Markdown text={g.description} />}
              {g.operations.map((o) => (
                <OperationEntry key={o.op.operationId} {...o} />
              ))}
            </section>
          ))}
          <section aria-labelledby="schema-Error" className="api-section">
            <h2 id="schema-Error">Error body</h2>
            <p>
              Every failed request answers with this JSON body (<code>Content-Type: application/json</code>), for example{' '}
              <code>{'{"errors": [{"code": "NOT_FOUND", "message": "Not found.", "path": null, "field": null}], "detail": "Not found."}'}</code>.
            </p>
            <SchemaTable schema={doc.components.schemas.Error} caption="Fields of the error body" />
          </section>
        </div>
      </div>
    </main>
  );
}
