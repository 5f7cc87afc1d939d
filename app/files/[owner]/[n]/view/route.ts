import { readPlotView } from '@/lib/core/plots/plot-views';
import { getPlotFile } from '@/lib/core/plots/plots';
import { assertReadable } from '@/lib/core/permissions';
import { fidParam } from '@/lib/core/records';
import { viewQuerySchema } from '@/lib/http/request/queries';
import { json, notModified, PRIVATE_REVALIDATE, SHARED_CACHE, SHARED_VARY } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';
import { DEFAULT_VIEW_PX } from '@/lib/shared/figures/trace-views';

// `/~owner/n/view`: a plot's long line and scatter traces for one x range, reduced to the width
// asked for (issue 39; the page's chart fetches it after each zoom or pan). A web route, not the
// API's contract: the API's content is unchanged. The plot's reader rule decides what it holds.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/~{owner}/{n}/view', {
  GET: endpoint({
    summary: "A plot's long traces for one view, reduced",
    query: viewQuerySchema,
    handler: async ({ req, db, viewer, params, query }) => {
      const fid = fidParam(`${params.owner}:${params.n}`);
      const plot = assertReadable(await getPlotFile(db, fid, viewer), viewer, query.share_key);
      const { traces, etag } = await readPlotView(db, plot, viewer, { ...query, px: query.px ?? DEFAULT_VIEW_PX });
      // Shared by every anonymous reader of a public plot (a secret link's holder gets theirs alone);
      // the ETag names the values read, which never change, so a copy is revalidated, never stale.
      const shared = plot.worldReadable && !query.share_key;
      const headers = {
        ETag: etag,
        'Cache-Control': shared ? SHARED_CACHE : PRIVATE_REVALIDATE,
        Vary: shared ? SHARED_VARY : 'Accept, Accept-Encoding, Cookie',
      };
      if (notModified(req, etag)) return new Response(null, { status: 304, headers });
      const res = json({ traces }, { headers });
      res.headers.set('Vary', headers.Vary);
      return res;
    },
  }),
});
