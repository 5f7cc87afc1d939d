// Which grids plots draw from and which plots draw from grids: a plot's srcs name grids by key
// (`owner:n`, owner lower-cased: the SQL function plot_grid_keys), found the other way through the GIN
// index plots_grid_keys_idx. Every question here takes a page's worth of files at once (one query),
// never one file at a time.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { canReadSql } from '../permissions';
import { fileNumbered, MAX_REFERENCES } from '../records';

/** A grid's key as plot_grid_keys writes it. */
export const gridKey = (owner: string, n: number) => `${owner.toLowerCase()}:${n}`;

/** The grids a plot draws from that the viewer may read, and how many others it draws from (not named). */
export interface PlotGrids {
  grids: { owner: string; n: number; filename: string }[];
  hidden: number;
}

/** Grids named per plot: enough to say where its data is; the rest are counted. */
const NAMED_GRIDS = 3;

const idsJson = (ids: number[]) => JSON.stringify(ids.map(Number));

/**
 * For each plot (by file id), the live grids it draws from: the first few the viewer may read (theirs
 * first, then by owner and number) and a count of the rest, readable or not, so that nothing private is
 * named. Plots drawing from no live grid are absent from the map.
 */
export async function gridsOfPlots(db: Db, viewerId: number | null, plotIds: number[]): Promise<Map<number, PlotGrids>> {
  const out = new Map<number, PlotGrids>();
  if (!plotIds.length) return out;
  const rows = await queryRows<{ plot_id: string | number; owner: string; n: number; filename: string; readable: boolean }>(
    db,
    sql`SELECT p.file_id AS plot_id, u.username AS owner, g.n, g.filename,
               ${canReadSql('g', viewerId)} AS readable
        FROM plots p
        CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key)
        CROSS JOIN LATERAL (SELECT id, username FROM users WHERE lower(username) = split_part(k.key, ':', 1) OFFSET 0) u
        CROSS JOIN LATERAL (${fileNumbered(sql`u.id`, sql`split_part(k.key, ':', 2)::int`)}) g
        WHERE p.file_id IN (SELECT jsonb_array_elements_text(${idsJson(plotIds)}::jsonb)::bigint)
          AND g.filetype = 'grid' AND g.trashed_at IS NULL
        ORDER BY p.file_id, g.owner_id IS DISTINCT FROM ${viewerId}::int, lower(u.username), g.n`,
  );
  for (const row of rows) {
    const id = Number(row.plot_id);
    const entry = out.get(id) ?? { grids: [], hidden: 0 };
    if (row.readable && entry.grids.length < NAMED_GRIDS) entry.grids.push({ owner: row.owner, n: row.n, filename: row.filename });
    else entry.hidden++;
    out.set(id, entry);
  }
  return out;
}

/** How many live plots draw from a grid: the viewer's own, and anyone else's (counted, not named). */
export interface GridPlotCount {
  own: number;
  others: number;
}

/** For each grid (by its key, gridKey), the live plots drawing from it, counted: the viewer's and others'. */
export async function countPlotsOfGrids(db: Db, viewerId: number, grids: { owner: string; n: number }[]): Promise<Map<string, GridPlotCount>> {
  const out = new Map<string, GridPlotCount>();
  if (!grids.length) return out;
  const keys = JSON.stringify(grids.map((g) => gridKey(g.owner, g.n)));
  const rows = await queryRows<{ key: string; own: number; others: number }>(
    db,
    // One look-up of the grid-keys index for all the keys (&&), then each plot's keys among them.
    sql`WITH asked AS (SELECT array_agg(k) AS keys FROM jsonb_array_elements_text(${keys}::jsonb) AS k)
        SELECT k.key, count(*) FILTER (WHERE f.owner_id = ${viewerId}::int)::int AS own,
               count(*) FILTER (WHERE f.owner_id <> ${viewerId}::int)::int AS others
        FROM asked
        JOIN plots p ON plot_grid_keys(p.src_refs) && asked.keys
        JOIN files f ON f.id = p.file_id AND f.trashed_at IS NULL
        CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key)
        WHERE k.key = ANY (asked.keys)
        GROUP BY k.key`,
  );
  for (const row of rows) out.set(row.key, { own: row.own, others: row.others });
  return out;
}

/**
 * The owner's grids that only these plots (by file id, the owner's) draw from: no other plot draws
 * from them, among live plots (`scope` 'live': grids to trash with the plots, themselves live) or
 * among all plots, trashed ones too (`'any'`: grids to delete for good with them, live or trashed; a
 * trashed plot may yet be restored). Anyone's plots count, not only the owner's.
 */
export async function gridsOnlyOf(
  db: Db,
  owner: { id: number; username: string },
  plotIds: number[],
  scope: 'live' | 'any',
): Promise<{ id: number; n: number }[]> {
  if (!plotIds.length) return [];
  const live = scope === 'live';
  const rows = await queryRows<{ id: string | number; n: number }>(
    db,
    sql`WITH chosen AS (
          SELECT jsonb_array_elements_text(${idsJson(plotIds)}::jsonb)::bigint AS id
        ), keys AS (
          SELECT DISTINCT k.key FROM plots p CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key)
          WHERE p.file_id IN (SELECT id FROM chosen) AND split_part(k.key, ':', 1) = lower(${owner.username})
        )
        SELECT g.id, g.n FROM keys
        CROSS JOIN LATERAL (${fileNumbered(sql`${owner.id}::int`, sql`split_part(keys.key, ':', 2)::int`)}) g
        WHERE g.filetype = 'grid' ${live ? sql`AND g.trashed_at IS NULL` : sql``}
          AND NOT EXISTS (
            SELECT 1 FROM plots p JOIN files f ON f.id = p.file_id
            WHERE plot_grid_keys(p.src_refs) @> ARRAY[keys.key] AND f.id NOT IN (SELECT id FROM chosen)
              ${live ? sql`AND f.trashed_at IS NULL` : sql``})
        ORDER BY g.n`,
  );
  return rows.map((r) => ({ id: Number(r.id), n: r.n }));
}

/** The live plots drawing from a grid that the viewer may read (newest first), and how many others there are. */
export interface GridPlots {
  plots: { owner: string; n: number; filename: string }[];
  hidden: number;
}

/** Plots looked at for one grid: a grid used by more is named and counted among these (docs/api.md). */
export const MAX_REFERENCERS_SCANNED = 1000;

/**
 * The plots drawing from a grid: at most MAX_REFERENCES named, the rest counted, among at most
 * MAX_REFERENCERS_SCANNED plots found through the grid-keys index (so a grid behind very many plots
 * costs what that many does, not more). A grid record's `referencers`, and its page's "Used by".
 */
export async function listReferencers(db: Db, viewerId: number | null, grid: { owner: string; n: number }): Promise<GridPlots> {
  const rows = await queryRows<{ owner: string; n: number; filename: string; readable: boolean }>(
    db,
    sql`SELECT u.username AS owner, r.n, r.filename, r.readable FROM (
          SELECT f.n, f.filename, f.owner_id, f.created_at, f.id,
                 ${canReadSql('f', viewerId)} AS readable
          FROM plots p JOIN files f ON f.id = p.file_id AND f.trashed_at IS NULL
          WHERE plot_grid_keys(p.src_refs) @> ARRAY[${gridKey(grid.owner, grid.n)}]::text[]
          LIMIT ${MAX_REFERENCERS_SCANNED}) r
        JOIN users u ON u.id = r.owner_id
        ORDER BY r.readable DESC, r.created_at DESC, r.id DESC`,
  );
  const plots = rows
    .filter((r) => r.readable)
    .slice(0, MAX_REFERENCES)
    .map(({ owner, n, filename }) => ({ owner, n, filename }));
  return { plots, hidden: rows.length - plots.length };
}
