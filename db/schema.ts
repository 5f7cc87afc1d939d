import { sql } from 'drizzle-orm';
import {
  date,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  primaryKey,
  integer,
  json,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    // sha256 of the API key: keys are random 144-bit strings, so a fast hash is enough and allows rotation.
    apiKeyHash: text('api_key_hash').notNull(),
    // argon2id (PHC string, lib/core/accounts/passwords.ts); null until the person sets a password.
    passwordHash: text('password_hash'),
    email: text('email').notNull().default(''),
    // When the address was shown to be the person's (lib/core/accounts/email-confirmations.ts); null: not yet,
    // and then it counts for nothing (no reset mail, no sign-in by it, no hold on the address).
    emailConfirmedAt: ts('email_confirmed_at'),
    nickname: text('nickname').notNull().default(''),
    bio: text('bio').notNull().default(''),
    website: text('website').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    // The per-owner file number counter (fids are owner:n), shared by plots, grids and folders.
    fileCounter: integer('file_counter').notNull().default(0),
    dateJoined: ts('date_joined').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    // One account per confirmed address (people sign in with it); the empty default is no address.
    // Unconfirmed ones may repeat: whoever types an address first does not hold it.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`).where(sql`${t.email} <> '' AND ${t.emailConfirmedAt} IS NOT NULL`),
    index('users_email_unconfirmed_idx').on(sql`lower(${t.email})`).where(sql`${t.email} <> '' AND ${t.emailConfirmedAt} IS NULL`),
  ],
);

export const files = pgTable(
  'files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    filetype: text('filetype', { enum: ['plot', 'grid', 'fold', 'dashboard', 'spectacle_presentation'] }).notNull(),
    filename: text('filename').notNull(),
    // The containing folder's n, -1 at top level.
    parent: integer('parent').notNull().default(-1),
    worldReadable: boolean('world_readable').notNull().default(true),
    shareKey: text('share_key'),
    // A grid's metadata (any JSON value, null when none); other types have none.
    metadata: jsonb('metadata'),
    trashedAt: ts('trashed_at'),
    // The folder whose trashing trashed this file too: restoring that folder restores it.
    trashedWith: bigint('trashed_with', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('files_owner_n_key').on(t.ownerId, t.n),
    uniqueIndex('files_live_filename_key').on(t.ownerId, t.parent, t.filename).where(sql`${t.trashedAt} IS NULL`),
    // A profile's plots, newest first (keyset), without scanning the owner's other files.
    index('files_owner_plots_newest_idx')
      .on(t.ownerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.filetype} = 'plot' AND ${t.trashedAt} IS NULL`),
    // The workspace: a folder's live files latest modified first, and the trash latest first (listOwnFiles).
    index('files_owner_folder_modified_idx').on(t.ownerId, t.parent, t.updatedAt.desc(), t.n.desc()).where(sql`${t.trashedAt} IS NULL`),
    index('files_owner_trash_idx').on(t.ownerId, t.trashedAt.desc(), t.n.desc()).where(sql`${t.trashedAt} IS NOT NULL AND ${t.trashedWith} IS NULL`),
    // An owner's dashboards (or presentations), newest first (keyset): GET /v2/dashboards.
    index('files_owner_documents_newest_idx')
      .on(t.ownerId, t.filetype, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.filetype} IN ('dashboard', 'spectacle_presentation') AND ${t.trashedAt} IS NULL`),
    // Dashboards and presentations found by their filename's words: files_documents_search_idx, a GIN
    // index on the SQL function document_search_doc(filename), defined with it.
    check('files_filetype_check', sql`${t.filetype} IN ('plot', 'grid', 'fold', 'dashboard', 'spectacle_presentation')`),
  ],
);

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
    // Every plot on a grid (the SQL function plot_grid_keys).
    index('plots_search_idx').using('gin', t.search),
    index('plots_grid_keys_idx').using('gin', sql`plot_grid_keys(${t.srcRefs})`),
    check('plots_quality_check', sql`${t.quality} BETWEEN 0 AND 10`),
    check('plots_views_check', sql`${t.views} >= 0`),
    check('plots_stars_check', sql`${t.stars} >= 0`),
  ],
);

/**
 * A dashboard's or a presentation's content (lib/core/documents/dashboards.ts): the JSON text exactly as its
 * client sent it (answers return it as sent), its size, and a version bumped on every change (keys
 * its card image).
 */
export const documents = pgTable('documents', {
  fileId: bigint('file_id', { mode: 'number' })
    .primaryKey()
    .references(() => files.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  contentBytes: integer('content_bytes').notNull(),
  version: integer('version').notNull().default(1),
});

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
 * Column values as stored (lib/core/grids/column-store.ts): a grid's live columns and its kept versions'
 * columns point here, so a change that leaves a column's values as they were (a rename, a reorder,
 * another column's change) shares them instead of copying them. A row is never changed once
 * written: a write of values makes a new row, and a row no live or kept column points to goes in
 * the transaction that let it go. Rows belong to one grid (gone with it).
 */
export const columnValues = pgTable(
  'column_values',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gridId: bigint('grid_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    // json (not jsonb) keeps the values' text exactly as written, so reads splice it into answers as is.
    data: json('data').notNull(),
    length: integer('length').notNull(),
    // The stored json text's size in bytes: what serving the column costs, without reading it.
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    // The first 20 values (json array), for the grid record's `preview` without reading `data`.
    preview: json('preview'),
  },
  (t) => [index('column_values_grid_idx').on(t.gridId)],
);

export const gridColumns = pgTable(
  'grid_columns',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gridId: bigint('grid_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    ord: integer('ord').notNull(),
    // Its values (column_values); length, bytes and preview are theirs, copied here for the reads
    // that list columns without their values.
    valuesId: bigint('values_id', { mode: 'number' }).notNull(),
    length: integer('length').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    preview: json('preview'),
  },
  (t) => [uniqueIndex('grid_columns_grid_uid_key').on(t.gridId, t.uid), index('grid_columns_grid_ord_idx').on(t.gridId, t.ord)],
);

/**
 * The current state's place in the history of a plot (figure and title) or a grid (columns): its
 * version number, who saved it, with what client, when (lib/core/files/versions.ts). The state itself is
 * the live row; earlier ones are in plot_versions and grid_versions. A file without a row has had
 * no save since it was made before histories were kept: its current state is version 1, its owner's.
 */
export const fileSaves = pgTable(
  'file_saves',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client'),
    savedAt: ts('saved_at').notNull().defaultNow(),
    // The stored bytes of the file's kept earlier versions (the sum of their `bytes`): a person's
    // history is bounded by the sum over their files (lib/core/files/versions.ts).
    keptBytes: bigint('kept_bytes', { mode: 'number' }).notNull().default(0),
  },
  // Deleting a user sets its authorship to null: found by index, not by a scan of every save.
  (t) => [index('file_saves_author_idx').on(t.authorId).where(sql`${t.authorId} IS NOT NULL`)],
);

/** A plot's earlier figures and titles, each as it was current (bounded: lib/core/files/versions.ts). */
export const plotVersions = pgTable(
  'plot_versions',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    // Null when it is the figure of the next version (or of the live plot, for the newest kept one):
    // a change of the title alone keeps no copy of the figure (lib/core/files/versions.ts).
    figure: jsonb('figure'),
    title: text('title').notNull(),
    titleGiven: boolean('title_given').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client'),
    savedAt: ts('saved_at').notNull(),
    // Its stored figure's and title's text: what the history's byte bounds count.
    bytes: integer('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.version] }), index('plot_versions_author_idx').on(t.authorId).where(sql`${t.authorId} IS NOT NULL`)],
);

/** A grid's earlier states (their columns: grid_version_columns), bounded like plot_versions. */
export const gridVersions = pgTable(
  'grid_versions',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client'),
    savedAt: ts('saved_at').notNull(),
    // The stored bytes of the column values it is the newest state to hold (values the live grid or
    // a later version holds count there): what dropping it and every older version frees.
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.version] }), index('grid_versions_author_idx').on(t.authorId).where(sql`${t.authorId} IS NOT NULL`)],
);

/** The columns of a grid's earlier state, as grid_columns held them: their values shared (column_values). */
export const gridVersionColumns = pgTable(
  'grid_version_columns',
  {
    fileId: bigint('file_id', { mode: 'number' }).notNull(),
    version: integer('version').notNull(),
    uid: text('uid').notNull(),
    name: text('name').notNull(),
    ord: integer('ord').notNull(),
    valuesId: bigint('values_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.version, t.uid] }),
    foreignKey({ columns: [t.fileId, t.version], foreignColumns: [gridVersions.fileId, gridVersions.version] }).onDelete('cascade'),
  ],
);

/**
 * People a file is shared with by name (lib/core/files/collaborators.ts): `read` or `write`. A folder's
 * collaborators reach everything below it (the SQL function file_collaboration).
 */
export const collaborators = pgTable(
  'collaborators',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permission: text('permission', { enum: ['read', 'write'] }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.fileId, t.userId] }),
    // "Shared with me": a person's shares, newest first.
    index('collaborators_user_idx').on(t.userId, t.createdAt.desc(), t.fileId.desc()),
    check('collaborators_permission_check', sql`${t.permission} IN ('read', 'write')`),
  ],
);

/**
 * Whom a person blocked (lib/core/accounts/blocks.ts): shares from them are refused, and their shares to the
 * person went when the block was made.
 */
export const blocks = pgTable(
  'blocks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.blockedId] }), check('blocks_not_self_check', sql`${t.userId} <> ${t.blockedId}`)],
);

/** Browser sign-in sessions: the cookie holds a random token, the table only its sha256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Sign-up invitations (`npm run user:invite`): the link holds a random token, the table only its sha256. */
export const invitations = pgTable('invitations', {
  tokenHash: text('token_hash').primaryKey(),
  email: text('email').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  // Set once, by the sign-up that used it (the same transaction that made the account).
  usedAt: ts('used_at'),
  usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
});

/** "Forgot password?" links (lib/core/accounts/password-resets.ts): the link holds a random token, the table only its sha256. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    // Set once, by the reset that used it (the same transaction that set the password).
    usedAt: ts('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/** Address confirmation links (lib/core/accounts/email-confirmations.ts): the link holds a random token, the table only its sha256. */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // The address the link was sent to: it confirms that one only.
    email: text('email').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('email_confirmations_user_idx').on(t.userId)],
);

/** Process-independent settings, e.g. the secret that signs page cursors. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Rendered PNGs, keyed by plot and figure version, so an update never serves an older image. */
export const plotImages = pgTable(
  'plot_images',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    size: text('size', { enum: ['default', 'block-thumb', 'list-thumb', 'card'] }).notNull(),
    png: bytea('png').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.version, t.size] })],
);

/**
 * The image render queue: one row per plot whose current version still needs images. Workers in any
 * process claim rows with FOR UPDATE SKIP LOCKED and a lease (locked_until), so a worker that dies
 * mid-render only delays its job.
 */
export const imageJobs = pgTable(
  'image_jobs',
  {
    fileId: bigint('file_id', { mode: 'number' })
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    // The plot's owner: jobs are taken round robin across owners (see turn), and each owner may have
    // only so many queued.
    ownerId: integer('owner_id').notNull(),
    // The job's place in a round robin: an owner's k-th queued job gets the lowest turn still queued
    // plus k, and jobs are taken by turn, then oldest first. One owner's bulk of jobs cannot starve
    // another's single one.
    turn: bigint('turn', { mode: 'number' }).notNull().default(0),
    version: integer('version').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    runAfter: ts('run_after').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('image_jobs_turn_idx').on(t.turn, t.createdAt, t.fileId), index('image_jobs_owner_idx').on(t.ownerId)],
);

/** Fixed-window request counters for rate limiting, shared by every app process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

/**
 * Slots held by work in flight (e.g. `render:{user}:{slot}` for image exports), shared by every app
 * process: a holder inserts its row, deletes it when done, and a row past `expires_at` (its holder
 * died) may be taken over.
 */
export const leases = pgTable('leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: ts('expires_at').notNull(),
});
