// Where a plot version's data is: each src of its figure drawn from its live grid, from the columns
// the version kept (lib/core/files/kept-columns.ts) when its grid or column is gone, or gone with
// nothing kept. Its content, page and restore read it here, for those who may see the plot's history
// (its writers: the callers checked), so kept data is seen by exactly whom the version is.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { keptColumnsOf, keptKey, type KeptColumn } from '../files/kept-columns';
import { plotVersionAt } from '../files/versions';
import { checkFigure, parseSrc } from '../figures/figure';
import type { FileAccess } from '../permissions';
import { plotSrcReader, publishedSrcs, resolveSrcs, storedRefs, type ResolvedSrc, type StoredRef } from './srcs';

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

/** Each src's kept columns in the src's order, or null when it is drawn live or nothing whole is kept of it. */
export async function keptSrcColumns(
  db: Db,
  plotId: number,
  srcs: string[],
  resolved: Pick<ResolvedSrc, 'columns'>[],
  withData = false,
): Promise<(KeptColumn[] | null)[]> {
  const keysOf = srcs.map((s, i) => {
    const src = resolved[i].columns ? null : parseSrc(s);
    return src ? src.uids.map((uid) => keptKey(src.owner, src.n, uid)) : null;
  });
  const kept = await keptColumnsOf(db, plotId, [...new Set(keysOf.flatMap((k) => k ?? []))], withData);
  return keysOf.map((keys) => (keys?.every((k) => kept.has(k)) ? keys.map((k) => kept.get(k)!) : null));
}

/** A version's srcs as `viewer` (one who may see the plot's history) sees them: each drawn live, kept, or gone (`kept` null). */
export async function versionSources(db: Db, plot: FileAccess & { id: number }, viewer: Viewer | null, n: number, withData = false) {
  const version = await versionFigure(db, plot.id, n);
  const srcs = version.refs.map((r) => r.s);
  const resolved = await resolveSrcs(db, srcs, viewer, plotSrcReader(plot, version.refs, viewer));
  const kept = await keptSrcColumns(db, plot.id, srcs, resolved, withData);
  return {
    figure: version.figure,
    refs: version.refs,
    kept,
    /** The srcs whose data is no longer kept: neither drawn live nor kept. */
    gone: srcs.filter((_, i) => !resolved[i].columns && !kept[i]),
  };
}

/** What the version page and the restore say of a version whose data is gone. */
export const DATA_GONE = "This version's data is no longer kept";
