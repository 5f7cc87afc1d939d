// Where a plot version's data is: each src of its figure drawn from its live grid, from the columns
// the version kept (lib/core/files/kept-columns.ts) when its grid or column is gone, or gone with
// nothing kept. Its content, page and restore read it here, for those who may see the plot's history
// (its writers: the callers checked), so kept data is seen by exactly whom the version is.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { keptColumnsOf, keptKey } from '../files/kept-columns';
import { plotVersionAt } from '../files/versions';
import { checkFigure, parseSrc } from '../figures/figure';
import { publishedSrcs, resolveSrcs, storedRefs, type StoredRef } from './srcs';

/**
 * An earlier version's figure as the content reads one: its src references found again (kept
 * versions store none), each published only when the plot publishes it now (plotSrcReader: an old
 * src the chart no longer draws shows its grid's data only to those who may read that grid), its
 * tag the live figure version's too, which moves when its grids change.
 */
export async function versionFigure(db: Db, fileId: number, n: number) {
  const { figure } = await plotVersionAt(db, fileId, n);
  const [live] = await queryRows<{ version: number; refs: unknown }>(db, sql`SELECT version, src_refs AS refs FROM plots WHERE file_id = ${fileId}`);
  const published = publishedSrcs(live ? storedRefs(live.refs) : []);
  const refs: StoredRef[] = checkFigure(JSON.parse(figure)).map((r) => (published.has(r.src) ? { p: r.path, s: r.src } : { p: r.path, s: r.src, u: 1 }));
  return { figure, refs, version: n, tag: `h${n}.${live?.version}` };
}

/**
 * Each src of a version (`refs`, versionFigure's) as kept: `present` when it names columns of a live
 * grid (whoever may read them), else `kept`, the columns the version kept in the src's order (null
 * when not all are). What a reader of the version sees of them is keptSeen's.
 */
export async function keptSrcColumns(db: Db, plotId: number, refs: StoredRef[], withData = false) {
  const srcs = refs.map((r) => r.s);
  const present = (await resolveSrcs(db, srcs, null, () => true)).map((r) => r.columns !== null);
  const keysOf = srcs.map((s, i) => {
    const src = present[i] ? null : parseSrc(s);
    return src ? src.uids.map((uid) => keptKey(src.owner, src.n, uid)) : null;
  });
  const found = await keptColumnsOf(db, plotId, [...new Set(keysOf.flatMap((k) => k ?? []))], withData);
  const kept = keysOf.map((keys) => (keys?.every((k) => found.has(k)) ? keys.map((k) => found.get(k)!) : null));
  return { present, kept };
}

/**
 * The reader rule for a version's kept columns (its owner's grids', the grid or column gone): as for
 * a live grid of the owner's (plotSrcReader), its owner sees them, and so does anyone who may see the
 * version when the plot publishes the src now (not `u`).
 */
export const keptSeen = (plot: { ownerId: number }, viewer: Viewer | null, ref: StoredRef) => viewer?.id === plot.ownerId || !ref.u;

/** Version `n` of plot `plotId`: its figure, its srcs, each one's kept columns, and those whose data is gone. */
export async function versionSources(db: Db, plotId: number, n: number, withData = false) {
  const version = await versionFigure(db, plotId, n);
  const { present, kept } = await keptSrcColumns(db, plotId, version.refs, withData);
  return {
    figure: version.figure,
    refs: version.refs,
    kept,
    /** The srcs whose data is no longer kept: no live columns, nothing kept. */
    gone: version.refs.filter((_, i) => !present[i] && !kept[i]).map((r) => r.s),
  };
}

/** What the version page and the restore say of a version whose data is gone. */
export const DATA_GONE = "This version's data is no longer kept";
