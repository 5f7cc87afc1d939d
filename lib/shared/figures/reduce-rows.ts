// A long trace drawn from a reduced copy: its rows cut into stretches, each keeping the rows of its
// lowest and highest value (min/max decimation, the first step of plotly-resampler's MinMaxLTTB), so
// the drawn line keeps every peak and dip a person would see at this size, in a few thousand points
// however many rows there are. Pure, so the editor's preview and later the server share it.

/** Points a reduced trace keeps at most (two per stretch): about one stretch per pixel column of a chart
 * up to 1,000 px wide (plotly-resampler draws 1,000 points a trace by default). */
export const REDUCED_POINTS = 2_000;

/** Trace types whose rows draw one point each, in order, so a reduced copy looks the same; others
 * (histograms, boxes: they summarise every row) are never reduced. */
export const REDUCIBLE_TYPES: ReadonlySet<string> = new Set(['scatter', 'scattergl']);

type Numbers = ArrayLike<unknown>;

/**
 * The rows to keep of `length` rows, ascending: all of them when few enough, else per stretch the
 * rows of the lowest and highest number of `values` (a stretch without numbers keeps its first row).
 */
export function minMaxRows(values: Numbers | null, length: number, points = REDUCED_POINTS): Uint32Array {
  if (length <= points) return Uint32Array.from({ length }, (_, i) => i);
  const stretches = Math.max(1, Math.floor(points / 2));
  const out: number[] = [];
  for (let s = 0; s < stretches; s++) {
    const start = Math.floor((s * length) / stretches);
    const end = Math.floor(((s + 1) * length) / stretches);
    let lo = -1;
    let hi = -1;
    if (values) {
      for (let i = start; i < end; i++) {
        const v = values[i];
        if (typeof v !== 'number' || Number.isNaN(v)) continue;
        if (lo < 0 || v < (values[lo] as number)) lo = i;
        if (hi < 0 || v > (values[hi] as number)) hi = i;
      }
    }
    if (lo < 0) out.push(start);
    else if (lo === hi) out.push(lo);
    else out.push(Math.min(lo, hi), Math.max(lo, hi));
  }
  return Uint32Array.from(out);
}

/** `values` at `rows`, as a plain array (what plotly and the figure's other readers take). */
export function pickRows(values: Numbers, rows: Uint32Array): unknown[] {
  const out = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = values[rows[i]];
  return out;
}
