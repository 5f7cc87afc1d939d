// The grid editor's save: a whole new state of the grid's columns in one transaction, refused when
// the grid changed since the editor loaded it.
import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { gridColumns } from '@/db/schema';
import type { ColumnValues } from '@/lib/shared/column-values';
import type { Viewer } from '../accounts/auth';
import { conflict, invalid, notFound } from '../errors';
import { recordGridVersion, settleGridHistory, type Client } from '../files/versions';
import { refreshPlotsOfGrids } from '../images/images';
import type { Fid } from '../records';
import { insertColumns, newUid, replaceColumnData, type NewColumn } from './column-store';
import { checkNames, editItems, quoted, valuesOf, type editsBodySchema } from './grid-input';
import { editableGrid, gridColumnsOf, listGridColumns, lockGrid, touchGrid, type ColumnInfo } from './grids';

/** A grid's state as a token: its date_modified to the microsecond, which every write of its columns moves (touchGrid). */
const EDIT_BASE = sql`(extract(epoch FROM updated_at) * 1000000)::bigint::text`;

/** The token a grid editor loads with and sends back with its save (`base`). */
export async function gridEditBase(db: Db, gridId: number): Promise<string> {
  const [row] = await queryRows<{ base: string }>(db, sql`SELECT ${EDIT_BASE} AS base FROM files WHERE id = ${gridId}`);
  if (!row) throw notFound();
  return row.base;
}

/** GET /v2/grids/{fid}/edits: the caller's own grid's base and its columns now (what an editor whose
 * save was refused re-applies its edits onto). The base first: columns read after it can only be
 * newer, so a stale base refuses a save, never overwrites. */
export async function editStateOf(db: Db, viewer: Viewer | null, fid: Fid): Promise<{ base: string; cols: ColumnInfo[] }> {
  const grid = await editableGrid(db, viewer, fid);
  const base = await gridEditBase(db, grid.id);
  return { base, cols: (await listGridColumns(db, [grid.id])).get(grid.id) ?? [] };
}

export const STALE_EDIT =
  'This grid was changed by someone else since you opened it, so your changes were not saved (nothing was written). Your edits are kept here: download them as CSV, then reload to see the current data.';

/**
 * POST /v2/grids/{fid}/edits: the grid's columns become `cols`, in that order, in one transaction
 * (all or nothing): kept columns (by uid) renamed and their data replaced when given, new ones added,
 * the rest deleted. Refused with 409 when the grid changed since `base` (checked under the grid's
 * lock). The columns' rules are the column verbs' (values, unique names, MAX_COLUMNS); plots drawn
 * from the grid are drawn again when data changed. Answers the new `base` and the columns.
 */
export async function saveGridEdits(db: Db, viewer: Viewer | null, fid: Fid, input: z.output<typeof editsBodySchema>, client: Client = 'api') {
  const grid = await editableGrid(db, viewer, fid);
  const items = editItems(input.cols);
  const given = items.flatMap((c, i) => (c.data === undefined ? [] : [{ i, data: c.data }]));
  const values = valuesOf(given.map(({ i, data }) => ({ data, field: `cols[${i}].data` })));
  const valuesAt = new Map(given.map(({ i }, k) => [i, values[k]]));
  return db.transaction(async (tx) => {
    await lockGrid(tx, grid.id);
    if ((await gridEditBase(tx, grid.id)) !== input.base) throw conflict(STALE_EDIT);
    const existing = await gridColumnsOf(tx, grid.id);
    const byUid = new Map(existing.map((c) => [c.uid, c]));
    const kept = new Set<string>();
    for (const [i, c] of items.entries()) {
      if (c.uid === undefined) continue;
      if (!byUid.has(c.uid)) throw invalid(`cols[${i}].uid`, `the grid has no column ${quoted(c.uid)}`);
      if (kept.has(c.uid)) throw invalid(`cols[${i}].uid`, `${quoted(c.uid)} is given twice`);
      kept.add(c.uid);
    }
    const names = items.map((c) => c.name ?? byUid.get(c.uid!)!.name);
    // Names kept as they were are the grid's; the ones given are checked against them.
    checkNames(
      new Map(items.flatMap((c, i) => (c.name === undefined ? [[i, names[i]] as const] : []))),
      items.flatMap((c, i) => (c.name === undefined ? [] : [{ key: i, name: c.name, field: `cols[${i}].name` }])),
    );
    const gone = existing.filter((c) => !kept.has(c.uid));
    const uids = new Set(existing.map((c) => c.uid));
    const added: NewColumn[] = [];
    const moved: { id: number; name: string; ord: number }[] = [];
    const replaced: (ColumnValues & { id: number; name: string })[] = [];
    const cols = items.map((c, i) => {
      const name = names[i];
      const v = valuesAt.get(i);
      if (c.uid === undefined) {
        added.push({ name, uid: newUid(uids), ord: i, ...v! });
        return { name, uid: added[added.length - 1].uid };
      }
      const col = byUid.get(c.uid)!;
      if (col.ord !== i || col.name !== name) moved.push({ id: col.id, name, ord: i });
      if (v) replaced.push({ id: col.id, name, ...v });
      return { name, uid: col.uid };
    });
    if (!gone.length && !added.length && !moved.length && !replaced.length) return { base: input.base, cols };
    await recordGridVersion(tx, grid.id, { authorId: viewer!.id, client });
    if (gone.length)
      await tx.delete(gridColumns).where(
        inArray(
          gridColumns.id,
          gone.map((c) => c.id),
        ),
      );
    if (moved.length) {
      const rows = moved.map((c) => sql`(${c.id}::bigint, ${c.name}::text, ${c.ord}::int)`);
      await tx.execute(sql`
        UPDATE grid_columns c SET name = v.name, ord = v.ord
        FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, name, ord)
        WHERE c.id = v.id`);
    }
    await replaceColumnData(tx, grid.id, replaced);
    await insertColumns(tx, grid.id, added);
    await touchGrid(tx, grid.id);
    if (gone.length || replaced.length) await refreshPlotsOfGrids(tx, [grid]);
    await settleGridHistory(tx, grid.id);
    return { base: await gridEditBase(tx, grid.id), cols };
  });
}
