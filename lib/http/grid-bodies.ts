// Grid bodies (up to GRID_COLUMNS_BODY_LIMIT): each kind's schema and parse rule, and what a body worker thread does with
// a large one (lib/http/body-workers.ts), so the event loop never parses, checks or stringifies its
// values: the body parsed and checked with the endpoint's schema, its `data` or `cols` checked
// (gridData, colItems: parsed first when a string), and every column's values made (columnValues), all
// with the functions the request path uses. The checked body comes back small: each column's `data` is
// a marker holding its values (or why not), and the checked `data` or `cols` a marker holding it or the
// error checking it raised; `revive` turns those into the PreparedColumn and PreparedValue the grid rules
// read, which answer as they would have, 400s included and in the same order.
import type { z } from 'zod';
import { columnValues, PreparedColumn, type ColumnProblem, type ColumnValues } from '@/lib/shared/column-values';
import { ApiError } from '@/lib/core/errors';
import { colItems, colsBodySchema, createGridSchema, editItems, editsBodySchema, gridData, PreparedValue, rowsBodySchema } from '@/lib/core/grids/grid-input';
import { MiB, parseJsonText, parseWith, renameRepeatedKeys } from '@/lib/core/json-text';
import { decodeUtf8 } from './body';

export type GridBody = 'grid' | 'append-cols' | 'replace-cols' | 'rows' | 'edits';

/** Bodies of columns (a grid's create, columns appended or replaced): one column of 10,000,000 values
 * (numbers, or date strings even inside a `cols` string) a request, below V8's largest string (512 MiB). */
export const GRID_COLUMNS_BODY_LIMIT = 256 * MiB;
/** Other grid bodies (rows appended, the grid editor's edits: never 10,000,000 rows at a time). */
export const GRID_BODY_LIMIT = 50 * MiB;

/** Each kind's schema: the one its endpoint declares. */
export const GRID_BODY_SCHEMAS: Record<GridBody, z.ZodType> = {
  grid: createGridSchema,
  'append-cols': colsBodySchema,
  'replace-cols': colsBodySchema,
  rows: rowsBodySchema,
  edits: editsBodySchema,
};

/** A kind's body text to a value, before validation. */
export function parseGridBody(kind: GridBody, text: string): unknown {
  // The R client names each column after its trace attribute, so names repeat: keep every column.
  return kind === 'grid' ? parseJsonText(renameRepeatedKeys(text, ['data', 'cols'])) : parseJsonText(text);
}

// A marker is an object whose one key holds a NUL, which no parsed body can (parseJsonText refuses \u0000).
const COLUMN = '\u0000column';
const VALUE = '\u0000value';

type ErrorData = Pick<ApiError, 'status' | 'errors' | 'headers'>;
type ValueOutcome = { value: unknown } | { error: ErrorData };

/** A worker's answer: the body, checked (markers in it), or the error to answer with. */
export type Prepared = { body: unknown } | { error: ErrorData };

/** In the worker: a large body of `kind`, prepared. */
export function prepareGridBody(kind: GridBody, bytes: Uint8Array): Prepared {
  try {
    const body = parseWith(GRID_BODY_SCHEMAS[kind], parseGridBody(kind, decodeUtf8(bytes))) as Record<string, unknown>;
    if (kind === 'grid') {
      body.data = prepareValue(() => {
        const data = gridData(body.data);
        for (const col of Object.values(data.cols)) prepareColumn(col);
        return data;
      });
    } else if (kind === 'edits') {
      body.cols = prepareValue(() => {
        const items = editItems(body.cols);
        for (const item of items) if (item.data !== undefined) prepareColumn(item);
        return items;
      });
    } else if (kind !== 'rows') {
      body.cols = prepareValue(() => {
        const items = colItems(body.cols, kind === 'append-cols');
        for (const item of items) prepareColumn(item);
        return items;
      });
    }
    return { body };
  } catch (error) {
    if (error instanceof ApiError) return { error: errorData(error) };
    throw error;
  }
}

const errorData = ({ status, errors, headers }: ApiError): ErrorData => ({ status, errors, headers });

/** A marker holding what `check` gave, thrown or not. */
function prepareValue(check: () => unknown): unknown {
  try {
    return { [VALUE]: { value: check() } };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { [VALUE]: { error: errorData(error) } };
  }
}

/** A checked column item's `data` replaced by a marker holding its values (or why not). */
function prepareColumn(col: { data?: unknown }): void {
  col.data = { [COLUMN]: columnValues(col.data) };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** On the event loop: the worker's body with its markers turned into what the grid rules read (in place). */
export function revive(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
    return value;
  }
  if (!isObject(value)) return value;
  if (Object.hasOwn(value, COLUMN)) return new PreparedColumn(value[COLUMN] as ColumnValues | ColumnProblem);
  if (Object.hasOwn(value, VALUE)) {
    const outcome = value[VALUE] as ValueOutcome;
    return new PreparedValue('error' in outcome ? { error: apiError(outcome.error) } : { value: revive(outcome.value) });
  }
  for (const key of Object.keys(value)) value[key] = revive(value[key]);
  return value;
}

/** The error a worker reported, as thrown on the event loop. */
export const apiError = (e: ErrorData) => new ApiError(e.status, e.errors, e.headers);
