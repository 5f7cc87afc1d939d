// Grids: the column data plots reference. Column values are stored as json text exactly as written
// and spliced into answers as stored; column writes change a column's text in the database (rows are
// appended by text concatenation there), so a large column never travels through Node whole.
// What the writes accept (schemas, checked data and rows) is in grid-input.ts, pure; the column and row
// verbs are in column-verbs.ts, the grid editor's save in grid-edits.ts.
import 'server-only';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { files, gridColumns } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { notFound } from '../errors';
import { fileFieldsSchema, type TYPE_FIELDS, type TypeUpdate } from '../files/file-changes';
import { createFile, fileRecord, getFile, type FileRow, type OwnedFile } from '../files/files';
import { listReferencers, type GridPlots } from '../files/references';
import { recordFirstVersion, type Client } from '../files/versions';
import { assertEditor, assertReadable } from '../permissions';
import { fidOf, type Fid } from '../records';
import { coalesced, columnTexts } from './column-reads';
import { insertColumns, newUid, type NewColumn } from './column-store';
import { gridData, metadataSchema, valuesOf, type createGridSchema } from './grid-input';

/** PUT/PATCH /v2/grids/{fid}: the fields given change. */
export const gridUpdateSchema = fileFieldsSchema.extend({
  metadata: metadataSchema.optional(),
} satisfies Record<(typeof TYPE_FIELDS.grid)[number], z.ZodType>);
export type GridUpdate = z.output<typeof gridUpdateSchema>;

/** A grid's part of an update: its metadata. */
export const gridUpdate: TypeUpdate<GridUpdate> = async (_db, _owner, input) =>
  input.metadata === undefined ? null : (tx, file) => updateGridFields(tx, file, input);

/** Checks and normalizes a create's `data`: its columns (in `order`) and metadata. */
function gridDataOf(data: unknown): { cols: NewColumn[]; metadata: unknown } {
  const { cols, metadata } = gridData(data);
  const entries = Object.entries(cols);
  const values = valuesOf(entries.map(([name, col]) => ({ data: col.data, field: `data.cols.${name}.data` })));
  const uids = new Set<string>();
  const out = entries.map(([name, col], i) => ({ name, uid: newUid(uids), ord: col.order ?? i, ...values[i] }));
  return { cols: out.sort((a, b) => a.ord - b.ord), metadata };
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

export async function gridColumnsOf(db: Db, gridId: number) {
  return db
    .select({ id: gridColumns.id, name: gridColumns.name, uid: gridColumns.uid, ord: gridColumns.ord })
    .from(gridColumns)
    .where(eq(gridColumns.gridId, gridId))
    .orderBy(asc(gridColumns.ord), asc(gridColumns.id));
}

const gridOnly = (file: OwnedFile | undefined) => (file?.filetype === 'grid' ? file : undefined);

export async function readableGrid(db: Db, viewer: Viewer | null, fid: Fid, shareKey?: string | null): Promise<OwnedFile> {
  return assertReadable(gridOnly(await getFile(db, fid, viewer)), viewer, shareKey);
}

/** The record of a grid the caller may read (checked). */
export async function recordOf(db: Db, file: OwnedFile, viewer: Viewer | null, origin: string) {
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

/** A grid the caller changes the content of, as owner or writer (401, 404 to those who cannot read it, 403 to readers). */
export async function editableGrid(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
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
