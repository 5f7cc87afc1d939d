// A trace's type, the one rule for every place that reads it (the plot cards, the chart's plotly.js
// bundle in the page and in the browser, the chart's 3D and map needs, the search terms): the `type`
// a trace names when that is a non-empty string, else plotly's default, scatter. The database has the same rule as SQL functions
// (trace_named_type, trace_type; their callers in lib/core/figure-sql.ts) for the statements and
// the search index that read it there; tests/lib/trace-types.test.ts holds the two to one table of cases. Pure: the browser uses
// it too.

/** The type of a trace that names none: plotly's default. */
export const DEFAULT_TRACE_TYPE = 'scatter';

/** The type a trace names: its `type` when a non-empty string, else null (a frame's untyped trace restyles one of `data`). */
export function namedTraceType(trace: unknown): string | null {
  const type = trace !== null && typeof trace === 'object' ? (trace as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type !== '' ? type : null;
}

/** The type plotly draws a trace as: the one it names, else scatter. */
export const traceType = (trace: unknown): string => namedTraceType(trace) ?? DEFAULT_TRACE_TYPE;
