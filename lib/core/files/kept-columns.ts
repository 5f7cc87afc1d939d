// A plot version keeps the data it drew. Each state of a plot records the columns of its owner's
// grids it draws (kept_columns, pointing to their values: the triggers plots_keep_drawn and
// column_values_keep_drawn, so every write of a figure does); when those values go (the grid deleted
// for good, as the Python client's overwrite does before it saves the plot; the column deleted and
// out of the grid's own history), the database copies them into the row and counts them in the
// plot's kept bytes, so the person's history bound (versions.ts) covers them. A row goes with the
// last state that draws it. Other people's grids are never kept: a plot does not own their data.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';

const idArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;

/** After versions of these plots went (each locked): the columns no kept version nor the live plot draws go with them. */
export async function releaseKeptColumns(tx: Db, plotIds: number[]): Promise<void> {
  if (!plotIds.length) return;
  await tx.execute(sql`DELETE FROM kept_columns k WHERE k.plot_id = ANY(${idArray(plotIds)})
    AND k.version < coalesce((SELECT min(v.version) FROM plot_versions v WHERE v.file_id = k.plot_id), 2147483647)
    AND k.grid_key || ':' || k.uid NOT IN (SELECT src_ref_keys(p.src_refs) FROM plots p WHERE p.file_id = k.plot_id)`);
}

/** The bytes of copied values a file's kept versions hold (0 for a grid), as SQL over its id. */
export const keptColumnBytesSql = (fileId: ReturnType<typeof sql>) => sql`(SELECT coalesce(sum(k.bytes), 0) FROM kept_columns k WHERE k.plot_id = ${fileId})`;

/** The copied bytes a plot version is the newest to draw (what dropping it and every older version frees), as SQL over `v`. */
export const versionKeptBytesSql = sql`(SELECT coalesce(sum(k.bytes), 0) FROM kept_columns k WHERE k.plot_id = v.file_id AND k.version = v.version)`;

/**
 * The person's history entries for copied values no kept version is the newest to draw (those the
 * live plot draws): one a plot of `ids`, at its current state, as versions.ts ranks them (`kind` 'c').
 */
export const currentKeptSql = (ids: ReturnType<typeof sql>) => sql`SELECT 'c' AS kind, s.file_id, s.version, s.saved_at,
    (SELECT coalesce(sum(k.bytes), 0) FROM kept_columns k WHERE k.plot_id = s.file_id
      AND NOT EXISTS (SELECT 1 FROM plot_versions v WHERE v.file_id = k.plot_id AND v.version = k.version)) AS bytes
  FROM file_saves s WHERE s.file_id = ANY(${ids}) AND EXISTS (SELECT 1 FROM kept_columns k WHERE k.plot_id = s.file_id AND k.bytes > 0)`;

/** A kept column of a plot: its name, and its values' text when asked for. */
export interface KeptColumn {
  name: string;
  bytes: number;
  text?: string;
}

/** `lower(owner):n:uid`: how a kept column is found from a src. */
export const keptKey = (owner: string, n: number, uid: string) => `${owner.toLowerCase()}:${n}:${uid}`;

/**
 * The kept columns of plot `plotId` among `keys` (keptKey's) whose values are still held (copied, or
 * their values row still there), with their text when `withData`. The caller decided the reader may
 * see the plot's history, and bounds what it asks for.
 */
export async function keptColumnsOf(db: Db, plotId: number, keys: string[], withData = false): Promise<Map<string, KeptColumn>> {
  if (!keys.length) return new Map();
  const rows = await queryRows<{ key: string; name: string; bytes: string | number; text: string | null }>(
    db,
    sql`SELECT k.grid_key || ':' || k.uid AS key, k.name, CASE WHEN k.data IS NULL THEN v.bytes ELSE k.bytes END AS bytes,
        ${withData ? sql`coalesce(k.data, v.data)::text` : sql`NULL`} AS text
      FROM kept_columns k LEFT JOIN column_values v ON v.id = k.values_id
      WHERE k.plot_id = ${plotId} AND k.grid_key || ':' || k.uid IN (SELECT json_array_elements_text(${JSON.stringify(keys)}::json))
        AND (k.data IS NOT NULL OR v.id IS NOT NULL)`,
  );
  return new Map(rows.map((r) => [r.key, { name: r.name, bytes: Number(r.bytes), ...(r.text !== null && { text: r.text }) }]));
}
