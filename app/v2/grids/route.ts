import { clientOf } from '@/lib/http/request/client';
import { createGrid } from '@/lib/core/grids/grids';
import { createGridSchema } from '@/lib/core/grids/grid-input';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { GRID_COLUMNS_BODY_LIMIT } from '@/lib/http/grid-bodies';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids', {
  POST: endpoint({
    summary: 'Upload columns as a grid',
    auth: 'required',
    body: createGridSchema,
    bodyLimit: GRID_COLUMNS_BODY_LIMIT,
    gridBody: 'grid',
    responses: { 201: '{"file": grid record}' },
    handler: async ({ req, db, viewer, body, origin }) => json(await createGrid(db, viewer, body, origin, clientOf(req.headers)), { status: 201 }),
  }),
});
