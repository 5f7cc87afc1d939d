import { createGrid, createGridSchema } from '@/lib/grids';
import { endpoint, json, MiB, parseJsonText, renameRepeatedKeys, routes } from '@/lib/http';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids', {
  POST: endpoint({
    summary: 'Upload columns as a grid',
    auth: 'required',
    body: createGridSchema,
    bodyLimit: 50 * MiB,
    // The R client names each column after its trace attribute, so names repeat: keep every column.
    parseBody: (text) => parseJsonText(renameRepeatedKeys(text, ['data', 'cols'])),
    responses: { 201: '{"file": grid record}' },
    handler: async ({ db, viewer, body, origin }) => json(await createGrid(db, viewer, body, origin), { status: 201 }),
  }),
});
