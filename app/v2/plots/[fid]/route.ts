import { updateFileDetail } from '@/lib/file-detail';
import { endpoint, json, MiB, routes } from '@/lib/http';
import { getPlot, plotUpdateSchema } from '@/lib/plots';
import { fidParam, shareKeyQuery } from '@/lib/records';

const update = endpoint({
  summary: "Update a plot: the fields given change, the others keep their values",
  auth: 'required',
  body: plotUpdateSchema,
  bodyLimit: 10 * MiB,
  responses: { 200: "the plot's detail record" },
  handler: async ({ db, viewer, params, body, origin }) => json(await updateFileDetail(db, viewer, fidParam(params.fid), body, origin, 'plot')),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}', {
  GET: endpoint({
    summary: "A plot's detail record",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => json(await getPlot(db, viewer, fidParam(params.fid), origin, query.share_key)),
  }),
  PUT: update,
  PATCH: update,
});
