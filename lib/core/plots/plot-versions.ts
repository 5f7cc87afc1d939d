// A plot's versions (lib/core/files/versions.ts keeps them): the list, one version, and its restore.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { plots } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import type { RowsPage } from '../cursors';
import { updateFile, type TypeUpdate } from '../files/file-changes';
import type { OwnedFile } from '../files/files';
import { assertWriter, isOwner } from '../permissions';
import { getPlot, getPlotFile, plotUpdate, type PlotUpdate } from './plots';
import type { Fid } from '../records';
import { listVersions, plotVersionAt, type Client, type VersionsQuery } from '../files/versions';
import { invalid } from '../errors';
import { keptKey } from '../files/kept-columns';
import { freeFilename } from '../files/files';
import { parseSrc } from '../figures/figure';
import { createGrid } from '../grids/grids';
import { DATA_GONE, versionSources } from './version-data';

/** The plot's writer's view of it (the 404 of a missing plot to anyone else). */
async function writablePlot(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  return assertWriter(await getPlotFile(db, fid, viewer), viewer);
}

/** GET /v2/plots/{fid}/versions: a page of `{version, date_modified, author, client, title}`, newest first. */
export async function listPlotVersions(db: Db, viewer: Viewer | null, fid: Fid, q: VersionsQuery): Promise<RowsPage<{ version: number; rec: string }>> {
  return listVersions(db, 'plot', (await writablePlot(db, viewer, fid)).id, q);
}

/** GET /v2/plots/{fid}/versions/{n}: the version's record with its `figure` (srcs as stored), as JSON text. */
export async function getPlotVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number): Promise<string> {
  const plot = await writablePlot(db, viewer, fid);
  return (await plotVersionAt(db, plot.id, n, isOwner(viewer, plot))).rec;
}

/**
 * POST /v2/plots/{fid}/versions/{n}/restore: version n's figure and title become current, as a new
 * version by `client`, under the update's rules (its srcs must still be readable grids: else the
 * update's 400 naming `figure`). Data the version kept of a grid or column that is gone comes back
 * in a new grid of the plot's owner, its srcs pointing there; a version whose data is gone is
 * refused (a 400 naming `version`). Answers the plot's detail record.
 */
export async function restorePlotVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number, client: Client, origin: string): Promise<string> {
  const file = await writablePlot(db, viewer, fid);
  const version = await plotVersionAt(db, file.id, n);
  // The current version is the plot as it is: restoring it changes nothing.
  if (version.current) return getPlot(db, viewer, fid, origin);
  const sources = await versionSources(db, file.id, n, true);
  if (sources.gone.length) throw invalid('version', `${DATA_GONE}, so it cannot be restored`);
  const figure = sources.kept.some(Boolean) ? await recreateKeptData(db, viewer!, file, n, sources, origin, client) : JSON.parse(version.figure);
  // The figure through the update's own part, then the title as that version had it (given or the layout's).
  const write: TypeUpdate<PlotUpdate> = async (db, editor, input, plot) => {
    const figureWrite = await plotUpdate(db, editor, input, plot);
    return async (tx, row, save) => {
      await figureWrite?.(tx, row, save);
      await tx.update(plots).set({ title: version.title, titleGiven: version.title_given }).where(eq(plots.fileId, row.id));
    };
  };
  await updateFile(db, viewer, fid, { figure }, { filetype: 'plot', types: { plot: write }, client });
  return getPlot(db, viewer, fid, origin);
}

/**
 * The version's figure with the data it kept (its grid or column gone) in a new grid of the plot's
 * owner, its srcs pointing to that grid's columns. Only the owner makes files of theirs.
 */
async function recreateKeptData(
  db: Db,
  viewer: Viewer,
  file: OwnedFile,
  n: number,
  sources: Awaited<ReturnType<typeof versionSources>>,
  origin: string,
  client: Client,
): Promise<unknown> {
  if (viewer.id !== file.ownerId)
    throw invalid('version', "This version's data is kept apart from its grid, which is gone: only the plot's owner can restore it");
  const cols: Record<string, { data: unknown; order: number }> = {};
  const names = new Map<string, string>();
  sources.refs.forEach((ref, i) => {
    const src = parseSrc(ref.s)!;
    sources.kept[i]?.forEach((col, j) => {
      const key = keptKey(src.owner, src.n, src.uids[j]);
      if (names.has(key)) return;
      let name = col.name;
      for (let k = 2; name in cols; k++) name = `${col.name} (${k})`;
      names.set(key, name);
      cols[name] = { data: JSON.parse(col.text!), order: names.size - 1 };
    });
  });
  const filename = await freeFilename(db, file.ownerId, -1, `${file.filename} data (version ${n})`);
  const grid = (await createGrid(db, viewer, { data: { cols }, filename }, origin, client)).file;
  const uidOf = new Map(grid.cols.map((c) => [c.name, c.uid]));
  const figure = JSON.parse(sources.figure);
  sources.refs.forEach((ref, i) => {
    if (!sources.kept[i]) return;
    const src = parseSrc(ref.s)!;
    const uids = src.uids.map((uid) => uidOf.get(names.get(keptKey(src.owner, src.n, uid))!)!);
    setAt(figure, ref.p, `${grid.fid}:${uids.join(',')}`);
  });
  return figure;
}

/** The value at `path` in `node` becomes `value`. */
function setAt(node: unknown, path: (string | number)[], value: string): void {
  type Node = Record<string | number, unknown>;
  const parent = path.slice(0, -1).reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Node)[key] : undefined), node);
  if (parent && typeof parent === 'object') (parent as Node)[path[path.length - 1]] = value;
}
