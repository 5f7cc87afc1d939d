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

/** The grid's first columns and rows, from each column's stored preview; long cells are cut short. */
export async function gridPreview(db: Db, gridId: number): Promise<GridPreview> {
  const [totals] = await queryRows<{ columns: number; rows: number | null }>(
    db,
    sql`SELECT count(*)::int AS columns, max(length)::int AS rows FROM grid_columns WHERE grid_id = ${gridId}`,
  );
  const cols = await queryRows<{ name: string; head: string }>(
    db,
    sql`SELECT name,
               (SELECT coalesce(json_agg(CASE WHEN length(e::text) > ${GRID_PREVIEW_CELL}
                                              THEN to_json(left(e::text, ${GRID_PREVIEW_CELL}) || '…') ELSE e END ORDER BY i), '[]'::json)
                  FROM json_array_elements(coalesce(preview, '[]'::json)) WITH ORDINALITY AS t(e, i) WHERE i <= ${GRID_PREVIEW_ROWS})::text AS head
        FROM grid_columns WHERE grid_id = ${gridId} ORDER BY ord, id LIMIT ${GRID_PREVIEW_COLUMNS}`,
  );
  return {
    columns: cols.map((c) => ({ name: c.name, values: JSON.parse(c.head) as unknown[] })),
    columnCount: totals?.columns ?? 0,
    rowCount: totals?.rows ?? 0,
  };
}
