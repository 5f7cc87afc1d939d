// The API's column and row verbs on a grid (docs/api.md "Endpoints": /col and /row): columns
// appended, read, replaced and deleted by uid, and rows appended, each write under the grid's lock.
import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { gridColumns } from '@/db/schema';
import { CELL_TOO_LARGE, MAX_COLUMN_VALUES, NON_FINITE, PREVIEW_VALUES } from '@/lib/shared/column-values';
import type { Viewer } from '../accounts/auth';
import { invalid } from '../errors';
import { getFile } from '../files/files';
import { recordGridAppend, recordGridVersion, settleGridHistory, type Client } from '../files/versions';
import { refreshPlotsOfGrids } from '../images/images';
import type { Fid } from '../records';
import { coalesced, columnTexts } from './column-reads';
import { appendBlocks } from './column-blocks';
import { insertColumns, newUid, newValuesIds, pointColumns, replaceColumnData, statements } from './column-store';
import { checkNames, colItems, MAX_COLUMNS, misfitRow, quoted, valuesOf, type colsBodySchema, type rowsBodySchema } from './grid-input';
import { editableGrid, gridColumnsOf, lockGrid, readableGrid, recordOf, touchGrid } from './grids';

/** Columns one request may name (`?uid=a,b`). */
export const MAX_UIDS = 1000;

/** The grid's columns a `uid` query names, in the order asked: 400 naming `uid` for a repeat or an unknown uid. */
async function columnsAt(db: Db, gridId: number, uidText: string) {
  const uids = uidText.split(',');
  if (uids.length > MAX_UIDS) throw invalid('uid', `at most ${MAX_UIDS} uids`);
  const seen = new Set<string>();
  for (const uid of uids) {
    if (seen.has(uid)) throw invalid('uid', `${quoted(uid)} is given twice`);
    seen.add(uid);
  }
  const rows = await db
    .select({ id: gridColumns.id, name: gridColumns.name, uid: gridColumns.uid, ord: gridColumns.ord })
    .from(gridColumns)
    .where(and(eq(gridColumns.gridId, gridId), inArray(gridColumns.uid, uids)));
  const byUid = new Map(rows.map((r) => [r.uid, r]));
  const unknown = uids.find((uid) => !byUid.has(uid));
  if (unknown !== undefined) throw invalid('uid', `the grid has no column ${quoted(unknown)}`);
  return uids.map((uid) => byUid.get(uid)!);
}

/** POST /v2/grids/{fid}/col: the new columns, in the order sent, after the existing ones. */
export async function appendColumns(db: Db, viewer: Viewer | null, fid: Fid, input: z.output<typeof colsBodySchema>, client: Client = 'api') {
  const grid = await editableGrid(db, viewer, fid);
  const items = colItems(input.cols, true) as { name: string; data: unknown }[];
  const values = valuesOf(items.map((c, i) => ({ data: c.data, field: `cols[${i}].data` })));
  return db.transaction(async (tx) => {
    await lockGrid(tx, grid.id);
    const existing = await gridColumnsOf(tx, grid.id);
    if (existing.length + items.length > MAX_COLUMNS) throw invalid('cols', `at most ${MAX_COLUMNS} columns a grid (it has ${existing.length})`);
    // New columns get negative keys: they are not rows yet.
    checkNames(
      new Map(existing.map((c) => [c.id, c.name])),
      items.map((c, i) => ({ key: -1 - i, name: c.name, field: `cols[${i}].name` })),
    );
    const uids = new Set(existing.map((c) => c.uid));
    const first = existing.reduce((max, c) => Math.max(max, c.ord + 1), 0);
    const cols = items.map((c, i) => ({ name: c.name, uid: newUid(uids), ord: first + i, ...values[i] }));
    await recordGridAppend(tx, grid.id, { authorId: viewer!.id, client });
    await insertColumns(tx, grid.id, cols);
    await touchGrid(tx, grid.id);
    await settleGridHistory(tx, grid.id);
    return { cols: cols.map(({ name, uid }) => ({ name, uid })) };
  });
}

/** GET /v2/grids/{fid}/col?uid=: `{"cols": [{name, uid, order, data}]}` in the order asked, data as stored. */
export async function readColumns(db: Db, viewer: Viewer | null, fid: Fid, uidText: string, shareKey?: string | null): Promise<AsyncIterable<string>> {
  const grid = await readableGrid(db, viewer, fid, shareKey);
  const cols = await columnsAt(db, grid.id, uidText);
  return coalesced(
    (async function* () {
      yield '{"cols":[';
      let i = 0;
      for await (const data of columnTexts(
        db,
        cols.map((c) => c.id),
      )) {
        const col = cols[i];
        yield `${i++ ? ',' : ''}{"name":${JSON.stringify(col.name)},"uid":"${col.uid}","order":${col.ord},"data":${data}}`;
      }
      yield ']}';
    })(),
  );
}

/** PUT /v2/grids/{fid}/col?uid=: each named column's data replaced (and renamed when a name is given). */
export async function replaceColumns(db: Db, viewer: Viewer | null, fid: Fid, uidText: string, input: z.output<typeof colsBodySchema>, client: Client = 'api') {
  const grid = await editableGrid(db, viewer, fid);
  const items = colItems(input.cols, false);
  const values = valuesOf(items.map((c, i) => ({ data: c.data, field: `cols[${i}].data` })));
  return db.transaction(async (tx) => {
    await lockGrid(tx, grid.id);
    const targets = await columnsAt(tx, grid.id, uidText);
    if (items.length !== targets.length) {
      throw invalid('cols', `expected ${targets.length} column${targets.length === 1 ? '' : 's'}, one per uid, in the uids' order; got ${items.length}`);
    }
    const renames = items.flatMap((c, i) => (c.name === undefined ? [] : [{ key: targets[i].id, name: c.name, field: `cols[${i}].name` }]));
    if (renames.length) checkNames(new Map((await gridColumnsOf(tx, grid.id)).map((c) => [c.id, c.name])), renames);
    const cols = targets.map((t, i) => ({ id: t.id, uid: t.uid, name: items[i].name ?? t.name, ...values[i] }));
    await recordGridVersion(tx, grid.id, { authorId: viewer!.id, client });
    await replaceColumnData(tx, grid.id, cols);
    await touchGrid(tx, grid.id);
    await refreshPlotsOfGrids(tx, [grid]);
    await settleGridHistory(tx, grid.id);
    return { cols: cols.map(({ name, uid }) => ({ name, uid })) };
  });
}

/** DELETE /v2/grids/{fid}/col?uid= */
export async function deleteColumns(db: Db, viewer: Viewer | null, fid: Fid, uidText: string, client: Client = 'api'): Promise<void> {
  const grid = await editableGrid(db, viewer, fid);
  await db.transaction(async (tx) => {
    await lockGrid(tx, grid.id);
    const targets = await columnsAt(tx, grid.id, uidText);
    await recordGridVersion(tx, grid.id, { authorId: viewer!.id, client });
    await tx.delete(gridColumns).where(
      inArray(
        gridColumns.id,
        targets.map((t) => t.id),
      ),
    );
    await touchGrid(tx, grid.id);
    await refreshPlotsOfGrids(tx, [grid]);
    await settleGridHistory(tx, grid.id);
  });
}

/**
 * POST /v2/grids/{fid}/row: shorter columns padded with "" to the longest, then the rows appended,
 * by text concatenation in the database (stored text is JSON.stringify's, so it ends with "]").
 * 200 with the grid record.
 */
export async function appendRows(db: Db, viewer: Viewer | null, fid: Fid, input: z.output<typeof rowsBodySchema>, origin: string, client: Client = 'api') {
  const grid = await editableGrid(db, viewer, fid);
  const { rows } = input;
  await db.transaction(async (tx) => {
    await lockGrid(tx, grid.id);
    // Only short columns' previews can change: longer ones keep their first values.
    const cols = await queryRows<{ id: string | number; values_id: string | number; length: number; head: string | null }>(
      tx,
      sql`SELECT id, values_id, length, CASE WHEN length < ${PREVIEW_VALUES} THEN coalesce(preview, '[]'::json)::text END AS head
          FROM grid_columns WHERE grid_id = ${grid.id} ORDER BY ord, id`,
    );
    const misfit = misfitRow(rows, cols.length);
    if (misfit)
      throw invalid(`rows[${misfit.row}]`, `expected ${cols.length} value${cols.length === 1 ? '' : 's'}, one per column in column order; got ${misfit.width}`);
    if (rows.overflow) throw invalid(`rows[${rows.overflow.row}][${rows.overflow.index}]`, NON_FINITE);
    if (rows.oversized) throw invalid(`rows[${rows.oversized.row}][${rows.oversized.index}]`, CELL_TOO_LARGE);
    const longest = cols.reduce((max, c) => Math.max(max, c.length), 0);
    if (longest + rows.count > MAX_COLUMN_VALUES) throw invalid('rows', `at most ${MAX_COLUMN_VALUES} values a column (the longest has ${longest})`);
    await recordGridAppend(tx, grid.id, { authorId: viewer!.id, client });
    // Every column gets new values (the old ones stay while a kept version points to them).
    const ids = await newValuesIds(tx, cols.length);
    const updates = cols.map((c, k) => {
      const { text, bytes, head: added } = rows.columns[k];
      const pad = longest - c.length;
      const head = c.head === null ? null : [...JSON.parse(c.head), ...Array<string>(Math.min(pad, PREVIEW_VALUES)).fill(''), ...added];
      return {
        text,
        row: sql`(${Number(c.id)}::bigint, ${ids[k]}::bigint, ${pad}::int, ${text}::text, ${bytes}::bigint, ${head && JSON.stringify(head.slice(0, PREVIEW_VALUES))}::text)`,
      };
    });
    for (const group of statements(updates, (u) => u.text)) {
      await tx.execute(sql`
        INSERT INTO column_values (id, grid_id, data, length, bytes, preview)
        SELECT v.values_id, c.grid_id,
               (left(o.data::text, -1) || CASE WHEN c.length = 0 THEN '' ELSE ',' END || repeat('"",', v.pad) || v.vals || ']')::json,
               c.length + v.pad + ${rows.count}::int,
               c.bytes + CASE WHEN c.length = 0 THEN 0 ELSE 1 END + 3 * v.pad + v.bytes,
               coalesce(v.preview::json, c.preview)
        FROM (VALUES ${sql.join(
          group.map((u) => u.row),
          sql`, `,
        )}) AS v(id, values_id, pad, vals, bytes, preview)
        JOIN grid_columns c ON c.id = v.id JOIN column_values o ON o.id = c.values_id`);
    }
    await appendBlocks(
      tx,
      cols.map((c, k) => ({
        oldValuesId: Number(c.values_id),
        newValuesId: ids[k],
        oldLength: c.length,
        pad: longest - c.length,
        count: rows.count,
        added: rows.columns[k].text,
      })),
    );
    await pointColumns(
      tx,
      cols.map((c, k) => ({ id: Number(c.id), valuesId: ids[k] })),
    );
    await touchGrid(tx, grid.id);
    if (cols.length) await refreshPlotsOfGrids(tx, [grid]);
    await settleGridHistory(tx, grid.id);
  });
  return recordOf(db, (await getFile(db, fid, viewer)) ?? grid, viewer, origin);
}
