// A person's public dashboards and presentations, for their profile: the newest few, each with what
// its card shows (name, kind, dates). Only world-readable, live ones: a profile is for everyone.
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { files } from '@/db/schema';

/** How many a profile shows (the owner's workspace lists them all). */
export const PROFILE_DOCUMENTS = 12;

export interface DocumentCardRow {
  n: number;
  filename: string;
  filetype: 'dashboard' | 'spectacle_presentation';
  updatedAt: Date;
}

export async function listPublicDocuments(db: Db, ownerId: number, limit = PROFILE_DOCUMENTS): Promise<DocumentCardRow[]> {
  const rows = await db
    .select({ n: files.n, filename: files.filename, filetype: files.filetype, updatedAt: files.updatedAt })
    .from(files)
    .where(
      and(eq(files.ownerId, ownerId), inArray(files.filetype, ['dashboard', 'spectacle_presentation']), eq(files.worldReadable, true), isNull(files.trashedAt)),
    )
    .orderBy(desc(files.updatedAt), desc(files.n))
    .limit(limit);
  return rows as DocumentCardRow[];
}
