// "Bring your charts", stored: each figure read by figure-files.ts becomes a plot on a grid of its data,
// in the folder named after its file, in one transaction per figure (a refused figure leaves nothing:
// no grid, no plot, no folder made for it). A figure whose content key a live plot of the owner was
// made of is skipped, so a batch run again resumes where it stopped.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { figureImports } from '@/db/schema';
import { filePath } from '@/lib/shared/urls';
import type { Viewer } from '../accounts/auth';
import { storageRefusal } from '../accounts/storage';
import { ApiError } from '../errors';
import { createFolders, freeFilename } from '../files/files';
import { createPlotFromRawFigure } from '../plots/raw-figure';
import type { FigureBatch, FoundFigure, Refused } from './figure-files';

export interface ImportedPlot {
  label: string;
  fid: string;
  name: string;
  folder: string;
  /** The plot's page, `/~owner/n/`. */
  path: string;
  /** With keepNumbers: whether the number its file said was free and is now its own. */
  keptNumber?: boolean;
}

export interface ImportResult {
  made: ImportedPlot[];
  /** Figures a live plot of the owner was already made of (an earlier run). */
  skipped: (Refused & { fid: string; path: string })[];
  refused: Refused[];
}

export interface ImportOptions {
  origin: string;
  /** Take the number (`~user/N`) a Chart Studio file says when it is free: above every number the owner has had. */
  keepNumbers?: boolean;
  worldReadable?: boolean;
  /** Called after each figure: how many are done of how many, and what became of this one. */
  onProgress?: (done: number, total: number, line: string) => void;
}

/** The owner's live top-level folder named `name`, made when there is none (a file of that name that is no folder: a numbered name). */
async function folderFor(tx: Db, owner: Viewer, name: string): Promise<string> {
  const [row] = await queryRows<{ filetype: string }>(
    tx,
    sql`SELECT filetype FROM files WHERE owner_id = ${owner.id} AND parent = -1 AND filename = ${name} AND trashed_at IS NULL`,
  );
  if (row?.filetype === 'fold') return name;
  const free = row ? await freeFilename(tx, owner.id, -1, name) : name;
  await createFolders(tx, owner, [free]);
  return free;
}

/**
 * Reserves number `n` for the plot being made when it is free: above the owner's counter (numbers are
 * never reused, so one at or below it may have been a deleted file's). The counter moves to `n`.
 */
async function reserveNumber(tx: Db, ownerId: number, n: number): Promise<boolean> {
  // The lock create_file takes: numbers are handed out one at a time per owner.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(20120, ${ownerId}::int)`);
  const rows = await queryRows(tx, sql`UPDATE users SET file_counter = ${n}::int WHERE id = ${ownerId} AND file_counter < ${n}::int RETURNING id`);
  return rows.length > 0;
}

async function importOne(db: Db, owner: Viewer, fig: FoundFigure, opts: ImportOptions): Promise<ImportedPlot> {
  return db.transaction(async (tx) => {
    const folder = await folderFor(tx, owner, fig.folder);
    const [{ n: folderN }] = await queryRows<{ n: number }>(
      tx,
      sql`SELECT n FROM files WHERE owner_id = ${owner.id} AND parent = -1 AND filename = ${folder} AND trashed_at IS NULL`,
    );
    const name = await freeFilename(tx, owner.id, folderN, fig.name);
    const gridName = await freeFilename(tx, owner.id, folderN, `${name} data`);
    const keep = opts.keepNumbers && fig.number ? await reserveNumber(tx, owner.id, fig.number) : false;
    const fid = await createPlotFromRawFigure(tx, owner, fig.figure, {
      filename: name,
      gridFilename: gridName,
      parentPath: [folder],
      worldReadable: opts.worldReadable ?? false,
      origin: opts.origin,
    });
    const made = Number(fid.slice(fid.lastIndexOf(':') + 1));
    const n = keep && fig.number ? fig.number : made;
    const [{ id }] = await queryRows<{ id: number }>(tx, sql`UPDATE files SET n = ${n}::int WHERE owner_id = ${owner.id} AND n = ${made}::int RETURNING id`);
    await tx.insert(figureImports).values({ plotId: id, ownerId: owner.id, contentKey: fig.key });
    return {
      label: fig.label,
      fid: `${owner.username}:${n}`,
      name,
      folder,
      path: filePath(owner.username, n),
      ...(opts.keepNumbers && fig.number ? { keptNumber: keep } : {}),
    };
  });
}

/** Stores a read batch for `owner`, figure by figure (those that keep numbers in their numbers' order). */
export async function importFigures(db: Db, owner: Viewer, batch: FigureBatch, opts: ImportOptions): Promise<ImportResult> {
  const result: ImportResult = { made: [], skipped: [], refused: [...batch.refused] };
  const figures = opts.keepNumbers ? [...batch.figures].sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity)) : batch.figures;
  for (const [i, fig] of figures.entries()) {
    const [prior] = await queryRows<{ n: number }>(
      db,
      sql`SELECT f.n FROM figure_imports i JOIN files f ON f.id = i.plot_id
          WHERE i.owner_id = ${owner.id} AND i.content_key = ${fig.key} AND f.trashed_at IS NULL LIMIT 1`,
    );
    let line: string;
    if (prior) {
      const path = filePath(owner.username, prior.n);
      result.skipped.push({ label: fig.label, reason: 'imported before', fid: `${owner.username}:${prior.n}`, path });
      line = `skipped ${fig.label}: imported before as ${owner.username}:${prior.n}`;
    } else {
      try {
        const plot = await importOne(db, owner, fig, opts);
        result.made.push(plot);
        const numberNote = plot.keptNumber === false ? ` (number ${fig.number} was taken)` : '';
        line = `made ${plot.fid} "${plot.name}" in ${plot.folder}/ from ${fig.label}${numberNote}`;
      } catch (thrown) {
        // A figure past its owner's storage is refused like any other; those before it stay made.
        const error = storageRefusal(thrown) ?? thrown;
        if (!(error instanceof ApiError)) throw error;
        const reason = error.errors.map((e) => e.message).join('; ');
        result.refused.push({ label: fig.label, reason });
        line = `refused ${fig.label}: ${reason}`;
      }
    }
    opts.onProgress?.(i + 1, figures.length, line);
  }
  return result;
}
