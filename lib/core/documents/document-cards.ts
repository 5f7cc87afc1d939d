// Dashboards and presentations as cards: a person's public ones for their profile, and those a search
// finds, each with what its card shows (owner, name, kind, dates). Live ones only.
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { files, users } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { parseWith } from '../json-text';
import { isoText } from '../records';
import { parseSearch, qSchema, type SearchScope } from '../plots/search';

/** How many a profile shows (the owner's workspace lists them all). */
export const PROFILE_DOCUMENTS = 12;
/** How many a search shows beside its plots: the newest that match (docs/search.md). */
export const SEARCH_DOCUMENTS = 12;

export interface DocumentCardRow {
  owner: string;
  n: number;
  filename: string;
  filetype: 'dashboard' | 'spectacle_presentation';
  updatedAt: Date;
}

/** A person's world-readable documents, latest changed first: a profile is for everyone. */
export async function listPublicDocuments(db: Db, ownerId: number, limit = PROFILE_DOCUMENTS): Promise<DocumentCardRow[]> {
  const rows = await db
    .select({ owner: users.username, n: files.n, filename: files.filename, filetype: files.filetype, updatedAt: files.updatedAt })
    .from(files)
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(
      and(eq(files.ownerId, ownerId), inArray(files.filetype, ['dashboard', 'spectacle_presentation']), eq(files.worldReadable, true), isNull(files.trashedAt)),
    )
    .orderBy(desc(files.updatedAt), desc(files.n))
    .limit(limit);
  return rows as DocumentCardRow[];
}

/**
 * The documents whose filename has the words of `q` (a web-search query, as plots are searched: the
 * words of the SQL function document_search_doc, through its index), the newest changed first:
 * public ones of everyone (scope 'public') or the viewer's own (scope 'own'). A query of `type:`
 * filters alone names trace types, which documents have none of: it finds none.
 */
export async function searchDocuments(db: Db, viewer: Viewer | null, q: string, scope: SearchScope, limit = SEARCH_DOCUMENTS): Promise<DocumentCardRow[]> {
  const { words, types } = parseSearch(parseWith(qSchema, q, 'q'));
  if (types.length || !/[\p{L}\p{N}]/u.test(words)) return [];
  if (scope === 'own' && !viewer) return [];
  const whose = scope === 'own' ? sql`f.owner_id = ${viewer!.id}::int` : sql`f.world_readable`;
  const rows = await queryRows<{ owner: string; n: number; filename: string; filetype: DocumentCardRow['filetype']; updated: string }>(
    db,
    sql`SELECT u.username AS owner, f.n, f.filename, f.filetype, ${isoText(sql`f.updated_at`, 'millis')} AS updated
        FROM files f JOIN users u ON u.id = f.owner_id
        WHERE f.filetype IN ('dashboard', 'spectacle_presentation') AND f.trashed_at IS NULL
          AND document_search_doc(f.filename) @@ websearch_to_tsquery('simple', ${words}) AND ${whose}
        ORDER BY f.updated_at DESC, f.id DESC
        LIMIT ${limit}`,
  );
  return rows.map((r) => ({ owner: r.owner, n: r.n, filename: r.filename, filetype: r.filetype, updatedAt: new Date(r.updated) }));
}
