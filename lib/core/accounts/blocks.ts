// Whom a person takes shares from. Anyone can share a file with anyone by name, so "Shared with me"
// is anyone's to fill (a file named like a message, say): a person declines a share (leaves it,
// lib/core/files/collaborators.ts) or blocks its owner. A block removes every share from them (files and
// folders) at once and refuses their shares from then on, with a 400 at the name that says only that
// this person does not take shares from them; unblocking lets them share again (nothing comes back).
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { blocks } from '@/db/schema';
import type { Viewer } from './auth';
import { invalid, notFound } from '../errors';
import { isoText, USERNAME } from '../records';
import { getUserByUsername } from './users';

/** People one person may block: far more than anyone needs, a bound on the table all the same. */
export const MAX_BLOCKS = 1000;

export const blockSchema = z.object({ username: z.string().min(1).max(200).meta({ description: 'the user whose shares you refuse' }) });

export interface BlockEntry {
  username: string;
  date_blocked: string;
}

/** The refusal a share to someone who blocked its owner gets (nothing more than that). */
export const blockedShare = () => invalid('username', 'this person does not take shares from you');

/** Whether `userId` blocked `ownerId`, read under a key-share lock on `userId`'s row, so a block being made waits for this share (or it for the block). */
export async function blocksShares(db: Db, userId: number, ownerId: number): Promise<boolean> {
  // The lock first, the question in a statement of its own: a statement that waited for a lock
  // still reads what was committed when it began, and the block may be what it waited for.
  await queryRows(db, sql`SELECT 1 FROM users WHERE id = ${userId}::int FOR KEY SHARE`);
  const rows = await queryRows(db, sql`SELECT 1 FROM blocks WHERE user_id = ${userId}::int AND blocked_id = ${ownerId}::int`);
  return rows.length > 0;
}

/**
 * POST /v2/users/current/blocks: blocks a user; every file and folder they shared with the viewer is
 * unshared in the same transaction. `created` false when they were blocked already.
 */
export async function blockUser(db: Db, viewer: Viewer, username: string): Promise<{ entry: BlockEntry; created: boolean; removed: number }> {
  const user = USERNAME.test(username) ? await getUserByUsername(db, username) : undefined;
  if (!user) throw invalid('username', `there is no user named '${username}'`);
  if (user.id === viewer.id) throw invalid('username', 'you cannot block yourself');
  return db.transaction(async (tx) => {
    // Shares to the viewer take a key-share lock on their row (blocksShares): none is half made now.
    await queryRows(tx, sql`SELECT 1 FROM users WHERE id = ${viewer.id}::int FOR UPDATE`);
    const [{ n }] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM blocks WHERE user_id = ${viewer.id}::int`);
    const inserted = await tx.insert(blocks).values({ userId: viewer.id, blockedId: user.id }).onConflictDoNothing().returning({ userId: blocks.userId });
    if (inserted.length && n >= MAX_BLOCKS) throw invalid('username', `you can block at most ${MAX_BLOCKS} people`);
    const removed = await queryRows(
      tx,
      sql`DELETE FROM collaborators c USING files f WHERE c.file_id = f.id AND c.user_id = ${viewer.id}::int AND f.owner_id = ${user.id}::int RETURNING c.file_id`,
    );
    const [row] = await queryRows<{ at: string }>(
      tx,
      sql`SELECT ${isoText(sql`created_at`, 'millis')} AS at FROM blocks WHERE user_id = ${viewer.id}::int AND blocked_id = ${user.id}::int`,
    );
    return { entry: { username: user.username, date_blocked: row.at }, created: inserted.length > 0, removed: removed.length };
  });
}

/** DELETE /v2/users/current/blocks/{username}: they may share with the viewer again; 404 for someone not blocked. */
export async function unblockUser(db: Db, viewer: Viewer, username: string): Promise<void> {
  const user = USERNAME.test(username) ? await getUserByUsername(db, username) : undefined;
  const gone = user
    ? await db
        .delete(blocks)
        .where(and(eq(blocks.userId, viewer.id), eq(blocks.blockedId, user.id)))
        .returning({ userId: blocks.userId })
    : [];
  if (!gone.length) throw notFound();
}

/** GET /v2/users/current/blocks: whom the viewer blocked, latest first. */
export async function listBlocks(db: Db, viewer: Viewer): Promise<{ results: BlockEntry[]; count: number }> {
  const results = await queryRows<BlockEntry>(
    db,
    sql`SELECT u.username, ${isoText(sql`b.created_at`, 'millis')} AS date_blocked
        FROM blocks b JOIN users u ON u.id = b.blocked_id WHERE b.user_id = ${viewer.id}::int
        ORDER BY b.created_at DESC, lower(u.username) LIMIT ${MAX_BLOCKS}`,
  );
  return { results, count: results.length };
}
