// The columns a plot's reader sees only through the plot (the one reader rule, plotSrcReader): its
// owner's columns that the chart publishes, in grids the reader may not read on their own. A writer's
// editor names and draws them (issue 37 point 5), as the plot's page does, and keeps them as they are.
import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { gridColumns, plots } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { canRead, type FileAccess } from '../permissions';
import { plotSrcReader, resolveSrcs, storedRefs } from './srcs';

export interface SeenColumn {
  /** The src as the figure names it (`owner:n:uid[,uid]`). */
  src: string;
  /** Its columns' names, in the src's order. */
  names: string[];
  /** Its values and stored bytes (each column as often as the src names it). */
  values: number;
  bytes: number;
}

/** The srcs of the plot that `viewer` sees through it alone, each once. */
export async function listPlotSeenColumns(db: Db, plot: FileAccess & { id: number }, viewer: Viewer | null): Promise<SeenColumn[]> {
  const [row] = await db.select({ refs: plots.srcRefs }).from(plots).where(eq(plots.fileId, plot.id));
  if (!row) return [];
  const refs = storedRefs(row.refs);
  const texts = [...new Set(refs.map((r) => r.s))];
  const resolved = await resolveSrcs(db, texts, viewer, plotSrcReader(plot, refs, viewer));
  const seen = texts.flatMap((src, i) => {
    const { grid, columns, values, bytes } = resolved[i];
    return grid && columns && !canRead(grid, viewer) ? [{ src, columns, values, bytes }] : [];
  });
  const ids = [...new Set(seen.flatMap((s) => s.columns))];
  const names = new Map(
    ids.length
      ? (await db.select({ id: gridColumns.id, name: gridColumns.name }).from(gridColumns).where(inArray(gridColumns.id, ids))).map((c) => [c.id, c.name])
      : [],
  );
  return seen.map(({ src, columns, values, bytes }) => ({ src, names: columns.map((id) => names.get(id) ?? ''), values, bytes }));
}
