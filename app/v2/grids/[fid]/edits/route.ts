import { editsBodySchema } from '@/lib/core/grids/grid-input';
import { editStateOf, saveGridEdits } from '@/lib/core/grids/grid-edits';
import { endpoint, routes } from '@/lib/http/routes';
import { clientOf } from '@/lib/http/request/client';
import { json } from '@/lib/http/responses';
import { GRID_BODY_LIMIT } from '@/lib/http/grid-bodies';
import { fidParam } from '@/lib/core/records';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/edits', {
  GET: endpoint({
    summary: 'The base an edit of your grid starts from, and its columns now',
    auth: 'required',
    responses: { 200: '{"base", "cols": [{"name", "uid", "length", "bytes"}]}: send the base back with the edits' },
    handler: async ({ db, viewer, params }) => json(await editStateOf(db, viewer, fidParam(params.fid))),
  }),
  POST: endpoint({
    summary: "Save edits of a grid's columns at once: kept, renamed, replaced, added, reordered and deleted columns",
    description:
      'All or nothing, in one transaction. Refused with 409 (nothing written) when the grid changed since `base`. Plots drawn from the grid are drawn again when data changed. The state before it is kept as a version (`/v2/grids/{fid}/versions`).',
    auth: 'required',
    body: editsBodySchema,
    bodyLimit: GRID_BODY_LIMIT,
    gridBody: 'edits',
    responses: { 200: '{"base", "cols": [{"name", "uid"}]}: the new base and the columns in order', 409: 'the grid changed since `base`' },
    handler: async ({ req, db, viewer, params, body }) => json(await saveGridEdits(db, viewer, fidParam(params.fid), body, clientOf(req.headers))),
  }),
});
