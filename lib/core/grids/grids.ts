// Grids: the column data plots reference. Column values are stored as json text exactly as written
// and spliced into answers as stored; column writes change a column's text in the database (rows are
// appended by text concatenation there), so a large column never travels through Node whole.
// What the writes accept (schemas, checked data and rows) is in grid-input.ts, pure.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { files, gridColumns } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { coalesced, columnTexts } from './column-reads';
import { CELL_TOO_LARGE, columnValues, MAX_COLUMN_VALUES, NON_FINITE, PREVIEW_VALUES, type ColumnValues } from '@/lib/shared/column-values';
import { conflict, invalid, invalidMany, notFound } from '../errors';
import { createFile, fileRecord, getFile, type FileRow, type OwnedFile } from '../files/files';
import { fileFieldsSchema, type TYPE_FIELDS, type TypeUpdate } from '../files/file-changes';
import {
  colItems,
  editItems,
  gridData,
  MAX_COLUMNS,
  metadataSchema,
  misfitRow,
  type colsBodySchema,
  type createGridSchema,
  type editsBodySchema,
  type rowsBodySchema,
} from './grid-input';
import { columnText, newValuesIds, statements, writeValues } from './column-store';

export { columnText };
import { refreshPlotsOfGrids } from '../images/images';
import { assertEditor, assertReadable } from '../permissions';
import { listReferencers, type GridPlots } from '../files/references';
import { fidOf, type Fid } from '../records';
import { recordFirstVersion, recordGridAppend, recordGridVersion, settleGridHistory, type Client } from '../files/versions';

/** Columns one request may name (`?uid=a,b`). */
export const MAX_UIDS = 1000;

type Problem = { field: string; message: string };

/** PUT/PATCH /v2/grids/{fid}: the fields given change. */
export const gridUpdateSchema = fileFieldsSchema.extend({
  metadata: metadataSchema.optional(),
} satisfies Record<(typeof TYPE_FIELDS.grid)[number], z.ZodType>);
export type GridUpdate = z.output<typeof gridUpdateSchema>;

/** A grid's part of an update: its metadata. */
export const gridUpdate: TypeUpdate<GridUpdate> = async (_db, _owner, input) =>
  input.metadata === undefined ? null : (tx, file) => updateGridFields(tx, file, input);

/** Every column's values, or one 400 naming each column at fault. */
function valuesOf(cols: { data: unknown; field: string }[]): ColumnValues[] {
  const problems: Problem[] = [];
  const out: ColumnValues[] = [];
  for (const c of cols) {
    const values = columnValues(c.data);
    if ('text' in values) out.push(values);
    else problems.push({ field: values.index === undefined ? c.field : `${c.field}[${values.index}]`, message: values.message });
  }
  if (problems.length) throw invalidMany(problems.slice(0, 20));
  return out;
}

interface NewColumn extends ColumnValues {
  name: string;
  uid: string;
  ord: number;
}

/** A uid (6 lowercase hex characters) not in `taken`, which it joins. */
function newUid(taken: Set<string>): string {
  let uid: string;
  do uid = randomBytes(3).toString('hex');
  while (taken.has(uid));
  taken.add(uid);
  return uid;
}

/** Checks and normalizes a create's `data`: its columns (in `order`) and metadata. */
function gridDataOf(data: unknown): { cols: NewColumn[]; metadata: unknown } {
  const { cols, metadata } = gridData(data);
  const entries = Object.entries(cols);
  const values = valuesOf(entries.map(([name, col]) => ({ data: col.data, field: `data.cols.${name}.data` })));
  const uids = new Set<string>();
  const out = entries.map(([name, col], i) => ({ name, uid: newUid(uids), ord: col.order ?? i, ...values[i] }));
  return { cols: out.sort((a, b) => a.ord - b.ord), metadata };
}

/** Writes new columns: their values, then the columns pointing to them. */
async function insertColumns(tx: Db, gridId: number, cols: NewColumn[]): Promise<void> {
  const ids = await newValuesIds(tx, cols.length);
  await writeValues(
    tx,
    gridId,
    cols.map((c, i) => ({ ...c, valuesId: ids[i] })),
  );
  for (let i = 0; i < cols.length; i += 1000) {
    await tx.insert(gridColumns).values(
      cols.slice(i, i + 1000).map((c, k) => ({
        gridId,
        uid: c.uid,
        name: c.name,
        ord: c.ord,
        valuesId: ids[i + k],
        bytes: c.bytes,
        length: c.length,
        preview: sql`${JSON.stringify(c.head)}::json`,
      })),
    );
  }
}

/** Applies a grid's own fields (metadata) in the caller's transaction; the caller checked ownership. */
export async function updateGridFields(tx: Db, file: FileRow, input: GridUpdate): Promise<void> {
  if (input.metadata === undefined) return;
  await tx.update(files).set({ metadata: input.metadata, updatedAt: sql`now()` }).where(eq(files.id, file.id));
}

export type GridCol = { name: string; uid: string; preview: unknown[] };

/** An object whose keys serialize in the given order, integer-like names included (plain objects put those first). */
function orderedObject(entries: [string, unknown][]): Record<string, unknown> {
  const keys = entries.map(([k]) => k);
  return new Proxy(Object.fromEntries(entries), { ownKeys: () => keys });
}

/** The grid record: the common fields, `cols`, `metadata`, `preview` (first values, padded with null) and the plots drawing from it. */
export function gridRecord(origin: string, file: OwnedFile, viewer: Viewer | null, cols: GridCol[], referencers: GridPlots = NO_REFERENCERS) {
  const rows = cols.reduce((max, c) => Math.max(max, c.preview.length), 0);
  const padded = (values: unknown[]) => [...values, ...Array<null>(rows - values.length).fill(null)];
  return {
    ...fileRecord(origin, file, viewer),
    cols: cols.map(({ name, uid }) => ({ name, uid })),
    metadata: file.metadata ?? null,
    preview: orderedObject(cols.map((c) => [c.name, padded(c.preview)])),
    referencers: referencers.plots.map((p) => ({ fid: fidOf(p.owner, p.n), filetype: 'plot' })),
    referencers_hidden: referencers.hidden,
  };
}

/** A new grid's: nothing draws from it yet. */
const NO_REFERENCERS: GridPlots = { plots: [], hidden: 0 };

/** POST /v2/grids (version 1 by `client`) */
export async function createGrid(db: Db, viewer: Viewer, input: z.output<typeof createGridSchema>, origin: string, client: Client = 'api') {
  const { cols, metadata } = gridDataOf(input.data);
  const file = await createFile(db, viewer, 'grid', input, async (tx, row) => {
    await insertColumns(tx, row.id, cols);
    await recordFirstVersion(tx, row.id, { authorId: viewer.id, client });
    await updateGridFields(tx, row, { metadata });
    return { ...row, metadata: metadata ?? null };
  });
  const record = gridRecord(
    origin,
    { ...file, owner: viewer.username },
    viewer,
    cols.map((c) => ({ name: c.name, uid: c.uid, preview: c.head })),
  );
  return { file: record };
}

async function gridColumnsOf(db: Db, gridId: number) {
  return db
    .select({ id: gridColumns.id, name: gridColumns.name, uid: gridColumns.uid, ord: gridColumns.ord })
    .from(gridColumns)
    .where(eq(gridColumns.gridId, gridId))
    .orderBy(asc(gridColumns.ord), asc(gridColumns.id));
}

const gridOnly = (file: OwnedFile | undefined) => (file?.filetype === 'grid' ? file : undefined);

async function readableGrid(db: Db, viewer: Viewer | null, fid: Fid, shareKey?: string | null): Promise<OwnedFile> {
  return assertReadable(gridOnly(await getFile(db, fid, viewer)), viewer, shareKey);
}

/** The record of a grid the caller may read (checked). */
async function recordOf(db: Db, file: OwnedFile, viewer: Viewer | null, origin: string) {
  const [cols, referencers] = await Promise.all([
    queryRows<{ name: string; uid: string; preview: string | null }>(
      db,
      sql`SELECT name, uid, preview::text AS preview FROM grid_columns WHERE grid_id = ${file.id} ORDER BY ord, id`,
    ),
    listReferencers(db, viewer?.id ?? null, file),
  ]);
  return gridRecord(
    origin,
    file,
    viewer,
    cols.map((c) => ({ name: c.name, uid: c.uid, preview: c.preview ? JSON.parse(c.preview) : [] })),
    referencers,
  );
}

/** GET /v2/grids/{fid} */
export async function getGrid(db: Db, viewer: Viewer | null, fid: Fid, origin: string, shareKey?: string | null) {
  return recordOf(db, await readableGrid(db, viewer, fid, shareKey), viewer, origin);
}

export { columnTexts };

/** GET /v2/grids/{fid}/content: `{"cols": {name: {data, order, uid}}}`, streamed column by column. */
export async function gridContent(db: Db, viewer: Viewer | null, fid: Fid, shareKey?: string | null): Promise<AsyncIterable<string>> {
  const file = await readableGrid(db, viewer, fid, shareKey);
  const cols = await gridColumnsOf(db, file.id);
  return coalesced(
    (async function* () {
      yield '{"cols":{';
      let i = 0;
      for await (const data of columnTexts(
        db,
        cols.map((c) => c.id),
      )) {
        const col = cols[i];
        yield `${i++ ? ',' : ''}${JSON.stringify(col.name)}:{"data":${data},"order":${col.ord},"uid":"${col.uid}"}`;
      }
      yield '}}';
    })(),
  );
}

// ---------------------------------------------------------------------------------------------
// Columns and rows (docs/api.md "Endpoints"), metadata

/** A grid the caller changes the content of, as owner or writer (401, 404 to those who cannot read it, 403 to readers). */
async function editableGrid(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  return assertEditor(gridOnly(await getFile(db, fid, viewer)), viewer);
}

/**
 * Locks a grid for a write until the transaction ends, so column writes apply one after another
 * (names, order and lengths are read and written under the lock). 404 when trashed or gone since.
 */
export async function lockGrid(tx: Db, gridId: number): Promise<void> {
  const rows = await queryRows(tx, sql`SELECT 1 FROM files WHERE id = ${gridId} AND trashed_at IS NULL FOR UPDATE`);
  if (!rows.length) throw notFound();
}

/** The grid's date_modified moves with its columns. */
export async function touchGrid(tx: Db, gridId: number): Promise<void> {
  await tx.update(files).set({ updatedAt: sql`now()` }).where(eq(files.id, gridId));
}

const quoted = (s: string) => `'${s.length > 50 ? `${s.slice(0, 50)}…` : s}'`;

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

/** 400 naming the first of `changes` whose name another column of the grid has (or will have). */
function checkNames(current: Map<number, string>, changes: { key: number; name: string; field: string }[]): void {
  const names = new Map(current);
  for (const c of changes) names.set(c.key, c.name);
  const count = new Map<string, number>();
  for (const name of names.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const clash = changes.find((c) => count.get(c.name)! > 1);
  if (clash) throw invalid(clash.field, `a column named ${quoted(clash.name)} already exists in this grid (names are unique within a grid)`);
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

/** Columns' names and data replaced (new values, which the columns then point to); the caller holds the grid's lock. */
async function replaceColumnData(tx: Db, gridId: number, cols: (ColumnValues & { id: number; name: string })[]): Promise<void> {
  const ids = await newValuesIds(tx, cols.length);
  await writeValues(
    tx,
    gridId,
    cols.map((c, i) => ({ ...c, valuesId: ids[i] })),
  );
  await pointColumns(
    tx,
    cols.map((c, i) => ({ id: c.id, name: c.name, valuesId: ids[i] })),
  );
}

/** Columns (by id) point to new values (written), taking their length, bytes and preview, and their new name when given. */
async function pointColumns(tx: Db, cols: { id: number; name?: string; valuesId: number }[]): Promise<void> {
  for (let i = 0; i < cols.length; i += 1000) {
    const rows = cols.slice(i, i + 1000).map((c) => sql`(${c.id}::bigint, ${c.name ?? null}::text, ${c.valuesId}::bigint)`);
    await tx.execute(sql`
      UPDATE grid_columns c SET name = coalesce(v.name, c.name), values_id = v.values_id, bytes = cv.bytes, length = cv.length, preview = cv.preview
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, name, values_id) JOIN column_values cv ON cv.id = v.values_id
      WHERE c.id = v.id`);
  }
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
    const cols = await queryRows<{ id: string | number; length: number; head: string | null }>(
      tx,
      sql`SELECT id, length, CASE WHEN length < ${PREVIEW_VALUES} THEN coalesce(preview, '[]'::json)::text END AS head
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

// ---------------------------------------------------------------------------------------------
// The grid editor's save

/** A grid's state as a token: its date_modified to the microsecond, which every write of its columns moves (touchGrid). */
const EDIT_BASE = sql`(extract(epoch FROM updated_at) * 1000000)::bigint::text`;

/** The token a grid editor loads with and sends back with its save (`base`). */
export async function gridEditBase(db: Db, gridId: number): Promise<string> {
  const [row] = await queryRows<{ base: string }>(db, sql`SELECT ${EDIT_BASE} AS base FROM files WHERE id = ${gridId}`);
  if (!row) throw notFound();
  return row.base;
}

/** GET /v2/grids/{fid}/edits: the caller's own grid's base. */
export async function editBaseOf(db: Db, viewer: Viewer | null, fid: Fid): Promise<string> {
  return gridEditBase(db, (await editableGrid(db, viewer, fid)).id);
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

// ---------------------------------------------------------------------------------------------
// The chart editor's data

/** Most grids the chart editor lists to pick from. */
export const MAX_LISTED_GRIDS = 200;

/** The viewer's live grids, latest changed first: what a new chart can start from (at most `size`, MAX_LISTED_GRIDS by default). */
export async function listOwnGrids(db: Db, viewer: Viewer, size = MAX_LISTED_GRIDS): Promise<{ n: number; filename: string; modified: Date }[]> {
  return db
    .select({ n: files.n, filename: files.filename, modified: files.updatedAt })
    .from(files)
    .where(and(eq(files.ownerId, viewer.id), eq(files.filetype, 'grid'), isNull(files.trashedAt)))
    .orderBy(desc(files.updatedAt), desc(files.n))
    .limit(Math.min(size, MAX_LISTED_GRIDS));
}

/** One column as the chart editor lists it: its name and uid, and its size (for the live-drawing limits). */
export interface ColumnInfo {
  name: string;
  uid: string;
  length: number;
  bytes: number;
}

/** The columns of each grid (by file id), in order, without their data. */
export async function listGridColumns(db: Db, gridIds: number[]): Promise<Map<number, ColumnInfo[]>> {
  const out = new Map<number, ColumnInfo[]>(gridIds.map((id) => [id, []]));
  if (!gridIds.length) return out;
  const rows = await db
    .select({ gridId: gridColumns.gridId, name: gridColumns.name, uid: gridColumns.uid, length: gridColumns.length, bytes: gridColumns.bytes })
    .from(gridColumns)
    .where(inArray(gridColumns.gridId, gridIds))
    .orderBy(asc(gridColumns.gridId), asc(gridColumns.ord), asc(gridColumns.id));
  for (const { gridId, ...col } of rows) out.get(gridId)?.push({ ...col, bytes: Number(col.bytes) });
  return out;
}
