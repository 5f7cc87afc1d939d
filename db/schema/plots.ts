// Plots: their figures and the counts lists read (views, stars, comments), who viewed them today,
// who starred them and what was said.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { ts, tsvector } from './column-types';
import { users } from './accounts';
import { files } from './files';

export const plots = pgTable(
  'plots',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    figure: jsonb('figure').notNull(),
    // The figure's size as JSON text: lists read the records of large figures one at a time.
    figureBytes: integer('figure_bytes').notNull().default(0),
    // Grid values its srcs reference, and their stored bytes (each reference counted; kept current
    // when its grids change): pages draw a chart of much data only when asked (lib/core/images/images.ts).
    dataValues: bigint('data_values', { mode: 'number' }).notNull().default(0),
    dataBytes: bigint('data_bytes', { mode: 'number' }).notNull().default(0),
    // Paths and values of the figure's src references, computed once at write time so reads never
    // walk the figure against plotly's schema.
    srcRefs: jsonb('src_refs').notNull().default(sql`'[]'::jsonb`),
    title: text('title').notNull().default(''),
    // Whether `title` was given explicitly (else it follows the layout's title on figure updates).
    titleGiven: boolean('title_given').notNull().default(false),
    caption: text('caption').notNull().default(''),
    views: bigint('views', { mode: 'number' }).notNull().default(0),
    // How many people starred it and how many comments it has: kept exact by triggers on `stars` and
    // `comments` (migration people_counts), so records and the -stars order read one column.
    stars: bigint('stars', { mode: 'number' }).notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    // Its owner can close it to new comments (lib/core/plots/comments.ts).
    commentsEnabled: boolean('comments_enabled').notNull().default(true),
    quality: smallint('quality').notNull().default(0),
    handpicked: boolean('handpicked').notNull().default(false),
    sourceFid: text('source_fid'),
    // A theme holds styling only (layout.template); a template holds a chart whose srcs keep their
    // column roles, `templateRoles` saying which column each src named (lib/core/plots/themes.ts).
    isTheme: boolean('is_theme').notNull().default(false),
    isTemplate: boolean('is_template').notNull().default(false),
    templateRoles: jsonb('template_roles'),
    width: integer('width'),
    height: integer('height'),
    autosize: boolean('autosize').notNull().default(true),
    // Bumped on every figure change: keys images and content ETags.
    version: integer('version').notNull().default(1),
    // Copies of files.created_at and (world_readable AND NOT trashed), kept by triggers (plots_copy_file_state, files_sync_plot_listed), so
    // that every list is one keyset scan of one partial index.
    createdAt: ts('created_at').notNull().defaultNow(),
    listed: boolean('listed').notNull().default(false),
    // The words search finds the plot by (title, filename, owner's names, caption, `type:` lexemes of its
    // trace types), kept by triggers (plots_set_search, files_sync_plot_search, users_sync_plot_search; lib/core/plots/search.ts).
    search: tsvector('search').notNull().default(sql`''::tsvector`),
  },
  (t) => [
    index('plots_listed_newest_idx').on(t.createdAt.desc().nullsFirst(), t.fileId.desc().nullsFirst()).where(sql`${t.listed}`),
    index('plots_listed_views_desc_idx').on(t.views.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.fileId.desc().nullsFirst()).where(sql`${t.listed}`),
    index('plots_listed_views_asc_idx').on(t.views.asc(), t.createdAt.desc().nullsFirst(), t.fileId.desc().nullsFirst()).where(sql`${t.listed}`),
    index('plots_listed_stars_desc_idx').on(t.stars.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.fileId.desc().nullsFirst()).where(sql`${t.listed}`),
    index('plots_listed_stars_asc_idx').on(t.stars.asc(), t.createdAt.desc().nullsFirst(), t.fileId.desc().nullsFirst()).where(sql`${t.listed}`),
    index('plots_feed_idx').on(t.fileId).where(sql`${t.listed} AND ${t.handpicked}`),
    index('plots_search_idx').using('gin', t.search),
    // Every plot on a grid (the SQL function plot_grid_keys).
    index('plots_grid_keys_idx').using('gin', sql`plot_grid_keys(${t.srcRefs})`),
    check('plots_quality_check', sql`${t.quality} BETWEEN 0 AND 10`),
    check('plots_views_check', sql`${t.views} >= 0`),
    check('plots_stars_check', sql`${t.stars} >= 0`),
  ],
);

/**
 * Who has viewed which plot's page today (lib/core/plots/view-counts.ts): a view counts once per visitor per
 * day. `visitor` is a salted hash (view_salts) of the signed-in user or the address, never either
 * itself; rows of earlier days are deleted.
 */
export const plotViews = pgTable(
  'plot_views',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    visitor: text('visitor').notNull(),
  },
  // By plot first: a deleted plot's rows go by the key (a day's pruning is one scan a day).
  (t) => [primaryKey({ columns: [t.fileId, t.day, t.visitor] })],
);

/** Each day's random salt of the visitor hashes in plot_views (deleted with that day's views). */
export const viewSalts = pgTable('view_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: text('salt').notNull(),
});

/** Who starred which plot (lib/core/plots/stars.ts); plots.stars counts them. */
export const stars = pgTable(
  'stars',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.fileId] }),
    // A plot's latest stargazers (its record), and a person's latest stars (their profile's "Starred").
    index('stars_file_newest_idx').on(t.fileId, t.createdAt.desc(), t.userId.desc()),
    index('stars_user_newest_idx').on(t.userId, t.createdAt.desc(), t.fileId.desc()),
  ],
);

/** Comments on plots, plain text (lib/core/plots/comments.ts); plots.comment_count counts them. */
export const comments = pgTable(
  'comments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('comments_file_newest_idx').on(t.fileId, t.createdAt.desc(), t.id.desc())],
);

/**
 * Plots made by "Bring your charts" (lib/core/imports), by the content key of the figure they were
 * made of: a figure imported again is skipped while its plot lives (a resumed batch).
 */
export const figureImports = pgTable(
  'figure_imports',
  {
    plotId: bigint('plot_id', { mode: 'number' })
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // sha256 (hex) of the figure as found, its data inlined (lib/core/imports/figure-files.ts).
    contentKey: text('content_key').notNull(),
  },
  (t) => [index('figure_imports_owner_key_idx').on(t.ownerId, t.contentKey)],
);
