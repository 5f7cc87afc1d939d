import { clientOf } from '@/lib/http/request/client';
import { rowsBodySchema } from '@/lib/core/grids/grid-input';
import { appendRows } from '@/lib/core/grids/column-verbs';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { GRID_BODY_LIMIT } from '@/lib/http/grid-bodies';
import { fidParam } from '@/lib/core/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/row', {
  POST: endpoint({
    summary: 'Append rows to a grid (shorter columns padded with "" first)',
    auth: 'required',
    body: rowsBodySchema,
    bodyLimit: GRID_BODY_LIMIT,
    gridBody: 'rows',
    responses: { 200: 'the grid record' },
    handler: async ({ req, db, viewer, params, body, origin }) => json(await appendRows(db, viewer, fidParam(params.fid), body, origin, clientOf(req.headers))),
  }),
});
