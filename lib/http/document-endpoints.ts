// The endpoints of dashboards (`/v2/dashboards`) and spectacle presentations (`/v2/spectacle-presentations`):
// one declaration for both types, as Python's dashboard_ops and presentation_ops call them.
import 'server-only';
import { contentJsonSchema } from '@/lib/core/documents/dashboard-content';
import { createDocument, documentCreateSchema, documentRecord, getDocument, listOwnDocuments, type DocumentType } from '@/lib/core/documents/dashboards';
import { MiB } from '@/lib/core/json-text';
import { fidParam } from '@/lib/core/records';
import { feedQuerySchema, shareKeyQuery } from './request/queries';
import { endpoint } from './routes';
import { json, pageLinks } from './responses';

const NAMES: Record<DocumentType, string> = { dashboard: 'dashboard', spectacle_presentation: 'presentation' };

/** Largest request body of a document's create or update (its content, JSON-escaped in it, is at most 1 MiB: docs/api.md). */
export const DOCUMENT_BODY_LIMIT = 10 * MiB;

/** `GET` (the caller's, paged) and `POST` on the collection. */
export const documentCollection = (filetype: DocumentType) => ({
  GET: endpoint({
    summary: `The caller's live ${NAMES[filetype]}s, newest first, keyset-paged (records without \`content\`)`,
    auth: 'required',
    query: feedQuerySchema,
    responses: { 200: '{"next", "previous", "results"}: URLs of the neighbouring pages (null at either end) and the records' },
    handler: async ({ db, viewer, query, origin, url }) => {
      const page = await listOwnDocuments(db, viewer, filetype, query, origin);
      const link = pageLinks(origin, url);
      return json({ next: page.next && link(page.next), previous: page.previous && link(page.previous), results: page.rows });
    },
  }),
  POST: endpoint({
    summary: `Create a ${NAMES[filetype]} from its content (a string holding JSON)`,
    auth: 'required',
    body: documentCreateSchema,
    bodyLimit: DOCUMENT_BODY_LIMIT,
    responses: { 201: `{"file": the ${NAMES[filetype]}'s record with \`content\`}` },
    handler: async ({ db, viewer, body, origin }) => {
      const { file, content } = await createDocument(db, viewer, filetype, body, { origin });
      return json({ file: documentRecord(origin, file, viewer, content) }, { status: 201 });
    },
  }),
});

/** `GET /v2/dashboards/{fid}` (and presentations): the detail, with `content` as it was sent. */
export const documentDetail = (filetype: DocumentType) =>
  endpoint({
    summary: `A ${NAMES[filetype]}'s record with its \`content\``,
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => {
      const { file, content } = await getDocument(db, fidParam(params.fid), viewer, query.share_key, filetype);
      return json(documentRecord(origin, file, viewer, content));
    },
  });

/** `GET /v2/dashboards/schema` (and presentations): the content's format as a JSON Schema document. */
export const documentSchema = (filetype: DocumentType) =>
  endpoint({
    summary: `The format of a ${NAMES[filetype]}'s \`content\` (a JSON Schema document) and its limits`,
    handler: async () => json(contentJsonSchema(filetype)),
  });
