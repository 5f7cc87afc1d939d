import { fidParam } from '@/lib/core/records';
import { listStargazers, starPlot, unstarPlot } from '@/lib/core/plots/stars';
import { versionsPageText } from '@/lib/core/files/versions';
import { feedQuerySchema, shareKeyQuery } from '@/lib/http/request/queries';
import { json, pageLinks } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

const STAR_RESPONSES = {
  200: '{"starred", "count"}: whether the caller now stars the plot, and how many do',
  404: 'No plot the caller may read at that fid (other file types have no stars).',
};

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}/stars', {
  GET: endpoint({
    summary: 'Who starred a plot, newest first, keyset-paged (an extension): its readers',
    query: feedQuerySchema.extend(shareKeyQuery.shape),
    responses: { 200: '{"next", "previous", "results": [{"username", "date_starred"}]}', 404: 'No plot the caller may read at that fid.' },
    handler: async ({ db, viewer, params, query, origin, url }) =>
      json(versionsPageText(await listStargazers(db, viewer, fidParam(params.fid), query, query.share_key), pageLinks(origin, url))),
  }),
  POST: endpoint({
    summary: 'Stars a plot the caller can read (again: no change)',
    auth: 'required',
    query: shareKeyQuery,
    responses: STAR_RESPONSES,
    handler: async ({ db, viewer, params, query }) => json(await starPlot(db, viewer, fidParam(params.fid), query.share_key)),
  }),
  DELETE: endpoint({
    summary: "Takes back the caller's star (none: no change)",
    auth: 'required',
    query: shareKeyQuery,
    responses: STAR_RESPONSES,
    handler: async ({ db, viewer, params, query }) => json(await unstarPlot(db, viewer, fidParam(params.fid), query.share_key)),
  }),
});
