import { updateFileDetail } from '@/lib/file-detail';
import { permanentDeleteEndpoint } from '@/lib/file-actions';
import { getGrid, gridUpdateSchema } from '@/lib/grids';
import { endpoint, json, MiB, routes } from '@/lib/http';
import { fidParam, shareKeyQuery } from '@/lib/records';

const update = endpoint({
  summary: "Update a grid's file fields and metadata: the fields given change, the others keep their values",
  auth: 'required',
  body: gridUpdateSchema,
  bodyLimit: 50 * MiB,
  responses: { 200: "the grid's record" },
  handler: async ({ db, viewer, params, body, origin }) => json(await updateFileDetail(db, viewer, fidParam(params.fid), body, origin, 'grid')),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}', {
  GET: endpoint({
    summary: "A grid's record",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => json(await getGrid(db, viewer, fidParam(params.fid), origin, query.share_key)),
  }),
  PUT: update,
  PATCH: update,
  DELETE: { ...permanentDeleteEndpoint('grid'), summary: 'Delete a grid for good' },
});
