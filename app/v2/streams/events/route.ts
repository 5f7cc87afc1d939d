import { z } from 'zod';
import { notFound } from '@/lib/core/errors';
import { plotFollows } from '@/lib/core/streams/plot-follows';
import { endpoint, routes } from '@/lib/http/routes';
import { streamEventsResponse } from '@/lib/http/stream-events';
import { STREAM_LIMITS } from '@/lib/shared/streams';

const query = z.object({
  plots: z
    .string()
    .max(STREAM_LIMITS.plotsPerPage * 80)
    .transform((v) => [...new Set(v.split(',').filter(Boolean))])
    .refine((v) => v.length >= 1 && v.length <= STREAM_LIMITS.plotsPerPage, { message: `plots must name 1 to ${STREAM_LIMITS.plotsPerPage} plots` })
    .meta({ description: 'The plots the page shows, as comma-separated fids' }),
  share_key: z.string().max(100).optional().meta({ description: "A secret link's key, as on the page" }),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/streams/events', {
  GET: endpoint({
    summary: 'Live streams of the plots a page shows (server-sent events)',
    description:
      'One event per change of a streamed trace (`stream.token`) of the plots the caller may read: `{fid, traces: [{index, maxpoints}], writes}` or `{..., state}`. Tokens are never sent.',
    query,
    handler: async ({ req, db, viewer, query: { plots, share_key } }) => {
      const follows = await plotFollows(db, viewer, plots, share_key);
      if (follows.length === 0) throw notFound();
      return streamEventsResponse(follows, req.signal);
    },
  }),
});
