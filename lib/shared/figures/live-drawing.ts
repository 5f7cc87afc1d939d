// How much data a chart may draw live in the browser: the one rule for pages, cards and the chart
// editor's preview (browser-safe: no server imports).

/** How much grid data something references: values, and their stored bytes. */
export interface DataSize {
  values: number;
  bytes: number;
}

/** Charts of more data than this (values, or bytes of them) are drawn live on pages and cards only
 * when the visitor asks: the browser would fetch and parse all of it first. */
export const LIVE_MAX_VALUES = 200_000;
export const LIVE_MAX_BYTES = 4 * 1024 * 1024;
export const drawsLive = (size: DataSize): boolean => size.values <= LIVE_MAX_VALUES && size.bytes <= LIVE_MAX_BYTES;
