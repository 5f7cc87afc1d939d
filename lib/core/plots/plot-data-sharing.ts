// A plot's data follows its sharing on the web: which grids a plot draws from, what each does when the
// plot's sharing changes, and that change made to the plot and its grids in one transaction. The API's
// PUT/PATCH change the file alone (the official clients expect that): docs/web.md.
//
// The rule: a plot made private or secret takes along the owner's public grids that no other public,
// live plot of the owner draws from; they become private. Private is enough for a secret plot too: its
// readers see the columns it draws through the plot (lib/core/plots/srcs.ts plotSrcReader), as any plot's do.
// Grids of someone else stay as they are (never theirs to change), and so do grids already private.
// A plot made public widens nothing: its readers get the columns it draws through the plot, never
// the rest of a private grid. Only the owner's plots count: another person's plot on the grid could
// otherwise keep the owner's data public against their will.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { notFound } from '../errors';
import { updateFile } from '../files/file-changes';
import type { OwnedFile } from '../files/files';
import { refreshPlotsOfGrids } from '../images/images';
import { assertOwner, fileVisibility, visibilityOf, VISIBILITY_FIELDS, type Visibility } from '../permissions';
import { getPlotFile } from './plots';
import { fileNumbered, type Fid } from '../records';

/**
 * What a grid does when its plot takes a sharing: `follows` (public, it becomes private), or it stays
 * as it is because `public-plot` (another public plot of the owner draws from it), `other-owner` (it
 * is someone else's), `already` (it is already as private as the plot, or the plot is public and so is
 * it), `kept-private` (the plot became public: the grid is not widened).
 */
export type GridFate = 'follows' | 'public-plot' | 'other-owner' | 'already' | 'kept-private';

export interface PlotGrid {
  owner: string;
  n: number;
  filename: string;
  visibility: Visibility;
  fate: GridFate;
  /** The owner's other public plots drawing from it, the first few by number (fate `public-plot`). */
  publicPlots: { n: number; name: string }[];
  /** How many there are in all. */
  publicPlotCount: number;
}

export interface PlotData {
  plot: { owner: string; n: number; filename: string; visibility: Visibility };
  grids: PlotGrid[];
}

/** Plots named a grid, each: a few are enough to say why it stays public. */
const NAMED_PLOTS = 3;

interface GridRow {
  owner: string;
  owner_id: number;
  id: string | number;
  n: number;
  filename: string;
  world_readable: boolean;
  keyed: boolean;
  plots: { n: number; name: string }[] | string;
  plot_count: number;
}

/**
 * The live grids plot `plotId` of owner `ownerId` draws from (its srcs' grids, through plot_grid_keys):
 * the owner's, and others' that are public (anyone else's private grid gives the plot nothing, and its
 * name is not the owner's to learn). For each of the owner's public grids, the owner's other live
 * public plots that draw from it, found through the plots_grid_keys_idx index. The owner's first.
 */
async function plotGridRows(db: Db, plotId: number, ownerId: number): Promise<GridRow[]> {
  return queryRows<GridRow>(
    db,
    sql`WITH keys AS (
          SELECT DISTINCT k.key FROM plots p CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key) WHERE p.file_id = ${plotId}
        ), grids AS (
          SELECT k.key, u.username AS owner, g.owner_id, g.id, g.n, g.filename, g.world_readable, g.share_key IS NOT NULL AS keyed
          FROM keys k
          CROSS JOIN LATERAL (SELECT id, username FROM users WHERE lower(username) = split_part(k.key, ':', 1) OFFSET 0) u
          CROSS JOIN LATERAL (${fileNumbered(sql`u.id`, sql`split_part(k.key, ':', 2)::int`)}) g
          WHERE g.filetype = 'grid' AND g.trashed_at IS NULL AND (g.owner_id = ${ownerId}::int OR g.world_readable)
        ), shared AS (
          SELECT coalesce(array_agg(key), '{}') AS keys FROM grids WHERE owner_id = ${ownerId}::int AND world_readable
        ), holders AS (
          SELECT k.key, f.n, coalesce(nullif(p.title, ''), f.filename) AS name,
                 row_number() OVER (PARTITION BY k.key ORDER BY f.n) AS i, count(*) OVER (PARTITION BY k.key) AS total
          FROM shared s
          JOIN plots p ON plot_grid_keys(p.src_refs) && s.keys
          JOIN files f ON f.id = p.file_id
          CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key)
          WHERE f.owner_id = ${ownerId}::int AND f.world_readable AND f.trashed_at IS NULL AND f.id <> ${plotId}
            AND k.key = ANY (s.keys)
        )
        SELECT g.owner, g.owner_id, g.id, g.n, g.filename, g.world_readable, g.keyed,
               coalesce((SELECT json_agg(json_build_object('n', h.n, 'name', h.name) ORDER BY h.n) FROM holders h
                          WHERE h.key = g.key AND h.i <= ${NAMED_PLOTS}), '[]'::json) AS plots,
               coalesce((SELECT max(h.total) FROM holders h WHERE h.key = g.key), 0)::int AS plot_count
        FROM grids g ORDER BY g.owner_id <> ${ownerId}::int, lower(g.owner), g.n`,
  );
}

/** What one grid does when the owner's plot takes `sharing` (the rule: see the top of this file). */
function fateOf(row: GridRow, ownerId: number, sharing: Visibility): GridFate {
  if (row.owner_id !== ownerId) return 'other-owner';
  if (sharing === 'public') return row.world_readable ? 'already' : 'kept-private';
  if (!row.world_readable) return 'already';
  return row.plot_count > 0 ? 'public-plot' : 'follows';
}

async function plotGrids(db: Db, plot: OwnedFile, sharing: Visibility): Promise<(PlotGrid & { id: number })[]> {
  const rows = await plotGridRows(db, plot.id, plot.ownerId);
  return rows.map((row) => ({
    id: Number(row.id),
    owner: row.owner,
    n: row.n,
    filename: row.filename,
    visibility: visibilityOf(row.world_readable, row.keyed),
    fate: fateOf(row, plot.ownerId, sharing),
    publicPlots: typeof row.plots === 'string' ? JSON.parse(row.plots) : row.plots,
    publicPlotCount: row.plot_count,
  }));
}

const plotDataOf = (plot: OwnedFile, visibility: Visibility, grids: (PlotGrid & { id: number })[]): PlotData => ({
  plot: { owner: plot.owner, n: plot.n, filename: plot.filename, visibility },
  grids: grids.map(({ id: _id, ...grid }) => grid),
});

/** The owner's live plot, else the API's 401/404/403 (a grid or folder is no plot: 404). */
async function ownPlot(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  return assertOwner(await getPlotFile(db, fid, viewer), viewer);
}

/**
 * The grids the owner's plot draws from and what each would do if the plot took `sharing` (its
 * current sharing when not given: then `follows` names the grids that are public though they need
 * not be). Changes nothing.
 */
export async function planPlotDataSharing(db: Db, viewer: Viewer | null, fid: Fid, sharing?: Visibility): Promise<PlotData> {
  return plotDataOfOwn(db, await ownPlot(db, viewer, fid), sharing);
}

/** planPlotDataSharing of a live plot the caller already found to be the viewer's own (isOwner): a page that looked it up once. */
export async function plotDataOfOwn(db: Db, plot: OwnedFile, sharing?: Visibility): Promise<PlotData> {
  const visibility = fileVisibility(plot);
  return plotDataOf(plot, visibility, await plotGrids(db, plot, sharing ?? visibility));
}

/**
 * Makes the grids that follow the plot's `sharing` private (locked rows only: `plot` is locked by the
 * caller's transaction). Plots of other people drawing from them draw without their data now, so
 * those are drawn again (refreshPlotsOfGrids), as after any change to a grid's data.
 */
async function followPlot(tx: Db, plot: OwnedFile, sharing: Visibility): Promise<PlotData> {
  const grids = await plotGrids(tx, plot, sharing);
  const following = grids.filter((g) => g.fate === 'follows').map((g) => g.id);
  if (following.length) {
    const changed = await queryRows<{ n: number }>(
      tx,
      sql`UPDATE files SET world_readable = false, share_key = NULL, updated_at = now()
          WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(following)}::jsonb)::bigint)
            AND owner_id = ${plot.ownerId}::int AND filetype = 'grid' AND trashed_at IS NULL AND world_readable
          RETURNING n`,
    );
    await refreshPlotsOfGrids(
      tx,
      changed.map((g) => ({ owner: plot.owner, n: g.n })),
    );
    const now = new Set(changed.map((g) => g.n));
    for (const grid of grids) if (grid.fate === 'follows' && now.has(grid.n)) grid.visibility = 'private';
  }
  return plotDataOf(plot, sharing, grids);
}

/**
 * The web's sharing change of an owner's plot: the plot takes `sharing` (the API's own update, so the
 * same checks and answers) and the grids that follow it become private, in one transaction. Answers
 * what each grid did.
 */
export async function sharePlotWithData(db: Db, viewer: Viewer | null, fid: Fid, sharing: Visibility): Promise<PlotData> {
  return db.transaction(async (tx) => {
    const plot = await updateFile(tx, viewer, fid, VISIBILITY_FIELDS[sharing], { filetype: 'plot' });
    return followPlot(tx, plot, sharing);
  });
}

/** The grids that follow the plot's current sharing become private (the plot page's one-click fix); the plot stays as it is. */
export async function followPlotSharing(db: Db, viewer: Viewer | null, fid: Fid): Promise<PlotData> {
  const plot = await ownPlot(db, viewer, fid);
  return db.transaction(async (tx) => {
    // Its sharing as it is once locked: a change committed meanwhile is the one the grids follow.
    const [locked] = await queryRows<{ world_readable: boolean; keyed: boolean }>(
      tx,
      sql`SELECT world_readable, share_key IS NOT NULL AS keyed FROM files WHERE id = ${plot.id} AND trashed_at IS NULL FOR UPDATE`,
    );
    if (!locked) throw notFound();
    return followPlot(tx, plot, visibilityOf(locked.world_readable, locked.keyed));
  });
}
