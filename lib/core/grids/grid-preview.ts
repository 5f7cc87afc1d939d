// What a grid's page shows of it: its first columns and rows, from each column's stored preview.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';

/** A grid page shows at most this many rows and columns (the columns' stored previews); the
 * downloads have the rest. Whatever the grid's size, the page's work and size stay bounded. */
export const GRID_PREVIEW_ROWS = 20;
export const GRID_PREVIEW_COLUMNS = 50;
const GRID_PREVIEW_CELL = 300;

export interface GridPreview {
  columns: { name: string; values: unknown[] }[];
  columnCount: number;
  rowCount: number;
}

/** The columns of grid `gridId`, or of its kept version `version`, as `name`, `length`, `preview` in order (`ord`, `k`). */
const columnsSql = (gridId: number, version?: number) =>
  version === undefined
    ? sql`SELECT name, ord, id AS k, length, preview FROM grid_columns WHERE grid_id = ${gridId}`
    : sql`SELECT c.name, c.ord, c.uid AS k, v.length, v.preview FROM grid_version_columns c JOIN column_values v ON v.id = c.values_id
          WHERE c.file_id = ${gridId} AND c.version = ${version}::int`;

/** The grid's first columns and rows (or a kept version's: the caller found it), from each column's stored preview; long cells are cut short. */
export async function gridPreview(db: Db, gridId: number, version?: number): Promise<GridPreview> {
  const [totals] = await queryRows<{ columns: number; rows: number | null }>(
    db,
    sql`SELECT count(*)::int AS columns, max(length)::int AS rows FROM (${columnsSql(gridId, version)}) c`,
  );
  const cols = await queryRows<{ name: string; head: string }>(
    db,
    sql`SELECT name,
               (SELECT coalesce(json_agg(CASE WHEN length(e::text) > ${GRID_PREVIEW_CELL}
                                              THEN to_json(left(e::text, ${GRID_PREVIEW_CELL}) || '…') ELSE e END ORDER BY i), '[]'::json)
                  FROM json_array_elements(coalesce(preview, '[]'::json)) WITH ORDINALITY AS t(e, i) WHERE i <= ${GRID_PREVIEW_ROWS})::text AS head
        FROM (${columnsSql(gridId, version)}) c ORDER BY ord, k LIMIT ${GRID_PREVIEW_COLUMNS}`,
  );
  return {
    columns: cols.map((c) => ({ name: c.name, values: JSON.parse(c.head) as unknown[] })),
    columnCount: totals?.columns ?? 0,
    rowCount: totals?.rows ?? 0,
  };
}
