// File records and their URLs (built from the public origin: docs/tls.md). Plot records are built by Postgres as JSON
// text (the list's hot path: no parse/serialize round trip in Node); grids and folders in TS.
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { notFound } from './errors';
import { canReadSql, canWriteSql, isOwnerSql, seesCollaboratorsSql, shareUrlSql, type Collaboration } from './permissions';
import { urlSql } from './url-sql';

/** A username: letters, digits, "_", "." and "-", at most 50, starting with a letter or digit. */
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$/;

export interface Fid {
  owner: string;
  n: number;
}

/** `owner:n` (Next has already decoded the path segment: never decode twice). Else null, a 404. */
export function parseFid(value: string): Fid | null {
  const m = /^([^:]+):([1-9][0-9]{0,9})$/.exec(value);
  if (!m || !USERNAME.test(m[1])) return null;
  const n = Number(m[2]);
  return n <= 2147483647 ? { owner: m[1], n } : null;
}

/** A route's fid segment, or the 404 a missing file gets. */
export function fidParam(raw: string): Fid {
  const fid = parseFid(raw);
  if (!fid) throw notFound();
  return fid;
}

export const fidOf = (owner: string, n: number) => `${owner}:${n}`;

/**
 * The files row numbered `n` of owner `ownerId` (SQL expressions, e.g. a lateral reference), in any
 * state, as a subquery: the one way statements find a file by fid. It names neither trashed_at nor
 * filetype (callers test those on its output) and is fenced (OFFSET 0) so that their tests stay
 * outside: then the unique (owner_id, n) index is the only one that fits. With `trashed_at IS NULL`
 * inside, a partial index on (owner_id, parent, n) fits too, and plans made from small or stale
 * statistics, or generic ones, chose it and walked all of the owner's files: a lookup then took
 * time in proportion to how many files the owner has.
 */
export const fileNumbered = (ownerId: SQL, n: SQL) => sql`SELECT * FROM files WHERE owner_id = ${ownerId} AND n = ${n} OFFSET 0`;

const ISO_US = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * A timestamp as the spec's UTC text, in SQL: plot records are built as json by the database, so
 * they cannot use Date.toISOString(). Microseconds for creation_time (the database keeps them),
 * milliseconds for date_modified, as the spec's examples have them.
 */
export const isoText = (col: SQL, precision: 'micros' | 'millis') =>
  sql`to_char(${col} AT TIME ZONE 'UTC', ${sql.raw(precision === 'micros' ? ISO_US : ISO_MS)})`;

/** The plot record's fields that TypeScript reads (plotRecordSql builds the whole record). */
export interface PlotRecord {
  title: string;
  caption: string;
  web_url: string;
  embed_url: string;
  date_modified: string;
  image_urls: { default: string };
  source_fid: string | null;
  stars: { count: number };
  comments: { count: number };
  comments_enabled: boolean;
  views: number;
  figure: { layout?: Record<string, unknown> };
}

/** The people one file may be shared with by name: what its record lists, so the list needs no pages. */
export const MAX_COLLABORATORS = 100;

export interface CollaboratorEntry {
  username: string;
  permission: Collaboration;
  date_added: string;
}
export interface CollaboratorList {
  results: CollaboratorEntry[];
  count: number;
}
/** A record's `collaborators` for anyone but the file's owner and collaborators. */
export const NO_COLLABORATORS: CollaboratorList = { results: [], count: 0 };

/** collaboratorsSql's answer as a driver hands it back (JSON text on some paths). */
export const collaboratorListOf = (value: unknown): CollaboratorList =>
  value == null ? NO_COLLABORATORS : typeof value === 'string' ? (JSON.parse(value) as CollaboratorList) : (value as CollaboratorList);

/**
 * A file's collaborators as a record's `collaborators` (`{"results": [{username, permission,
 * date_added}], "count"}`, first shared first) when `shown` (the owner and collaborators), else empty.
 */
export const collaboratorsSql = (shown: SQL, fileId: SQL = sql`f.id`) => sql`CASE WHEN ${shown} THEN (
    SELECT json_build_object('results', coalesce(json_agg(json_build_object('username', cu.username, 'permission', c.permission,
             'date_added', ${isoText(sql`c.created_at`, 'millis')}) ORDER BY c.created_at, c.user_id), '[]'::json), 'count', count(*))
    FROM collaborators c JOIN users cu ON cu.id = c.user_id WHERE c.file_id = ${fileId})
  ELSE '{"results":[],"count":0}'::json END`;

/**
 * The spec 2.1 plot record as JSON text, an expression over `f` (files), `p` (plots), `u` (users) and
 * `c.o` (the origin, bound once by `originJoin`). `detail` adds share_url, content_url and source_fid.
 * The viewer who owns the plot also gets `share_key` while the secret link is enabled (seesShareKey
 * without a key, in SQL: the owner alone). `viewerId` may
 * be a placeholder (a statement compiled once), null for anonymous callers. `viewerOwns` says the
 * viewer is known to own the plot (its create): the ownership tests, and the source_fid lookup they
 * guard, drop out of the statement, whose executor sets up every subquery on every run.
 */
export function plotRecordSql(viewerId: number | null | Placeholder, detail: boolean, viewerOwns = false): SQL {
  const [o, username, n] = [sql`c.o`, sql`u.username`, sql`f.n`];
  const fid = sql`u.username || ':' || f.n`;
  const webUrl = urlSql.file(o, username, n);
  const listThumb = urlSql.image(o, username, n, 'list-thumb');
  const empty = sql`'{"results":[],"count":0}'::json`;
  const owner = viewerOwns ? sql`true` : isOwnerSql('f', viewerId);
  const extra = detail
    ? sql`,
      'share_url', ${shareUrlSql(webUrl, 'f', owner)},
      'content_url', ${urlSql.content(o, username, n)},
      'source_fid', ${viewerOwns ? sql`p.source_fid` : sourceFidSql(viewerId)}`
    : sql``;
  const fields = sql`
    'creation_time', ${isoText(sql`f.created_at`, 'micros')},
    'date_modified', ${isoText(sql`f.updated_at`, 'millis')},
    'comments', ${commentsRecordSql()},
    'stars', ${starsRecordSql()},
    'comments_enabled', p.comments_enabled,
    'collaborators', ${viewerId === null ? empty : collaboratorsSql(viewerOwns ? sql`true` : seesCollaboratorsSql('f', viewerId))},
    'parented', f.parent <> -1,
    'embed_url', ${urlSql.file(o, username, n, 'embed')},
    'fid', ${fid},
    'filename', f.filename,
    'filetype', 'plot',
    'img_url', ${listThumb},
    'image_urls', json_build_object('default', ${urlSql.image(o, username, n)}, 'block-thumb', ${urlSql.image(o, username, n, 'block-thumb')}, 'list-thumb', ${listThumb}),
    'api_urls', json_build_object(
      'files', ${urlSql.apiFile(o, 'files', username, n)},
      'plots', ${urlSql.apiFile(o, 'plots', username, n)},
      'parent', ${urlSql.parentApi(o, username, sql`f.parent`)}),
    'owner', u.username,
    'parent', f.parent,
    'preview', '',
    'referencers', '[]'::json,
    'title', p.title,
    'views', p.views,
    'web_url', ${webUrl},
    'world_readable', f.world_readable,
    'share_key_enabled', f.share_key IS NOT NULL,
    'subfolder_count', NULL,
    'refresh_interval', NULL,
    'organize_view_url', ${urlSql.profile(o, username)},
    'current_user_permission', ${viewerOwns ? sql`'write'` : sql`CASE WHEN ${canWriteSql('f', viewerId)} THEN 'write' ELSE 'read' END`},
    'is_theme', p.is_theme,
    'is_template', p.is_template,
    'autosize', p.autosize,
    'caption', p.caption,
    'figure', ${viewerId === null ? sql`figure_without_stream_tokens(p.figure)` : sql`CASE WHEN ${owner} THEN p.figure ELSE figure_without_stream_tokens(p.figure) END`},
    'height', p.height,
    'width', p.width,
    'user', ${userRecordSql()}${extra}`;
  // The references object's members go in as text before the closing brace (json_build_object's
  // text always ends with it), so its lookups run once for both of its keys.
  const record = sql`left(json_build_object(${fields})::text, -1) || ', ' || substr(${plotReferencesSql(viewerId)}::text, 2)`;
  // Anonymous callers own nothing: their records (the public list's hot path) skip the CASE.
  if (viewerId === null) return record;
  // The owner's share_key goes in the same way: one record expression, not one per CASE branch, since a statement's executor
  // set-up compiles every branch on every run (the source_fid subquery twice), which cost a create
  // more than building the record.
  return sql`left(${record}, -1)
    || CASE WHEN ${owner} AND f.share_key IS NOT NULL THEN ', "share_key" : ' || to_json(f.share_key)::text ELSE '' END || '}'`;
}

/** The files a record names among those it references (`references`); the rest are counted. */
export const MAX_REFERENCES = 100;

/**
 * A plot record's `references` (the live grids its srcs name that the viewer may read, as `{fid,
 * filetype}`, by owner and number) and `references_hidden` (how many others: unreadable, or past the first MAX_REFERENCES
 * the record looks at), as one JSON object over `p` (plots): the record splices its members in, so
 * the lookups run once. Each key costs a few index lookups; plots without srcs skip them.
 */
function plotReferencesSql(viewerId: number | null | Placeholder): SQL {
  const max = sql.raw(String(MAX_REFERENCES));
  return sql`CASE WHEN p.src_refs = '[]'::jsonb THEN '{"references":[],"references_hidden":0}'::json ELSE (
    SELECT json_build_object(
      'references', coalesce(json_agg(json_build_object('fid', r.owner || ':' || r.n, 'filetype', 'grid') ORDER BY lower(r.owner), r.n) FILTER (WHERE r.readable), '[]'::json),
      'references_hidden', count(*) FILTER (WHERE NOT r.readable) + greatest(cardinality(plot_grid_keys(p.src_refs)) - ${max}, 0))
    FROM (SELECT gu.username AS owner, g.n,
                 ${canReadSql('g', viewerId)} AS readable
          FROM unnest((plot_grid_keys(p.src_refs))[1:${max}]) AS k(key)
          CROSS JOIN LATERAL (SELECT id, username FROM users WHERE lower(username) = split_part(k.key, ':', 1) OFFSET 0) gu
          CROSS JOIN LATERAL (${fileNumbered(sql`gu.id`, sql`split_part(k.key, ':', 2)::int`)}) g
          WHERE g.filetype = 'grid' AND g.trashed_at IS NULL) r) END`;
}

/**
 * The plot's lineage, to its owner and to those who may read the source plot; null to anyone else,
 * since a source that is private (or gone) is, to them, a missing file whose fid they must not learn.
 */
function sourceFidSql(viewerId: number | null | Placeholder): SQL {
  return sql`CASE WHEN p.source_fid IS NULL OR ${isOwnerSql('f', viewerId)} THEN p.source_fid
    ELSE (SELECT p.source_fid FROM users su CROSS JOIN LATERAL (${fileNumbered(sql`su.id`, sql`split_part(p.source_fid, ':', 2)::int`)}) sf
          WHERE lower(su.username) = lower(split_part(p.source_fid, ':', 1))
            AND sf.filetype = 'plot' AND sf.trashed_at IS NULL AND ${canReadSql('sf', viewerId)}) END`;
}

/** Stargazers a record names (the newest); the count is exact and the whole list pages (GET /v2/files/{fid}/stars). */
export const RECORD_STARGAZERS = 10;
/** Comments a record carries (the newest); the whole list pages (GET /v2/plots/{fid}/comments). */
export const RECORD_COMMENTS = 3;

/** A record's `stars`, `{"results": [{"username"}], "count"}` (plots nobody starred skip the subquery). */
function starsRecordSql(): SQL {
  return sql`CASE WHEN p.stars = 0 THEN '{"results":[],"count":0}'::json ELSE json_build_object(
    'results', (SELECT coalesce(json_agg(json_build_object('username', x.username) ORDER BY x.created_at DESC, x.user_id DESC), '[]'::json)
                FROM (SELECT su.username, s.created_at, s.user_id FROM stars s JOIN users su ON su.id = s.user_id
                      WHERE s.file_id = f.id ORDER BY s.created_at DESC, s.user_id DESC LIMIT ${sql.raw(String(RECORD_STARGAZERS))}) x),
    'count', p.stars) END`;
}

/** A comment as the API answers it, over `cm` (comments) and `ca` (its author). */
export const commentRecordSql = () =>
  sql`json_build_object('id', cm.id, 'text', cm.text, 'author', ca.username,
    'creation_time', ${isoText(sql`cm.created_at`, 'micros')}, 'date_modified', ${isoText(sql`cm.updated_at`, 'millis')})`;

/** A record's `comments`, `{"results": [comment...] (the newest), "count"}`. Records go only to those who may read the plot, and so its comments. */
function commentsRecordSql(): SQL {
  return sql`CASE WHEN p.comment_count = 0 THEN '{"results":[],"count":0}'::json ELSE json_build_object(
    'results', (SELECT coalesce(json_agg(x.c ORDER BY x.created_at DESC, x.id DESC), '[]'::json)
                FROM (SELECT ${commentRecordSql()} AS c, cm.created_at, cm.id FROM comments cm JOIN users ca ON ca.id = cm.author_id
                      WHERE cm.file_id = f.id ORDER BY cm.created_at DESC, cm.id DESC LIMIT ${sql.raw(String(RECORD_COMMENTS))}) x),
    'count', p.comment_count) END`;
}

/** Spec 2.3 as public responses carry it (hidden fields null). */
function userRecordSql(): SQL {
  return sql`json_build_object(
      'username', u.username,
      'profile_url', ${urlSql.profile(sql`c.o`, sql`u.username`)},
      'avatar_url', ${urlSql.avatar(sql`c.o`, sql`u.username`)},
      'background_url', ${urlSql.background(sql`c.o`)},
      'bio', u.bio, 'nickname', u.nickname, 'website', u.website,
      'date_joined', to_char(u.date_joined AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
      'stream_tokens', NULL, 'feature_set_id', NULL, 'csrf_token', NULL, 'map_access_tokens', NULL,
      'has_password', NULL, 'email', NULL, 'is_active', NULL, 'readonly', NULL, 'is_dash_creator', NULL,
      'dash_created_count', NULL, 'is_chart_creator', NULL, 'charts_created_count', NULL)`;
}

/** A plot's file and owner beside `p` (plots), as `f` and `u`: what `plotRecordSql` reads, in lists and the detail. */
export const RECORD_JOIN = sql`JOIN files f ON f.id = p.file_id JOIN users u ON u.id = f.owner_id`;

/** Binds the origin (or its placeholder) once per query as `c.o`. */
export const originJoin = (origin: string | Placeholder) => sql`CROSS JOIN (SELECT ${origin}::text AS o) c`;
