// The API reference, drawn from the OpenAPI document (lib/http/openapi.ts) on the server: plain HTML,
// no script. Schemas are shown as tables of their fields with types and constraints.
// biome-ignore-all lint/suspicious/noArrayIndexKey: pieces of a fixed document, drawn once on the server and never reordered
import { Fragment, type ReactNode } from 'react';
import type { JsonSchema, OpenApiDocument, Operation, OperationMethod } from '@/lib/http/openapi';
import './api-reference.css';

export interface ApiOperation {
  path: string;
  method: OperationMethod;
  op: Operation;
}

/** Operations grouped by tag, in the document's tag order. */
export function operationsByTag(doc: OpenApiDocument): { name: string; description?: string; operations: ApiOperation[] }[] {
  const all = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method as OperationMethod, op: op! })),
  );
  return doc.tags.map((tag) => ({ ...tag, operations: all.filter((o) => o.op.tags.includes(tag.name)) }));
}

export const tagTitle = (name: string) => (name === 'root' ? 'API root' : name[0].toUpperCase() + name.slice(1));

/** The document's small Markdown: `- ` list items, `code` and **bold**. */
export function Markdown({ text }: { text: string }) {
  const blocks = text.split(/\n\n+/);
  return (
    <>
      {blocks.map((block, i) =>
        block.startsWith('- ') ? (
          <ul key={i}>
            {block.split(/\n(?=- )/).map((item, j) => (
              <li key={j}>
                <Inline text={item.slice(2)} />
              </li>
            ))}
          </ul>
        ) : (
          <p key={i}>
            <Inline text={block} />
          </p>
        ),
      )}
    </>
  );
}

export function Inline({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
        .map((part, i) =>
          part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : part.startsWith('**') && part.endsWith('**') && part.length > 3 ? (
            <strong key={i}>{part.slice(2, -2)}</strong>
          ) : (
            <Fragment key={i}>{part}</Fragment>
          ),
        )}
    </>
  );
}

/** A path that may wrap after each `/`. */
export function PathText({ path }: { path: string }) {
  return (
    <>
      {path.split('/').map((part, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              /<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </>
  );
}

export function MethodBadge({ method }: { method: string }) {
  return <span className={`api-method api-method-${method}`}>{method.toUpperCase()}</span>;
}

const refName = (ref: string) => ref.split('/').pop()!;

/** A schema's type in words: `string`, `"views" | "-views"`, `array of string`, `Error`. */
export function typeLabel(s: JsonSchema): ReactNode {
  if (typeof s.$ref === 'string') return <a href={`#schema-${refName(s.$ref)}`}>{refName(s.$ref)}</a>;
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (union)
    return union.map((u, i) => (
      <Fragment key={i}>
        {i > 0 && ' | '}
        {typeLabel(u)}
      </Fragment>
    ));
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.type === 'array') return <>array of {s.items ? typeLabel(s.items as JsonSchema) : 'any JSON'}</>;
  if (typeof s.type === 'string') return s.type;
  return 'any JSON';
}

/** A schema's limits in words: lengths, ranges, patterns, defaults. */
export function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (min !== undefined && max !== undefined) out.push(`${min}..${max}${unit}`);
    else if (min !== undefined) out.push(`at least ${min}${unit}`);
    else if (max !== undefined) out.push(`at most ${max}${unit}`);
  };
  range(s.minLength, s.maxLength, ' characters');
  if (s.minItems === 1 && s.maxItems === undefined) out.push('not empty');
  else range(s.minItems, s.maxItems, ' items');
  range(s.minimum, s.maximum, '');
  if (typeof s.pattern === 'string') out.push(`matches ${s.pattern}`);
  if (typeof s.format === 'string') out.push(s.format);
  if ('default' in s) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

interface Field {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** An object schema's fields, nested objects and arrays of objects flattened (`errors[].code`). */
function fields(s: JsonSchema, prefix = '', depth = 0): Field[] {
  const properties = s.properties as Record<string, JsonSchema> | undefined;
  if (!properties || depth > 3) return [];
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(properties).flatMap(([name, schema]) => {
    const full = `${prefix}${name}`;
    const items = schema.type === 'array' ? (schema.items as JsonSchema | undefined) : undefined;
    return [
      { name: full, schema, required: required.has(name) },
      ...fields(schema, `${full}.`, depth + 1),
      ...(items ? fields(items, `${full}[].`, depth + 1) : []),
    ];
  });
}

function Description({ schema }: { schema: JsonSchema }) {
  const limits = constraints(schema);
  return (
    <>
      {typeof schema.description === 'string' && <Inline text={schema.description} />}
      {limits.length > 0 && <span className="api-limits">{limits.join('; ')}</span>}
    </>
  );
}

/** An object schema as a table of its fields; any other schema as its type. */
export function SchemaTable({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const rows = fields(schema);
  if (!rows.length) {
    return (
      <p>
        {caption}: {typeLabel(schema)}
        {typeof schema.description === 'string' && (
          <>
            {' '}
            (<Inline text={schema.description} />)
          </>
        )}
      </p>
    );
  }
  return (
    <table className="api-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((f) => (
          <tr key={f.name}>
            <th scope="row">
              <code>{f.name}</code>
              <span className="api-limits">{f.required ? 'required' : 'optional'}</span>
            </th>
            <td>{typeLabel(f.schema)}</td>
            <td>
              <Description schema={f.schema} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function authText(op: Operation): string {
  const anonymous = op.security.some((s) => Object.keys(s).length === 0);
  const schemes = op.security.some((s) => Object.keys(s).length > 0);
  if (!schemes) return 'None.';
  return anonymous
    ? 'Optional: HTTP Basic (or Plotly-Authorization); without credentials, as an anonymous caller.'
    : 'Required: HTTP Basic username:api_key (or Plotly-Authorization).';
}

export function OperationEntry({ path, method, op }: ApiOperation) {
  const title = `${method.toUpperCase()} ${path}`;
  return (
    <article className="api-op" id={op.operationId} aria-label={title}>
      <h3 className="api-op-title">
        <MethodBadge method={method} />{' '}
        <code>
          <PathText path={path} />
        </code>
      </h3>
      <p className="api-op-summary">
        <Inline text={op.summary} />
      </p>
      {op.description && <Markdown text={op.description} />}
      <p className="api-op-auth">
        <strong>Authentication:</strong> {authText(op)}
      </p>
      {op.parameters && (
        <>
          <h4>Parameters</h4>
          <table className="api-table">
            <caption className="visually-hidden">Parameters of {title}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <th scope="row">
                    <code>{p.name}</code>
                    <span className="api-limits">
                      {p.in}, {p.required ? 'required' : 'optional'}
                    </span>
                  </th>
                  <td>{typeLabel(p.schema)}</td>
                  <td>
                    {p.description && <Inline text={p.description} />}
                    {constraints(p.schema).length > 0 && <span className="api-limits">{constraints(p.schema).join('; ')}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {op.requestBody && (
        <>
          <h4>Request body</h4>
          <p>{op.requestBody.description}</p>
          <SchemaTable schema={op.requestBody.content['application/json'].schema} caption={`Request body of ${title}`} />
        </>
      )}
      <h4>Responses</h4>
      <table className="api-table api-responses">
        <caption className="visually-hidden">Responses of {title}</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(op.responses).map(([status, r]) => (
            <tr key={status}>
              <th scope="row">{status}</th>
              <td>
                <Inline text={r.description} />
                {r.content && <> ({typeLabel(Object.values(r.content)[0].schema)} body)</>}
                {r.headers && <span className="api-limits">Headers: {Object.keys(r.headers).join(', ')}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
