// Who may do what with a file. Unreadable files answer exactly like missing ones (no existence leak).
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import { type Visibility, visibilityOf } from '@/lib/shared/sharing';
import { withShareKey } from '@/lib/shared/urls';
import { notAuthenticated, notFound, permissionDenied } from './errors';
import { urlSql } from './url-sql';

/** Who is asking, once authenticated (lib/core/accounts/auth.ts finds them): what the rules below decide on. */
export interface Viewer {
  id: number;
  username: string;
}

/** What a collaborator may do: read, or also change the content (lib/core/files/collaborators.ts). */
export type Collaboration = 'read' | 'write';

export interface FileAccess {
  id?: number;
  ownerId: number;
  worldReadable: boolean;
  shareKey: string | null;
  /** The viewer's share of the file by name (its own, or a folder's above it), loaded for the same
   * viewer the rules below are asked about (getFile); absent means none. */
  collaboration?: Collaboration | null;
}

/** Whether `viewer` owns the file (or the user's page: anything with an owner id): the one owner check, in SQL isOwnerSql. */
export function isOwner(viewer: { id: number } | null, file: { ownerId: number }): boolean {
  return viewer !== null && viewer.id === file.ownerId;
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether `shareKey` is the file's secret-link key (while its link is enabled). */
export function holdsShareKey(file: FileAccess, shareKey?: string | null): boolean {
  return Boolean(file.shareKey && shareKey && sameKey(file.shareKey, shareKey));
}

/**
 * The file's bearer key (its secret link's `share_key`) is its owner's to hand out: the owner sees it,
 * and so does a request that already carries it (the link it came with). Collaborators, `read` or
 * `write`, direct or through a folder, never do: removing one must end their access, and a copied
 * link would outlive it. Every page, embed code, server-component payload, record and mail asks this.
 */
export function seesShareKey(file: FileAccess, viewer: Viewer | null, shareKey?: string | null): boolean {
  return isOwner(viewer, file) || holdsShareKey(file, shareKey);
}

/** The secret-link key to print for this viewer (links, embed codes): only for a secret file, and by seesShareKey; else null. */
export function shownShareKey(file: FileAccess, viewer: Viewer | null, shareKey?: string | null): string | null {
  return !file.worldReadable && file.shareKey && seesShareKey(file, viewer, shareKey) ? file.shareKey : null;
}

/**
 * The link a file's record and page hand out: its page, with the secret link's key for those shownShareKey shows it to.
 * Records Postgres builds use its SQL twin shareUrlSql (without a request's key: the owner alone); tests/lib/share-keys.test.ts holds the two together.
 */
export const shareUrl = (webUrl: string, file: FileAccess, viewer: Viewer | null, shareKey?: string | null): string =>
  withShareKey(webUrl, shownShareKey(file, viewer, shareKey));

/** The key a page carries on its own requests (content, image, CSV, forms): the request's own, when it is the file's valid key and the file needs it. */
export function carriedShareKey(file: FileAccess, shareKey?: string | null): string | null {
  return !file.worldReadable && shareKey && holdsShareKey(file, shareKey) ? shareKey : null;
}

export function canRead(file: FileAccess, viewer: Viewer | null, shareKey?: string | null): boolean {
  return file.worldReadable || isOwner(viewer, file) || (viewer !== null && Boolean(file.collaboration)) || holdsShareKey(file, shareKey);
}

/** Whether the viewer changes the file's content: its owner and its `write` collaborators. */
export function canWrite(file: FileAccess, viewer: Viewer | null): boolean {
  return isOwner(viewer, file) || (viewer !== null && file.collaboration === 'write');
}

type SqlColumn = SQL | Column;
/** A file's columns in SQL (those a rule reads), or the alias of a `files` row in the statement (`f`, `g`...) that names them all. */
export type FileColumns<K extends 'worldReadable' | 'shareKey' = never> = ({ id: SqlColumn; ownerId: SqlColumn } & Record<K, SqlColumn>) | string;
type ViewerId = number | null | SQL | Placeholder;

function columns<K extends 'worldReadable' | 'shareKey' = never>(file: FileColumns<K>) {
  if (typeof file !== 'string') return file;
  if (!/^[a-z]\w{0,30}$/.test(file)) throw new Error(`not a table alias: ${file}`);
  const column = (name: string) => sql.raw(`${file}.${name}`);
  return { id: column('id'), ownerId: column('owner_id'), worldReadable: column('world_readable'), shareKey: column('share_key') };
}

/** isOwner as an SQL condition, true or false (an anonymous viewer's null never leaks into the condition around it). */
export const isOwnerSql = (file: FileColumns, viewerId: ViewerId) => sql`coalesce(${columns(file).ownerId} = ${viewerId}::int, false)`;

/** canRead without a share key, as an SQL condition on a file's columns: for statements that decide in the database.
 * True or false, never null (an anonymous viewer's null would vanish in an aggregate such as bool_and). */
export const canReadSql = (file: FileColumns<'worldReadable'>, viewerId: ViewerId) => {
  const f = columns(file);
  return sql`(${f.worldReadable} OR ${isOwnerSql(f, viewerId)} OR ${collaborationSql(f.id, viewerId)} IS NOT NULL)`;
};

/** A viewer's share of a file by name in SQL (null for none): what getFile loads as `collaboration`. */
export const collaborationSql = (fileId: SqlColumn, viewerId: ViewerId) => sql`file_collaboration(${fileId}, ${viewerId}::int)`;

/** canWrite as an SQL condition on a file's columns, true or false. */
export const canWriteSql = (file: FileColumns, viewerId: ViewerId) => {
  const f = columns(file);
  return sql`(${isOwnerSql(f, viewerId)} OR coalesce(${collaborationSql(f.id, viewerId)} = 'write', false))`;
};

/** Whether the viewer sees who a file is shared with: its owner and its collaborators (a folder's included). Its SQL twin: seesCollaboratorsSql. */
export const seesCollaborators = (file: FileAccess, viewer: Viewer | null): boolean =>
  isOwner(viewer, file) || (viewer !== null && Boolean(file.collaboration));

/** seesCollaborators as an SQL condition on a file's columns, true or false. */
export const seesCollaboratorsSql = (file: FileColumns, viewerId: ViewerId) => {
  const f = columns(file);
  return sql`(${isOwnerSql(f, viewerId)} OR ${collaborationSql(f.id, viewerId)} IS NOT NULL)`;
};

/** shareUrl in SQL over a file's columns (its share key among them), for the owner alone: `owner` is isOwnerSql or a known truth. */
export const shareUrlSql = (webUrl: SQL, file: FileColumns<'worldReadable' | 'shareKey'>, owner: SQL) => {
  const f = columns(file);
  return sql`CASE WHEN ${owner} AND NOT ${f.worldReadable} AND ${f.shareKey} IS NOT NULL THEN ${urlSql.withShareKey(webUrl, sql`${f.shareKey}`)} ELSE ${webUrl} END`;
};

/** The permission a record states: `write` to the owner and writers, `read` to everyone else (docs/api.md "Collaborators"). */
export const recordPermission = (file: FileAccess, viewer: Viewer | null): Collaboration => (canWrite(file, viewer) ? 'write' : 'read');

/** Who sees a file (public, private, secret) and the update fields that set it: words the browser says too (lib/shared/sharing.ts). */
export { type Visibility, VISIBILITY_FIELDS, visibilityOf } from '@/lib/shared/sharing';
/** A loaded file's visibility. */
export const fileVisibility = (file: Pick<FileAccess, 'worldReadable' | 'shareKey'>): Visibility => visibilityOf(file.worldReadable, file.shareKey !== null);

/** Marks a file the rules above let the viewer at hand read: nothing at run time, a promise to the type checker. */
declare const checked: unique symbol;

/**
 * A file the viewer at hand may read, as readableAs or the assertions below found it: what core's reads "of an
 * already-checked file" take (plotRecordOf, readableContent...), so a page that looked its file up once asks nothing again.
 */
export type Readable<F extends FileAccess = FileAccess> = F & { readonly [checked]: true };

/** The file when the viewer may read it (with the share key), else undefined. */
export function readableAs<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): Readable<F> | undefined {
  return file && canRead(file, viewer, shareKey) ? (file as Readable<F>) : undefined;
}

/** Readable or 404. */
export function assertReadable<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): Readable<F> {
  const readable = readableAs(file, viewer, shareKey);
  if (!readable) throw notFound();
  return readable;
}

/** Only the owner trashes, deletes, moves, renames or re-shares a file: 401 anonymous, 404 for those who cannot read it, 403 for readers and writers. */
export function assertOwner<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): Readable<F> {
  if (!viewer) throw notAuthenticated();
  const readable = assertReadable(file, viewer, shareKey);
  if (!isOwner(viewer, readable)) throw permissionDenied();
  return readable;
}

/** The owner and writers change a file's content: 401 anonymous, 404 for those who cannot read it, 403 for readers. */
export function assertEditor<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): Readable<F> {
  if (!viewer) throw notAuthenticated();
  const readable = assertReadable(file, viewer, shareKey);
  if (!canWrite(readable, viewer)) throw permissionDenied();
  return readable;
}

/** Writers alone (the owner and `write` collaborators) see and restore a file's versions; anyone else gets the 404 of a missing file. */
export function assertWriter<F extends FileAccess>(file: F | undefined, viewer: Viewer | null): Readable<F> {
  if (!file || !canWrite(file, viewer)) throw notFound();
  return file as Readable<F>;
}
