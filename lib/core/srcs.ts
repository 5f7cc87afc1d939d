// Src references (`owner:n:uid[,uid...]`) resolved to grid columns: the one lookup behind the checks
// of a plot's create and update, its content with data, and its CSV download.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from './auth';
import { parseSrc } from './figure';
import { canRead, holdsShareKey, type FileAccess } from './permissions';

/** A live grid a src names, with what its permissions need. */
export interface SrcGrid extends FileAccess {
  id: number;
}

export interface ResolvedSrc {
  /** The grid `admit` let through: null when it is not a live grid, or not admitted (the same to callers). */
  grid: SrcGrid | null;
  /** Its column ids in the src's order, when the grid holds every uid the src names. */
  columns: number[] | null;
  /** The values of those columns (each as often as the src names it); 0 without them. */
  values: number;
  /** The first uid the grid lacks. */
  missing: string | null;
}

/**
 * Each src text, in order, resolved: its live grid if `admit` allows it, and the columns its uids
 * name. Two queries for any number of srcs; a text that is no src resolves to nothing.
 */
export async function resolveSrcs(db: Db, texts: string[], admit: (grid: SrcGrid) => boolean): Promise<ResolvedSrc[]> {
  const srcs = texts.map(parseSrc);
  const grids = await findGrids(db, srcs.filter((s) => s !== null));
  const columns = await columnsByGrid(db, [...grids.values()].filter(admit).map((g) => g.id));
  return srcs.map((src) => {
    const grid = src && grids.get(gridKey(src.owner, src.n));
    if (!src || !grid || !admit(grid)) return { grid: null, columns: null, values: 0, missing: null };
    const byUid = columns.get(grid.id);
    const missing = src.uids.find((uid) => !byUid?.has(uid)) ?? null;
    if (missing !== null) return { grid, columns: null, values: 0, missing };
    const named = src.uids.map((uid) => byUid!.get(uid)!);
    return { grid, columns: named.map((c) => c.id), values: named.reduce((sum, c) => sum + c.length, 0), missing };
  });
}

/**
 * The grids whose data a plot's reader gets: those the reader may read and, with the plot's secret-link
 * key, the plot owner's own (a secret link carries its data).
 */
export function plotReader(plot: FileAccess, viewer: Viewer | null, shareKey?: string | null): (grid: SrcGrid) => boolean {
  const viaKey = holdsShareKey(plot, shareKey);
  return (grid) => canRead(grid, viewer) || (viaKey && grid.ownerId === plot.ownerId);
}

/** `lower(owner):n` of a src's grid: usernames are case-insensitive. */
const gridKey = (owner: string, n: number) => `${owner.toLowerCase()}:${n}`;

/** The live grids named by (owner, n) pairs, keyed by gridKey. */
async function findGrids(db: Db, refs: { owner: string; n: number }[]): Promise<Map<string, SrcGrid>> {
  const pairs = new Map(refs.map((r) => [gridKey(r.owner, r.n), sql`(${r.owner.toLowerCase()}::text, ${r.n}::int)`]));
  const out = new Map<string, SrcGrid>();
  if (!pairs.size) return out;
  const rows = await queryRows<{ key: string; id: string | number; owner_id: number; world_readable: boolean; share_key: string | null }>(
    db,
    sql`SELECT lower(u.username) || ':' || f.n AS key, f.id, f.owner_id, f.world_readable, f.share_key
        FROM files f JOIN users u ON u.id = f.owner_id
        WHERE f.filetype = 'grid' AND f.trashed_at IS NULL
          AND (lower(u.username), f.n) IN (${sql.join([...pairs.values()], sql`, `)})`,
  );
  for (const r of rows) out.set(r.key, { id: Number(r.id), ownerId: r.owner_id, worldReadable: r.world_readable, shareKey: r.share_key });
  return out;
}

/** Columns (id and value count) by (grid, uid) for the given grids. */
async function columnsByGrid(db: Db, gridIds: number[]): Promise<Map<number, Map<string, { id: number; length: number }>>> {
  const out = new Map<number, Map<string, { id: number; length: number }>>();
  if (!gridIds.length) return out;
  // One array parameter, not one per grid: one prepared statement however many grids.
  const rows = await queryRows<{ id: string | number; grid_id: string | number; uid: string; length: number }>(
    db,
    sql`SELECT id, grid_id, uid, length FROM grid_columns WHERE grid_id = ANY(${`{${gridIds.join(',')}}`}::bigint[])`,
  );
  for (const r of rows) {
    const gridId = Number(r.grid_id);
    if (!out.has(gridId)) out.set(gridId, new Map());
    out.get(gridId)!.set(r.uid, { id: Number(r.id), length: Number(r.length) });
  }
  return out;
}

/** Grid values one plot may reference, each reference counted (API.md "Limits"). */
export const MAX_REFERENCED_VALUES = 10_000_000;
