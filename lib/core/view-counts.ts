// A plot page's view count: the one write a page view makes.
import 'server-only';
import { sql } from 'drizzle-orm';
import { compiledQuery, type Db } from '@/db/client';

/**
 * Counts one view of the plot in one statement (concurrent views never lose a count); the new total.
 * Its commit does not wait for the WAL to reach the disk (`synchronous_commit` off for this statement's
 * own transaction): a database crash may forget the last moment's views, and concurrent views of one
 * plot no longer queue on a flush each. Run it on its own, never inside a transaction whose other
 * writes must wait for theirs.
 */
export async function countView(db: Db, fileId: number): Promise<number> {
  const [row] = await COUNT_VIEW(db, { id: fileId });
  return Number(row?.views ?? 0);
}

const COUNT_VIEW = compiledQuery<{ views: string }>(
  () => sql`UPDATE plots SET views = views + 1
    FROM (SELECT set_config('synchronous_commit', 'off', true)) commit_mode
    WHERE file_id = ${sql.placeholder('id')}::bigint RETURNING views`,
);
