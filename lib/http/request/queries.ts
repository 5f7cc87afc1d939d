// Query strings: which parameters each request takes, as text, and what they become (the wrapper
// validates with these, the OpenAPI document describes them, the web's pages parse their links with
// them). Core takes the plain values (its `ListQuery`, `FeedQuery`, `SearchQuery`) and keeps the rules
// of what a value may be (a search's words, a path, a username).
import 'server-only';
import { z } from 'zod';
import { MAX_UIDS } from '@/lib/core/grids/column-verbs';
import type { FeedQuery, ListQuery } from '@/lib/core/plots/plot-lists';
import { qSchema, type SearchQuery } from '@/lib/core/plots/search';
import { pathSchema } from '@/lib/shared/names';
import { usernameSchema } from '@/lib/core/accounts/users';
import { DEFAULT_VIEW_PX, MAX_VIEW_PX } from '@/lib/shared/figures/trace-views';

const intParam = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, `${name} must be an integer`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

/** `GET /v2/plots` */
export const listQuerySchema = z.object({
  order_by: z
    .enum(['views', '-views', 'stars', '-stars'], { message: "order_by must be 'views', '-views', 'stars' or '-stars' (default: newest first)" })
    .optional()
    .meta({
      description: '`-views`: most viewed first; `views`: least viewed first; `-stars`, `stars`: by stars likewise (an extension); default: newest first',
    }),
  min_quality: intParam('min_quality', -1_000_000, 1_000_000).optional().meta({ description: 'only plots whose curated quality (0..10) is at least this' }),
  max_quality: intParam('max_quality', -1_000_000, 1_000_000).optional().meta({ description: 'only plots whose curated quality is at most this' }),
  page_size: intParam('page_size', 1, 100).optional().meta({ description: 'results per page, 1..100 (default 20)' }),
  cursor: z.string().max(512).optional().meta({ description: 'the page to answer: opaque, taken from a `next` or `previous` link' }),
}) satisfies z.ZodType<ListQuery>;

/** `GET /v2/plots/feed` and every other list that pages only. */
export const feedQuerySchema = listQuerySchema.pick({ page_size: true, cursor: true }) satisfies z.ZodType<FeedQuery>;

/** `GET /v2/search` */
export const searchQuerySchema = feedQuerySchema.extend({ q: qSchema }) satisfies z.ZodType<SearchQuery>;

/** `?share_key=`: a secret link's key (reads only). */
export const shareKeyQuery = z.object({
  share_key: z.string().max(200).optional().meta({ description: "a secret link's key: grants read on this one file while its secret link is on" }),
});

/** `?uid=a,b` of the column endpoints. */
export const uidQuerySchema = z.object({
  uid: z.string({ error: 'This field is required.' }).meta({ description: `comma-separated column uids of the grid (at most ${MAX_UIDS})` }),
});

/** `GET /v2/plots/{fid}/content` */
export const contentQuerySchema = z.object({
  inline_data: z
    .enum(['true', 'false', 'True', 'False', '1', '0'], { message: "inline_data must be 'true' or 'false'" })
    .optional()
    .meta({ description: '`true`: each `{attr}src` replaced by `{attr}` holding the column values it names (where readable)' }),
  map_data: z
    .enum(['unreadable'], { message: "map_data must be 'unreadable'" })
    .optional()
    .meta({ description: '`unreadable`: adds `map_data`, the values of each src whose grid the caller cannot read' }),
  share_key: shareKeyQuery.shape.share_key,
});

/** `GET /v2/folders/{fid}` */
export const folderQuerySchema = z.object({ user: z.string().max(100).optional().meta({ description: 'with the fid `home`: whose top level' }) });

/** `GET /v2/files/lookup` and the typed lookups. */
export const lookupQuerySchema = z.object({
  path: z
    .string({ error: 'This field is required.' })
    .pipe(pathSchema)
    .refine((parts) => parts.length > 0, 'This field is required.')
    .meta({ description: "the file's path, `a/b/name`; a leading `/` is ignored and `+` is a space (R sends spaces so)" }),
  parent: z
    .string()
    .regex(/^-?\d{1,10}$/, 'parent must be an integer')
    .transform(Number)
    .optional()
    .meta({ description: 'the folder number the path is relative to (default -1, the top level)' }),
  user: usernameSchema.optional().meta({ description: "whose files (default: the caller's)" }),
  exists: z
    .enum(['true', 'false'], { message: "exists must be 'true' or 'false'" })
    .optional()
    .meta({ description: '`true`: answer {"exists": boolean} instead of the record or a 404' }),
});

const numberParam = (name: string) =>
  z
    .string()
    .regex(/^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i, `${name} must be a number`)
    .transform(Number)
    .refine(Number.isFinite, `${name} must be a finite number`);

/** `GET /~owner/n/view`: a plot's long traces for one view (lib/core/plots/plot-views.ts). */
export const viewQuerySchema = z
  .object({
    share_key: shareKeyQuery.shape.share_key,
    traces: z
      .string()
      .regex(/^\d{1,4}(,\d{1,4}){0,999}$/, 'traces must be trace numbers separated by commas')
      .transform((t) => t.split(',').map(Number))
      .optional()
      .meta({ description: 'the traces to answer (default: every trace drawn by the view)' }),
    x0: numberParam('x0').optional().meta({ description: "the view's first x (epoch milliseconds on a date axis; the row number without an x column)" }),
    x1: numberParam('x1').optional().meta({ description: "the view's last x" }),
    px: intParam('px', 1, MAX_VIEW_PX)
      .optional()
      .meta({ description: `pixel columns, 1..${MAX_VIEW_PX} (default ${DEFAULT_VIEW_PX}): two points each at most` }),
  })
  .refine((q) => q.x0 === undefined || q.x1 === undefined || q.x0 <= q.x1, { message: 'x0 must not be after x1', path: ['x1'] });
