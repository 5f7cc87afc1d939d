// A long numeric column as the view reducer reads it (issue "charts of any size"): the page asks for
// one view of a trace at a time, so the reducer reads a row range or a summary of it, never the whole
// column. Two sources answer it: the column's stored blocks (column-blocks.ts, for long columns), and
// its JSON text parsed once and kept in a bounded cache (for columns stored without blocks).

/** Per stretch of rows: the row and value of its lowest and highest value (blanks skipped; NaN when all blank). */
export interface SeriesExtremes {
  /** First row of each stretch, and one past the last stretch's end (length = stretches + 1). */
  bounds: Float64Array;
  minRow: Float64Array;
  min: Float64Array;
  maxRow: Float64Array;
  max: Float64Array;
}

/** One numeric or date column: numbers as they are, dates as epoch milliseconds (UTC), blanks and text as NaN. */
export interface SeriesSource {
  /** Rows in the column. */
  readonly length: number;
  readonly kind: 'number' | 'date';
  /** True when its values never decrease (blanks aside): a range of values is then a range of rows. */
  readonly sorted: boolean;
  /** The first row whose value is >= `value` (length when none); sorted sources only. */
  rowAtOrAfter(value: number): Promise<number>;
  /** Rows [from, to) as numbers; callers keep to - from at most SERIES_ROW_READ. */
  rows(from: number, to: number): Promise<Float64Array>;
  /** The values at these rows (ascending, at most SERIES_ROW_READ); optional: without it, a reader takes rows(r, r + 1) of each. */
  at?(rows: ArrayLike<number>): Promise<Float64Array>;
  /**
   * Rows [from, to) cut into about `stretches` stretches of equal rows, each with its extremes; a
   * source may round the bounds to the granularity it stores (the bounds say where they fell).
   */
  extremes(from: number, to: number, stretches: number): Promise<SeriesExtremes>;
}

/** Most rows one read of `rows` returns: a view holding more is drawn from `extremes`. */
export const SERIES_ROW_READ = 100_000;
