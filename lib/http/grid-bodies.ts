// Grid bodies (up to 50 MiB): how each kind is parsed, and what a body worker thread does with a large
// one (lib/http/body-workers.ts), so the event loop never parses or stringifies its values: the body
// parsed, its JSON string field (`data` or `cols`) parsed, and every column's values made with the
// same columnValues the request path uses. The worker answers the body with each column's `data` (and
// each parsed string) replaced by a marker holding the outcome; `revive` turns those into the
// PreparedColumn / PreparedText the grid rules read, so every answer, 400s included, is unchanged.
import { colsValue, columnValues, gridDataValue, PreparedColumn, PreparedText, rowsBodySchema, type ColumnProblem, type ColumnValues } from '@/lib/core/column-values';
import { ApiError } from '@/lib/core/errors';
import { parseJsonText, parseWith, renameRepeatedKeys } from '@/lib/core/json-text';
import { decodeUtf8 } from './body';

export type GridBody = 'grid' | 'cols' | 'rows';

/** Each kind's body text to a value, before validation. */
export const parseGridBody: Record<GridBody, (text: string) => unknown> = {
  // The R client names each column after its trace attribute, so names repeat: keep every column.
  grid: (text) => parseJsonText(renameRepeatedKeys(text, ['data', 'cols'])),
  cols: (text) => parseJsonText(text),
  rows: (text) => parseJsonText(text),
};

// A marker is an object whose one key holds a NUL, which no parsed body can (parseJsonText refuses \u0000).
const COLUMN = '\u0000column';
const TEXT = '\u0000text';

type ErrorData = Pick<ApiError, 'status' | 'errors' | 'headers'>;
type TextOutcome = { value: unknown } | { error: ErrorData };

/** A worker's answer: the body to validate as usual (markers in it); or, for rows, whose schema is
 * pure, the body validated there with it; or the error to answer with. */
export type Prepared = { body: unknown; validated: boolean } | { error: ErrorData };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** In the worker: a large body of `kind`, prepared. */
export function prepareGridBody(kind: GridBody, bytes: Uint8Array): Prepared {
  try {
    const body = parseGridBody[kind](decodeUtf8(bytes));
    if (kind === 'rows') return { body: parseWith(rowsBodySchema, body), validated: true };
    if (kind === 'grid' && isObject(body) && Object.hasOwn(body, 'data')) {
      body.data = prepareText(body.data, gridDataValue, (data) => {
        if (isObject(data) && isObject(data.cols)) for (const col of Object.values(data.cols)) prepareColumn(col);
      });
    }
    if (kind === 'cols' && isObject(body) && Object.hasOwn(body, 'cols')) {
      body.cols = prepareText(body.cols, colsValue, (items) => {
        if (Array.isArray(items)) for (const item of items) prepareColumn(item);
      });
    }
    return { body, validated: false };
  } catch (error) {
    if (error instanceof ApiError) return { error: errorData(error) };
    throw error;
  }
}

const errorData = ({ status, errors, headers }: ApiError): ErrorData => ({ status, errors, headers });

/** A field the grid rules read with `read` (which parses it when it is a string): when it was a string,
 * a marker holding what parsing it gave, thrown or not; the value's columns prepared either way. */
function prepareText(field: unknown, read: (v: unknown) => unknown, prepareColumns: (value: unknown) => void): unknown {
  if (typeof field !== 'string') {
    prepareColumns(field);
    return field;
  }
  let outcome: TextOutcome;
  try {
    const value = read(field);
    prepareColumns(value);
    outcome = { value };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    outcome = { error: errorData(error) };
  }
  return { [TEXT]: outcome };
}

/** A column item's `data` replaced by a marker holding its values (or why not). */
function prepareColumn(col: unknown): void {
  if (isObject(col) && Object.hasOwn(col, 'data')) col.data = { [COLUMN]: columnValues(col.data) };
}

/** On the event loop: the worker's body with its markers turned into what the grid rules read (in place). */
export function revive(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
    return value;
  }
  if (!isObject(value)) return value;
  if (Object.hasOwn(value, COLUMN)) return new PreparedColumn(value[COLUMN] as ColumnValues | ColumnProblem);
  if (Object.hasOwn(value, TEXT)) {
    const outcome = value[TEXT] as TextOutcome;
    return new PreparedText('error' in outcome ? { error: apiError(outcome.error) } : { value: revive(outcome.value) });
  }
  for (const key of Object.keys(value)) value[key] = revive(value[key]);
  return value;
}

/** The error a worker reported, as thrown on the event loop. */
export const apiError = (e: ErrorData) => new ApiError(e.status, e.errors, e.headers);
