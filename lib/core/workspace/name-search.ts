// A search of one's own files by name, for the kinds the plot and document searches leave out: the
// owner's grids and folders (the workspace's box finds every kind of file).
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { parseWith } from '../json-text';
import { parseSearch, qSchema } from '../plots/search';

/** How many grids and folders a search of one's own files shows beside its plots. */
export const OWN_NAME_MATCHES = 24;

/**
 * The owner's live grids and folders whose filename has the words of `q` (a web-search query, the
 * words as dashboards' are matched: document_search_doc), the latest modified first. Plots,
 * dashboards and presentations have searches of their own; a `type:` filter names trace types,
 * which these have none of: it finds none.
 */
export async function findOwnGridsAndFolders(
  db: Db,
  viewer: Viewer,
  q: string,
  limit = OWN_NAME_MATCHES,
): Promise<{ n: number; filetype: 'grid' | 'fold'; filename: string; parent: number }[]> {
  const { words, types } = parseSearch(parseWith(qSchema, q, 'q'));
  if (types.length || !/[\p{L}\p{N}]/u.test(words)) return [];
  return queryRows(
    db,
    sql`SELECT f.n, f.filetype, f.filename, f.parent FROM files f
        WHERE f.owner_id = ${viewer.id}::int AND f.filetype IN ('grid', 'fold') AND f.trashed_at IS NULL
          AND document_search_doc(f.filename) @@ websearch_to_tsquery('simple', ${words})
        ORDER BY f.updated_at DESC, f.n DESC LIMIT ${limit}`,
  );
}
