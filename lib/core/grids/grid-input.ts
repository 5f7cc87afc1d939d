// What the grid writes accept, pure (no database): their body schemas, a create's `data` and the column
// verbs' `cols` checked (parsed first when sent as a JSON string, as the official clients do), and
// appended rows turned into column values. The request path and the body worker (lib/http/grid-bodies.ts,
// which checks large bodies off the event loop) both use them, so a body gets one answer whatever its size.
import { z } from 'zod';
import { columnValues, MAX_COLUMN_VALUES, nonFinite, oversizedCell, PREVIEW_VALUES, type ColumnValues } from '@/lib/shared/column-values';
import { invalid, invalidMany, type ApiError } from '../errors';
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';
import { columnNameSchema, filenameSchema, pathSchema } from '@/lib/shared/names';
import { MiB, parseJsonText, parseWith, renameRepeatedKeys } from '../json-text';

export const MAX_COLUMNS = 10_000;

/** A grid's metadata: any JSON value, at most 1 MiB (null: none). */
export const metadataSchema = z
  .unknown()
  .refine((v) => v === undefined || Buffer.byteLength(JSON.stringify(v) ?? '') <= MiB, 'at most 1 MiB of metadata')
  .meta({ description: 'any JSON value, at most 1 MiB; null clears it' });

/** POST /v2/grids */
export const createGridSchema = z.object({
  data: z
    .unknown()
    .refine((v) => v !== undefined, 'This field is required.')
    .meta({ description: '{"cols": {name: {"data", "order"}}, "metadata"?: any}, or a string holding it' }),
  filename: filenameSchema.optional(),
  parent_path: pathSchema.optional(),
  world_readable: z.boolean().optional(),
  share_key_enabled: z.boolean().optional(),
});

/** Body of POST and PUT /v2/grids/{fid}/col. */
export const colsBodySchema = z.object({
  cols: z
    .unknown()
    .refine((v) => v !== undefined, 'This field is required.')
    .meta({ description: 'a JSON array of {"name", "data"}, or a string holding one (what both official clients send)' }),
});

/** A field checked off the event loop: its checked value, or the error checking it raised (thrown
 * where checking it on the event loop would have thrown it). */
export class PreparedValue {
  constructor(private readonly outcome: { value: unknown } | { error: ApiError }) {}

  value(): unknown {
    if ('error' in this.outcome) throw this.outcome.error;
    return this.outcome.value;
  }
}

const prepared = <T>(value: unknown, check: (value: unknown) => T): T => (value instanceof PreparedValue ? (value.value() as T) : check(value));

const gridDataSchema = z.object({
  cols: z.record(
    z.string().min(1).max(MAX_COLUMN_NAME_CHARS),
    z.object({
      data: z.unknown(),
      order: z.number().int().min(0).max(1_000_000).optional(),
    }),
  ),
  metadata: metadataSchema.optional(),
});
export type GridData = z.output<typeof gridDataSchema>;

/** A create's `data`, checked: the object, or a string holding it (the Python client), with repeated
 * column names kept. The columns' values are not made here (columnValues). */
export function gridData(data: unknown): GridData {
  return prepared(data, (value) => {
    const parsed = typeof value === 'string' ? parseJsonText(renameRepeatedKeys(value, ['cols']), 'data') : value;
    const out = parseWith(gridDataSchema, parsed, 'data');
    if (Object.keys(out.cols).length > MAX_COLUMNS) throw invalid('data.cols', `at most ${MAX_COLUMNS} columns a grid`);
    return out;
  });
}

/** A column verb's `cols`, checked: a JSON array of {name, data}, or a string holding one (what both
 * official clients send). */
export function colItems(cols: unknown, nameRequired: boolean): { name?: string; data: unknown }[] {
  return prepared(cols, (value) => {
    const item = z.object({
      name: nameRequired ? columnNameSchema : columnNameSchema.optional(),
      data: z.unknown().refine((v) => v !== undefined, 'This field is required.'),
    });
    return parseWith(
      z
        .array(item, { error: 'expected an array of {"name", "data"} (or a string holding one)' })
        .min(1, 'expected at least one column')
        .max(MAX_COLUMNS, `at most ${MAX_COLUMNS} columns a grid`),
      typeof value === 'string' ? parseJsonText(value, 'cols') : value,
      'cols',
    );
  });
}

/**
 * Appended rows, turned into what the append needs (the rows themselves are not kept): each column's
 * new values as json text without brackets, with its first values; and what the checks need, in the
 * order they run (row widths against the grid's column count, then non-finite numbers).
 */
export interface RowColumns {
  count: number;
  /** The first row's width, and the first row of another width (-1: none) with that width. */
  width: number;
  other: number;
  otherWidth: number;
  /** The first row holding a non-finite value, and the value's index in it. */
  overflow: { row: number; index: number } | null;
  /** The first row holding a text value over MAX_CELL_BYTES, and the value's index in it. */
  oversized: { row: number; index: number } | null;
  /** One per column (values as json text without brackets, its size in bytes, first values); empty
   * when a check above refuses the rows whatever the grid (no grid has more than MAX_COLUMNS columns). */
  columns: { text: string; bytes: number; head: unknown[] }[];
}

function rowColumns(rows: unknown[][]): RowColumns {
  const width = rows[0].length;
  const other = rows.findIndex((row) => row.length !== width);
  const row = rows.findIndex((r) => nonFinite(r) >= 0);
  const overflow = row >= 0 ? { row, index: nonFinite(rows[row]) } : null;
  const long = rows.findIndex((r) => oversizedCell(r) >= 0);
  const oversized = long >= 0 ? { row: long, index: oversizedCell(rows[long]) } : null;
  const columns =
    other >= 0 || overflow || oversized || width > MAX_COLUMNS
      ? []
      : Array.from({ length: width }, (_, k) => {
          const values = rows.map((r) => r[k]);
          const text = JSON.stringify(values).slice(1, -1);
          return { text, bytes: Buffer.byteLength(text), head: values.slice(0, PREVIEW_VALUES) };
        });
  return { count: rows.length, width, other, otherWidth: other >= 0 ? rows[other].length : width, overflow, oversized, columns };
}

/** The row a grid of `columns` columns refuses for its width (and that width), or null. */
export function misfitRow(rows: RowColumns, columns: number): { row: number; width: number } | null {
  if (rows.width !== columns) return { row: 0, width: rows.width };
  return rows.other >= 0 ? { row: rows.other, width: rows.otherWidth } : null;
}

/** Body of POST /v2/grids/{fid}/row. */
export const rowsBodySchema = z.object({
  rows: z
    .array(z.array(z.unknown()), { error: 'expected an array of rows, each an array of values' })
    .min(1, 'expected at least one row')
    .max(MAX_COLUMN_VALUES, `at most ${MAX_COLUMN_VALUES} values a column`)
    .meta({ description: 'rows to append, each one value per column in column order' })
    .transform(rowColumns),
});

/** Body of POST /v2/grids/{fid}/edits (the grid editor's save). */
export const editsBodySchema = z.object({
  base: z
    .string({ error: 'This field is required.' })
    .max(100)
    .meta({ description: "the grid's `edit_base` when the edits began: the save is refused (409) if the grid changed since" }),
  cols: z
    .unknown()
    .refine((v) => v !== undefined, 'This field is required.')
    .meta({
      description:
        'the grid\'s columns after the edits, in their new order: {"uid", "name"?, "data"?} keeps a column (renamed, its data replaced when given), {"name", "data"} adds one; columns left out are deleted',
    }),
});

/** One column after an edit: an existing one (`uid`) or a new one (`name` and `data`). */
export type EditItem = { uid: string; name?: string; data?: unknown } | { uid?: undefined; name: string; data: unknown };

/** An edit's `cols`, checked: at most MAX_COLUMNS columns, each kept (`uid`) or new (`name` and `data`). */
export function editItems(cols: unknown): EditItem[] {
  return prepared(cols, (value) => {
    const item = z.union(
      [
        z.object({ uid: z.string().min(1).max(100), name: columnNameSchema.optional(), data: z.unknown().optional() }),
        z.object({ name: columnNameSchema, data: z.unknown().refine((v) => v !== undefined, 'This field is required.') }),
      ],
      { error: 'expected {"uid", "name"?, "data"?} for a kept column or {"name", "data"} for a new one' },
    );
    return parseWith(
      z.array(item, { error: 'expected an array of columns' }).max(MAX_COLUMNS, `at most ${MAX_COLUMNS} columns a grid`),
      typeof value === 'string' ? parseJsonText(value, 'cols') : value,
      'cols',
    ) as EditItem[];
  });
}

type Problem = { field: string; message: string };

/** Every column's values, or one 400 naming each column at fault. */
export function valuesOf(cols: { data: unknown; field: string }[]): ColumnValues[] {
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

export const quoted = (s: string) => `'${s.length > 50 ? `${s.slice(0, 50)}…` : s}'`;

/** 400 naming the first of `changes` whose name another column of the grid has (or will have). */
export function checkNames(current: Map<number, string>, changes: { key: number; name: string; field: string }[]): void {
  const names = new Map(current);
  for (const c of changes) names.set(c.key, c.name);
  const count = new Map<string, number>();
  for (const name of names.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const clash = changes.find((c) => count.get(c.name)! > 1);
  if (clash) throw invalid(clash.field, `a column named ${quoted(clash.name)} already exists in this grid (names are unique within a grid)`);
}
