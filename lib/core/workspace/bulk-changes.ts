// Changes to several of the owner's files at once (the workspace's selection): move, sharing, trash
// and delete for good, each all or nothing in one transaction, through the same rules as one file's
// change; trashing or deleting plots can take along the grids only they draw from. And emptying the
// trash, in batches.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { deleteFile, trashFile, updateFile } from '../files/file-changes';
import type { Filetype } from '../files/files';
import { refreshPlotsOfGrids } from '../images/images';
import { VISIBILITY_FIELDS, type Visibility } from '../permissions';
import { sharePlotWithData } from '../plots/plot-data-sharing';
import { gridsOnlyOf } from '../files/references';

/** Most files one change takes: a page of the workspace's worth, so one request stays bounded. */
export const MAX_BULK_FILES = 100;

export type BulkChange =
  | { kind: 'move'; parent: number }
  | { kind: 'share'; sharing: Visibility }
  | { kind: 'trash'; withGrids: boolean }
  | { kind: 'delete'; withGrids: boolean };

/** What a change did: the files chosen, and the grids that went with their plots. */
export interface BulkResult {
  files: number;
  grids: number;
}

/**
 * Applies `change` to the viewer's files numbered `ns` (at most MAX_BULK_FILES), all or none: the first
 * refusal (a file that is not theirs, a name taken in the target folder...) undoes the rest and is
 * thrown. A plot's sharing takes its grids along as on its own form (sharePlotWithData).
 */
export async function changeFiles(db: Db, viewer: Viewer, ns: number[], change: BulkChange): Promise<BulkResult> {
  const chosen = [...new Set(ns)].slice(0, MAX_BULK_FILES);
  const fid = (n: number) => ({ owner: viewer.username, n });
  return db.transaction(async (tx) => {
    if (change.kind === 'move' || change.kind === 'share') {
      for (const n of chosen) {
        if (change.kind === 'move') await updateFile(tx, viewer, fid(n), { parent: change.parent });
        else if ((await filetypes(tx, viewer, [n]))[0]?.filetype === 'plot') await sharePlotWithData(tx, viewer, fid(n), change.sharing);
        else await updateFile(tx, viewer, fid(n), VISIBILITY_FIELDS[change.sharing]);
      }
      return { files: chosen.length, grids: 0 };
    }
    const trash = change.kind === 'trash';
    const rows = await filetypes(tx, viewer, chosen);
    const plotIds = rows.filter((r) => r.filetype === 'plot').map((r) => Number(r.id));
    const grids = change.withGrids ? await gridsOnlyOf(tx, viewer, plotIds, trash ? 'live' : 'any') : [];
    for (const n of chosen) await (trash ? trashFile(tx, viewer, fid(n)) : deleteFile(tx, viewer, fid(n)));
    // A grid chosen too, or in a folder chosen, already went.
    const left = await queryRows<{ n: number }>(
      tx,
      sql`SELECT n FROM files WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(grids.map((g) => g.id))}::jsonb)::bigint)
          ${trash ? sql`AND trashed_at IS NULL` : sql``}`,
    );
    for (const g of left) await (trash ? trashFile(tx, viewer, fid(g.n)) : deleteFile(tx, viewer, fid(g.n)));
    return { files: chosen.length, grids: left.length };
  });
}

/** The viewer's files among `ns`, live or trashed, with their ids and types. */
const filetypes = (db: Db, viewer: Viewer, ns: number[]) =>
  queryRows<{ id: string | number; n: number; filetype: Filetype }>(
    db,
    sql`SELECT id, n, filetype FROM files WHERE owner_id = ${viewer.id}::int
          AND n IN (SELECT jsonb_array_elements_text(${JSON.stringify(ns)}::jsonb)::int)`,
  );

/** Files one batch of "Empty trash" deletes, and the batches one request runs: a huge trash takes several requests. */
export const EMPTY_TRASH_BATCH = 500;
const EMPTY_TRASH_BATCHES = 4;

/** How many files are in the viewer's trash (with what went with folders), counted up to `cap`. */
export async function countTrash(db: Db, viewer: Viewer, cap: number): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM (SELECT 1 FROM files WHERE owner_id = ${viewer.id}::int AND trashed_at IS NOT NULL LIMIT ${cap}) t`,
  );
  return row.count;
}

/**
 * Deletes what is in the viewer's trash for good, a batch per transaction, for a bounded number of
 * batches; `more` says the trash still holds files (the person empties it again). Plots of anyone
 * drawing from a grid deleted are drawn again without it, as after deleteFile.
 */
export async function emptyTrash(db: Db, viewer: Viewer): Promise<{ deleted: number; more: boolean }> {
  let deleted = 0;
  for (let i = 0; i < EMPTY_TRASH_BATCHES; i++) {
    const gone = await db.transaction(async (tx) => {
      const rows = await queryRows<{ n: number; filetype: Filetype }>(
        tx,
        sql`DELETE FROM files WHERE id IN (
              SELECT id FROM files WHERE owner_id = ${viewer.id}::int AND trashed_at IS NOT NULL LIMIT ${EMPTY_TRASH_BATCH} FOR UPDATE
            ) RETURNING n, filetype`,
      );
      await refreshPlotsOfGrids(
        tx,
        rows.filter((r) => r.filetype === 'grid').map((r) => ({ owner: viewer.username, n: r.n })),
      );
      return rows.length;
    });
    deleted += gone;
    if (gone < EMPTY_TRASH_BATCH) return { deleted, more: false };
  }
  return { deleted, more: (await countTrash(db, viewer, 1)) > 0 };
}
