// Comments on plots: plain text that readers of a plot write (signed in), its authors edit and delete,
// and its owner deletes or closes to new ones. A comment is as private as its plot: every path here
// first finds the plot the caller may read (else the 404 of a missing plot).
import 'server-only';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { decodeCursor, keysetPage, type RowsPage } from '../cursors';
import { conflict, notFound, permissionDenied } from '../errors';
import { assertReadable, isOwner } from '../permissions';
import { limitSql, past, type FeedQuery } from './plot-lists';
import { getPlotFile } from './plots';
import { limitComments } from '../accounts/rate-limit';
import { commentRecordSql, isoText, type Fid } from '../records';
import type { OwnedFile } from '../files/files';
import { notifyComment } from '../files/notifications';
import { COMMENT_MAX_CHARS } from '@/lib/shared/limits';

/** Comments one plot holds: past it, new ones are refused (its owner may delete some). */
export const COMMENTS_PER_PLOT = 10_000;

// Control characters other than line breaks and tabs (NUL cannot even be stored).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** A comment's text: line breaks kept (CRLF as LF), trimmed, 1..COMMENT_MAX_CHARS characters. */
export const commentTextSchema = z
  .string({ error: 'This field is required.' })
  .transform((text) => text.replace(/\r\n?/g, '\n').trim())
  .refine((text) => text.length > 0, 'A comment cannot be empty.')
  .refine((text) => text.length <= COMMENT_MAX_CHARS, `A comment can be at most ${COMMENT_MAX_CHARS.toLocaleString('en')} characters.`)
  .refine((text) => !CONTROL.test(text), 'A comment cannot hold control characters.')
  .meta({ description: `plain text, 1..${COMMENT_MAX_CHARS} characters once trimmed; line breaks kept, links (http, https) shown as links` });

export const commentBodySchema = z.object({ text: commentTextSchema });
export type CommentBody = z.output<typeof commentBodySchema>;

/** A route's comment id segment, or the 404 a missing comment gets. */
export function commentIdParam(raw: string): number {
  const id = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : 0;
  if (!id || !Number.isSafeInteger(id)) throw notFound();
  return id;
}

/** The plot at `fid` if the caller may read it, with whether it takes new comments. */
async function readablePlot(db: Db, viewer: Viewer | null, fid: Fid, shareKey?: string | null): Promise<OwnedFile & { commentsEnabled: boolean }> {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer, shareKey);
  const [row] = await queryRows<{ comments_enabled: boolean }>(db, sql`SELECT comments_enabled FROM plots WHERE file_id = ${file.id}`);
  if (!row) throw notFound();
  return { ...file, commentsEnabled: row.comments_enabled };
}

const closed = () => permissionDenied('Comments are turned off for this plot.');

/** One comment of the plot as the API answers it (JSON text), or the 404 of a missing one. */
async function commentText(db: Db, fileId: number, id: number): Promise<string> {
  const [row] = await queryRows<{ rec: string }>(
    db,
    sql`SELECT ${commentRecordSql()}::text AS rec FROM comments cm JOIN users ca ON ca.id = cm.author_id WHERE cm.id = ${id} AND cm.file_id = ${fileId}`,
  );
  if (!row) throw notFound();
  return row.rec;
}

/** GET /v2/plots/{fid}/comments: a page of comments, newest first, as JSON texts. The cursor is bound to the plot. */
export async function listComments(db: Db, viewer: Viewer | null, fid: Fid, q: FeedQuery, shareKey?: string | null): Promise<RowsPage<CommentRow>> {
  const file = await readablePlot(db, viewer, fid, shareKey);
  return listCommentsOf(db, file.id, q);
}

export interface CommentRow {
  rec: string;
  id: number;
  author_id: number;
  created: string;
}

/** A page of the plot's comments (the caller checked it may read the plot). */
export async function listCommentsOf(db: Db, fileId: number, q: FeedQuery): Promise<RowsPage<CommentRow>> {
  const order = `comments:${fileId}`;
  const cursor = q.cursor ? await decodeCursor(db, q.cursor, order, (c) => c.k.length === 2 && typeof c.k[0] === 'string' && typeof c.k[1] === 'number') : null;
  const dir = cursor?.d ?? 'n';
  const size = q.page_size ?? 20;
  const after = cursor ? past(dir, sql`cm.created_at, cm.id`, sql`${cursor.k[0]}::timestamptz, ${cursor.k[1]}::bigint`) : sql``;
  const sorted = dir === 'n' ? sql`cm.created_at DESC, cm.id DESC` : sql`cm.created_at ASC, cm.id ASC`;
  const rows = await queryRows<CommentRow>(
    db,
    sql`SELECT ${commentRecordSql()}::text AS rec, cm.id, cm.author_id, ${isoText(sql`cm.created_at`, 'micros')} AS created
        FROM comments cm JOIN users ca ON ca.id = cm.author_id
        WHERE cm.file_id = ${fileId} ${after} ORDER BY ${sorted} ${limitSql(size + 1)}`,
  );
  return keysetPage(db, rows, { size, cursor, order, keyOf: (r) => [r.created, Number(r.id)] });
}

/**
 * POST /v2/plots/{fid}/comments: the caller's comment on a plot they can read (the comment as JSON
 * text). 403 while the plot's comments are off, 409 once it holds COMMENTS_PER_PLOT, 429 past the
 * caller's allowance (lib/core/accounts/rate-limit.ts). The plot's row is locked while its count is checked,
 * so concurrent comments never pass the cap together.
 */
export async function createComment(db: Db, viewer: Viewer, fid: Fid, body: CommentBody, shareKey?: string | null): Promise<string> {
  const file = await readablePlot(db, viewer, fid, shareKey);
  if (!file.commentsEnabled) throw closed();
  await limitComments(db, viewer);
  const id = await db.transaction(async (tx) => {
    const [plot] = await queryRows<{ comment_count: number; comments_enabled: boolean }>(
      tx,
      sql`SELECT comment_count, comments_enabled FROM plots WHERE file_id = ${file.id} FOR UPDATE`,
    );
    if (!plot) throw notFound();
    if (!plot.comments_enabled) throw closed();
    if (plot.comment_count >= COMMENTS_PER_PLOT)
      throw conflict(`This plot has ${COMMENTS_PER_PLOT.toLocaleString('en')} comments, the most it can hold; no more can be added.`);
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO comments (file_id, author_id, text) VALUES (${file.id}, ${viewer.id}, ${body.text}) RETURNING id`,
    );
    await notifyComment(tx, file.id, viewer.id);
    return Number(row.id);
  });
  return commentText(db, file.id, id);
}

/** The comment `id` of the plot and its author, or the 404 of a missing one. */
async function commentOf(db: Db, fileId: number, id: number): Promise<{ authorId: number }> {
  const [row] = await queryRows<{ author_id: number }>(db, sql`SELECT author_id FROM comments WHERE id = ${id} AND file_id = ${fileId}`);
  if (!row) throw notFound();
  return { authorId: row.author_id };
}

/** PATCH /v2/plots/{fid}/comments/{id}: its author's new text (403 for anyone else who reads the plot, and while comments are off). */
export async function updateComment(db: Db, viewer: Viewer, fid: Fid, id: number, body: CommentBody, shareKey?: string | null): Promise<string> {
  const file = await readablePlot(db, viewer, fid, shareKey);
  const comment = await commentOf(db, file.id, id);
  if (comment.authorId !== viewer.id) throw permissionDenied('Only its author can edit a comment.');
  if (!file.commentsEnabled) throw closed();
  await db.execute(sql`UPDATE comments SET text = ${body.text}, updated_at = now() WHERE id = ${id} AND file_id = ${file.id}`);
  return commentText(db, file.id, id);
}

/** DELETE /v2/plots/{fid}/comments/{id}: by its author or the plot's owner (also while comments are off). */
export async function deleteComment(db: Db, viewer: Viewer, fid: Fid, id: number, shareKey?: string | null): Promise<void> {
  const file = await readablePlot(db, viewer, fid, shareKey);
  const comment = await commentOf(db, file.id, id);
  if (comment.authorId !== viewer.id && !isOwner(viewer, file)) throw permissionDenied("Only its author or the plot's owner can delete a comment.");
  await db.execute(sql`DELETE FROM comments WHERE id = ${id} AND file_id = ${file.id}`);
}
