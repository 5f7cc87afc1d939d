import { appendRows, rowsBodySchema } from '@/lib/grids';
import { endpoint, json, MiB, routes } from '@/lib/http';
import { fidParam } from '@/lib/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/row', {
  POST: endpoint({
    summary: 'Append rows to a grid (shorter columns padded with "" first)',
    auth: 'required',
    body: rowsBodySchema,
    bodyLimit: 50 * MiB,
    responses: { 200: 'the grid record' },
    handler: async ({ db, viewer, params, body, origin }) => json(await appendRows(db, viewer, fidParam(params.fid), body, origin)),
  }),
});
