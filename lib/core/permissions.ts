// Who may do what with a file. Unreadable files answer exactly like missing ones (no existence leak).
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { sql, type Column, type Placeholder, type SQL } from 'drizzle-orm';
import { notAuthenticated, notFound, permissionDenied } from './errors';

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
  return (viewer !== null && viewer.id === file.ownerId) || holdsShareKey(file, shareKey);
}

/** The secret-link key to print for this viewer (links, embed codes): only for a secret file, and by seesShareKey; else null. */
export function shownShareKey(file: FileAccess, viewer: Viewer | null, shareKey?: string | null): string | null {
  return !file.worldReadable && file.shareKey && seesShareKey(file, viewer, shareKey) ? file.shareKey : null;
}

/** The key a page carries on its own requests (content, image, CSV, forms): the request's own, when it is the file's valid key and the file needs it. */
export function carriedShareKey(file: FileAccess, shareKey?: string | null): string | null {
  return !file.worldReadable && shareKey && holdsShareKey(file, shareKey) ? shareKey : null;
}

export function canRead(file: FileAccess, viewer: Viewer | null, shareKey?: string | null): boolean {
  return file.worldReadable || (viewer !== null && (viewer.id === file.ownerId || Boolean(file.collaboration))) || holdsShareKey(file, shareKey);
}

/** Whether the viewer changes the file's content: its owner and its `write` collaborators. */
export function canWrite(file: FileAccess, viewer: Viewer | null): boolean {
  return viewer !== null && (viewer.id === file.ownerId || file.collaboration === 'write');
}

/** canRead without a share key, as an SQL condition on a file's columns: for statements that decide in the database.
 * True or false, never null (an anonymous viewer's null would vanish in an aggregate such as bool_and). */
export const canReadSql = (file: { id: SQL | Column; worldReadable: SQL | Column; ownerId: SQL | Column }, viewerId: number | null | SQL | Placeholder) =>
  sql`(${file.worldReadable} OR coalesce(${file.ownerId} = ${viewerId}::int, false) OR ${collaborationSql(file.id, viewerId)} IS NOT NULL)`;

/** A viewer's share of a file by name in SQL (null for none): what getFile loads as `collaboration`. */
export const collaborationSql = (fileId: SQL | Column, viewerId: number | null | SQL | Placeholder) => sql`file_collaboration(${fileId}, ${viewerId}::int)`;

/** canWrite as an SQL condition on a file's columns, true or false. */
export const canWriteSql = (file: { id: SQL | Column; ownerId: SQL | Column }, viewerId: number | null | SQL | Placeholder) =>
  sql`(coalesce(${file.ownerId} = ${viewerId}::int, false) OR coalesce(${collaborationSql(file.id, viewerId)} = 'write', false))`;

/** The permission a record states: `write` to the owner and writers, `read` to everyone else (docs/api.md "Collaborators"). */
export const recordPermission = (file: FileAccess, viewer: Viewer | null): Collaboration => (canWrite(file, viewer) ? 'write' : 'read');

/** Who sees a file (public, private, secret) and the update fields that set it: words the browser says too (lib/shared/sharing.ts). */
export { type Visibility, VISIBILITY_FIELDS, visibilityOf } from '@/lib/shared/sharing';

/** Readable or 404. */
export function assertReadable<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): F {
  if (!file || !canRead(file, viewer, shareKey)) throw notFound();
  return file;
}

/** Only the owner trashes, deletes, moves, renames or re-shares a file: 401 anonymous, 404 for those who cannot read it, 403 for readers and writers. */
export function assertOwner<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): F {
  if (!viewer) throw notAuthenticated();
  const readable = assertReadable(file, viewer, shareKey);
  if (readable.ownerId !== viewer.id) throw permissionDenied();
  return readable;
}

/** The owner and writers change a file's content: 401 anonymous, 404 for those who cannot read it, 403 for readers. */
export function assertEditor<F extends FileAccess>(file: F | undefined, viewer: Viewer | null, shareKey?: string | null): F {
  if (!viewer) throw notAuthenticated();
  const readable = assertReadable(file, viewer, shareKey);
  if (!canWrite(readable, viewer)) throw permissionDenied();
  return readable;
}

/** Writers alone (the owner and `write` collaborators) see and restore a file's versions; anyone else gets the 404 of a missing file. */
export function assertWriter<F extends FileAccess>(file: F | undefined, viewer: Viewer | null): F {
  if (!file || !canWrite(file, viewer)) throw notFound();
  return file;
}
