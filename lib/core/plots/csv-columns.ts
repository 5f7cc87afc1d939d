// Which grid columns a file's CSV download holds, and how much text they are (lib/web/csv.ts writes
// them): a grid's own columns, or those a plot's srcs name that its reader may read.
import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { gridColumns, plots } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import type { OwnedFile } from '../files/files';
import { traceName, type Trace } from '@/lib/shared/figures/chart-values';
import { plotSrcReader, resolveSrcs, storedRefs } from './srcs';

export interface CsvColumn {
  header: string;
  columnId: number;
}

/** The columns of a grid's or a plot's download (see gridCsvColumns and plotCsvColumns). */
export function csvColumns(db: Db, viewer: Viewer | null, file: OwnedFile): Promise<CsvColumn[]> {
  return file.filetype === 'grid' ? gridCsvColumns(db, file.id) : plotCsvColumns(db, viewer, file);
}

/** The stored JSON text of these columns, in bytes (each as often as it is named). */
export async function csvColumnBytes(db: Db, columns: CsvColumn[]): Promise<number> {
  const ids = `{${columns.map((c) => c.columnId).join(',')}}`;
  const [size] = await queryRows<{ bytes: string | number }>(
    db,
    sql`SELECT coalesce(sum(g.bytes), 0) AS bytes FROM unnest(${ids}::bigint[]) AS r(id) JOIN grid_columns g ON g.id = r.id`,
  );
  return Number(size.bytes);
}

/** Every column of a grid, headed by its name, in the grid's order. */
async function gridCsvColumns(db: Db, gridId: number): Promise<CsvColumn[]> {
  const cols = await db
    .select({ id: gridColumns.id, name: gridColumns.name })
    .from(gridColumns)
    .where(eq(gridColumns.gridId, gridId))
    .orderBy(asc(gridColumns.ord), asc(gridColumns.id));
  return cols.map((c) => ({ header: c.name, columnId: c.id }));
}

type Path = (string | number)[];

/** `trace 0 x`, `sales marker.color`, `frame 2 trace 0 y`: the trace's name (or index) and the attribute. */
function srcHeader(figure: Record<string, unknown>, path: Path): string {
  // Named as the legend, the data table and the chart's description name it.
  const traceLabel = (trace: unknown, index: number) => traceName((trace ?? {}) as Trace, index, Number.POSITIVE_INFINITY);
  const attribute = (rest: Path) =>
    rest.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${i === rest.length - 1 ? p.replace(/src$/, '') : p}`)).join('');
  const at = (obj: unknown, key: string | number) => (obj && typeof obj === 'object' ? (obj as Record<string | number, unknown>)[key] : undefined);
  if (path[0] === 'frames' && path[2] === 'data') {
    const frame = at(figure.frames, path[1]);
    const frameName = at(frame, 'name');
    const frameLabel = typeof frameName === 'string' && frameName ? `frame ${frameName}` : `frame ${path[1]}`;
    return `${frameLabel} ${traceLabel(at(at(frame, 'data'), path[3]), Number(path[3]))} ${attribute(path.slice(4))}`;
  }
  return `${traceLabel(at(figure.data, path[1]), Number(path[1]))} ${attribute(path.slice(2))}`;
}

/**
 * One column per src the plot's reader sees (plotSrcReader, as the chart draws it; a multi-column src
 * gives one per column, `z[0]`, `z[1]`...).
 */
async function plotCsvColumns(db: Db, viewer: Viewer | null, file: OwnedFile): Promise<CsvColumn[]> {
  const [plot] = await db.select({ figure: plots.figure, refs: plots.srcRefs }).from(plots).where(eq(plots.fileId, file.id));
  if (!plot) return [];
  const figure = plot.figure as Record<string, unknown>;
  const refs = storedRefs(plot.refs);
  const resolved = await resolveSrcs(
    db,
    refs.map((r) => r.s),
    viewer,
    plotSrcReader(file, refs, viewer),
  );
  return refs.flatMap((ref, i) => {
    const ids = resolved[i].columns;
    if (!ids) return [];
    const header = srcHeader(figure, ref.p);
    return ids.map((columnId, k) => ({ header: ids.length > 1 ? `${header}[${k}]` : header, columnId }));
  });
}
