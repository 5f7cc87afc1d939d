// Grids: the column data plots reference. Column values are stored as json text exactly as sent and
// spliced into answers as stored.
import { randomBytes } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { files, gridColumns } from '@/db/schema';
import type { Viewer } from './auth';
import { invalid, invalidMany } from './errors';
import { decodeTypedArray } from './figure';
import {
  fileFieldsSchema,
  fileRecord,
  filenameSchema,
  getFile,
  insertFile,
  newShareKey,
  parentFromPath,
  pathSchema,
  type OwnedFile,
  type TYPE_FIELDS,
  type TypeUpdate,
} from './files';
import { MiB, parseJsonText, parseWith, renameRepeatedKeys } from './http';
import { assertReadable } from './permissions';
import type { Fid } from './records';

export const MAX_COLUMN_VALUES = 1_000_000;
const MAX_COLUMNS = 10_000;

const columnSchema = z.object({
  data: z.unknown(),
  order: z.number().int().min(0).max(1_000_000).optional(),
});

/** POST /v2/grids */
export const createGridSchema = z.object({
  data: z.unknown().refine((v) => v !== undefined, 'This field is required.'),
  filename: filenameSchema.optional(),
  parent_path: pathSchema.optional(),
  world_readable: z.boolean().optional(),
  share_key_enabled: z.boolean().optional(),
});

/** PUT/PATCH /v2/grids/{fid}: the fields given change. */
export const gridUpdateSchema = fileFieldsSchema.extend({
  metadata: z
    .unknown()
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MiB, 'at most 1 MiB')
    .optional()
    .meta({ description: 'any JSON value, at most 1 MiB; null clears' }),
} satisfies Record<(typeof TYPE_FIELDS.grid)[number], z.ZodType>);
export type GridUpdate = z.output<typeof gridUpdateSchema>;

/** A grid's part of an update: its metadata. */
export const gridUpdate: TypeUpdate<GridUpdate> = async (_db, _owner, input) =>
  input.metadata === undefined ? null : (tx, file) => tx.update(files).set({ metadata: input.metadata }).where(eq(files.id, file.id));

interface NewColumn {
  name: string;
  uid: string;
  ord: number;
  text: string;
  length: number;
  preview: string;
}

/** Checks and normalizes the columns of a create: plain arrays, or typed arrays decoded to plain values. */
function columnsOf(data: unknown): NewColumn[] {
  const parsed = typeof data === 'string' ? parseJsonText(renameRepeatedKeys(data, ['cols']), 'data') : data;
  const { cols } = parseWith(z.object({ cols: z.record(z.string().min(1).max(1024), columnSchema) }), parsed, 'data');
  const entries = Object.entries(cols);
  if (entries.length > MAX_COLUMNS) throw invalid('data.cols', `at most ${MAX_COLUMNS} columns a grid`);
  const uids = new Set<string>();
  const problems: { field: string; message: string }[] = [];
  const out = entries.map(([name, col], index) => {
    // A scalar is a one-value column: R's JSON encoder unboxes length-1 vectors.
    const scalar = col.data === null || ['number', 'string', 'boolean'].includes(typeof col.data);
    const values = Array.isArray(col.data) ? col.data : scalar ? [col.data] : decodeTypedArray(col.data);
    const field = `data.cols.${name}.data`;
    if (!values) {
      problems.push({ field, message: 'expected an array of values (or a typed array {dtype, bdata})' });
      return undefined;
    }
    let count = values.length;
    for (const v of values) if (Array.isArray(v)) count += v.length;
    if (count > MAX_COLUMN_VALUES) problems.push({ field, message: `at most ${MAX_COLUMN_VALUES} values a column` });
    let uid: string;
    do uid = randomBytes(3).toString('hex');
    while (uids.has(uid));
    uids.add(uid);
    return { name, uid, ord: col.order ?? index, text: JSON.stringify(values), length: values.length, preview: JSON.stringify(values.slice(0, 20)) };
  });
  if (problems.length) throw invalidMany(problems.slice(0, 20));
  return (out as NewColumn[]).sort((a, b) => a.ord - b.ord);
}

export type GridCol = { name: string; uid: string };

export function gridRecord(origin: string, file: OwnedFile, viewer: Viewer | null, cols: GridCol[]) {
  return { ...fileRecord(origin, file, viewer), cols };
}

/** POST /v2/grids */
export async function createGrid(db: Db, viewer: Viewer, input: z.output<typeof createGridSchema>, origin: string) {
  const cols = columnsOf(input.data);
  const file = await db.transaction(async (tx) => {
    const parent = await parentFromPath(tx, viewer.id, input.parent_path);
    const row = await insertFile(tx, {
      ownerId: viewer.id,
      filetype: 'grid',
      filename: input.filename,
      parent,
      worldReadable: input.world_readable ?? true,
      shareKey: input.share_key_enabled ? newShareKey() : null,
    });
    // One statement a few columns at a time keeps each message to Postgres well under its limits.
    for (let i = 0; i < cols.length; i += 100) {
      await tx.insert(gridColumns).values(
        cols.slice(i, i + 100).map((c) => ({
          gridId: row.id,
          uid: c.uid,
          name: c.name,
          ord: c.ord,
          data: sql`${c.text}::json`,
          length: c.length,
          preview: sql`${c.preview}::json`,
        })),
      );
    }
    return row;
  });
  return { file: gridRecord(origin, { ...file, owner: viewer.username }, viewer, cols.map(({ name, uid }) => ({ name, uid }))) };
}

async function gridColumnsOf(db: Db, gridId: number) {
  return db
    .select({ id: gridColumns.id, name: gridColumns.name, uid: gridColumns.uid, ord: gridColumns.ord })
    .from(gridColumns)
    .where(eq(gridColumns.gridId, gridId))
    .orderBy(asc(gridColumns.ord), asc(gridColumns.id));
}

async function readableGrid(db: Db, viewer: Viewer | null, fid: Fid, shareKey?: string | null): Promise<OwnedFile> {
  const file = await getFile(db, fid);
  return assertReadable(file?.filetype === 'grid' ? file : undefined, viewer, shareKey);
}

/** GET /v2/grids/{fid} */
export async function getGrid(db: Db, viewer: Viewer | null, fid: Fid, origin: string, shareKey?: string | null) {
  const file = await readableGrid(db, viewer, fid, shareKey);
  const cols = await gridColumnsOf(db, file.id);
  return gridRecord(origin, file, viewer, cols.map(({ name, uid }) => ({ name, uid })));
}

/** The stored text of one column's values. */
export async function columnText(db: Db, columnId: number): Promise<string> {
  const [row] = await queryRows<{ data: string }>(db, sql`SELECT data::text AS data FROM grid_columns WHERE id = ${columnId}`);
  return row?.data ?? 'null';
}

/** GET /v2/grids/{fid}/content: `{"cols": {name: {data, order, uid}}}`, streamed column by column. */
export async function gridContent(db: Db, viewer: Viewer | null, fid: Fid, shareKey?: string | null): Promise<AsyncIterable<string>> {
  const file = await readableGrid(db, viewer, fid, shareKey);
  const cols = await gridColumnsOf(db, file.id);
  return (async function* () {
    yield '{"cols":{';
    for (const [i, col] of cols.entries()) {
      yield `${i ? ',' : ''}${JSON.stringify(col.name)}:{"data":`;
      yield await columnText(db, col.id);
      yield `,"order":${col.ord},"uid":"${col.uid}"}`;
    }
    yield '}}';
  })();
}

/** Columns by (grid, uid) for the given grids: the lookup behind src references. */
export async function columnsByGrid(db: Db, gridIds: number[]): Promise<Map<number, Map<string, number>>> {
  const out = new Map<number, Map<string, number>>();
  if (!gridIds.length) return out;
  const rows = await db
    .select({ id: gridColumns.id, gridId: gridColumns.gridId, uid: gridColumns.uid })
    .from(gridColumns)
    .where(inArray(gridColumns.gridId, gridIds));
  for (const r of rows) {
    if (!out.has(r.gridId)) out.set(r.gridId, new Map());
    out.get(r.gridId)!.set(r.uid, r.id);
  }
  return out;
}

export interface GridAccess {
  id: number;
  ownerId: number;
  worldReadable: boolean;
  shareKey: string | null;
}

/** `lower(owner):n` of a src's grid: usernames are case-insensitive. */
export const gridKey = (owner: string, n: number) => `${owner.toLowerCase()}:${n}`;

/** The live grids named by (owner, n) pairs, keyed by gridKey. */
export async function findGrids(db: Db, refs: { owner: string; n: number }[]): Promise<Map<string, GridAccess>> {
  const pairs = new Map(refs.map((r) => [gridKey(r.owner, r.n), sql`(${r.owner.toLowerCase()}::text, ${r.n}::int)`]));
  const out = new Map<string, GridAccess>();
  if (!pairs.size) return out;
  const rows = await queryRows<{ key: string; id: string | number; owner_id: number; world_readable: boolean; share_key: string | null }>(
    db,
    sql`SELECT lower(u.username) || ':' || f.n AS key, f.id, f.owner_id, f.world_readable, f.share_key
        FROM files f JOIN users u ON u.id = f.owner_id
        WHERE f.filetype = 'grid' AND f.trashed_at IS NULL
          AND (lower(u.username), f.n) IN (${sql.join([...pairs.values()], sql`, `)})`,
  );
  for (const r of rows) out.set(r.key, { id: Number(r.id), ownerId: r.owner_id, worldReadable: r.world_readable, shareKey: r.share_key });
  return out;
}

/** Grid values one plot may reference, each reference counted (API.md "Limits"). */
export const MAX_REFERENCED_VALUES = 10_000_000;

/** The values of these columns, each id counted as often as it is listed (a plot's references). */
export async function referencedValues(db: Db, columnIds: number[]): Promise<number> {
  if (!columnIds.length) return 0;
  const [row] = await queryRows<{ n: string | number }>(
    db,
    sql`SELECT coalesce(sum(g.length), 0) AS n FROM unnest(${`{${columnIds.join(',')}}`}::bigint[]) AS r(id) JOIN grid_columns g ON g.id = r.id`,
  );
  return Number(row.n);
}
