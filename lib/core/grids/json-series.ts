// A column's values as a SeriesSource read from its stored JSON text: parsed once into a
// Float64Array and kept in a bounded per-process cache keyed by the column_values id (those rows are
// never changed once written, so an entry never goes stale). The source for columns stored without
// blocks (series-of.ts); its every read after the first is an index into memory.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { BoundedCache } from '../bounded-cache';
import { MiB } from '../json-text';
import { seriesOf } from '@/lib/shared/series-blocks';
import type { SeriesExtremes, SeriesSource } from './series-source';

/** Parsed columns kept per process: by count and by their numbers' bytes (8 a row). */
const PARSED = new BoundedCache<ArraySeries>({ entries: 64, bytes: 256 * MiB }, (s) => s.values.byteLength);

/** The column_values row `valuesId` as a series, parsed from its JSON text once; null when it is gone. */
export async function jsonSeries(db: Db, valuesId: number): Promise<SeriesSource | null> {
  const key = String(valuesId);
  const kept = PARSED.get(key);
  if (kept) return kept;
  const [row] = await queryRows<{ data: string }>(db, sql`SELECT data::text AS data FROM column_values WHERE id = ${valuesId}`);
  if (!row) return null;
  return PARSED.getOr(key, () => arraySeries(JSON.parse(row.data) as unknown[]));
}

/** Values as a series, by the one number rule (seriesOf: the blocks' too); a column of words is all blanks. */
export function arraySeries(values: unknown[]): ArraySeries {
  const series = seriesOf(values);
  return new ArraySeries(series?.numbers ?? new Float64Array(values.length).fill(Number.NaN), series?.kind ?? 'number');
}

class ArraySeries implements SeriesSource {
  readonly length: number;
  readonly sorted: boolean;

  constructor(
    readonly values: Float64Array,
    readonly kind: 'number' | 'date',
  ) {
    this.length = values.length;
    let last = Number.NEGATIVE_INFINITY;
    let sorted = true;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      if (v < last) {
        sorted = false;
        break;
      }
      last = v;
    }
    this.sorted = sorted;
  }

  async rowAtOrAfter(value: number): Promise<number> {
    // Binary search over the rows, a blank taking its next given neighbour's place.
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      let at = mid;
      while (at < hi && Number.isNaN(this.values[at])) at++;
      if (at < hi && this.values[at] < value) lo = at + 1;
      else hi = mid;
    }
    return lo;
  }

  async rows(from: number, to: number): Promise<Float64Array> {
    return this.values.slice(from, to);
  }

  async at(rows: ArrayLike<number>): Promise<Float64Array> {
    return Float64Array.from({ length: rows.length }, (_, i) => this.values[rows[i]]);
  }

  async extremes(from: number, to: number, stretches: number): Promise<SeriesExtremes> {
    const count = Math.max(1, Math.min(stretches, to - from));
    const out = {
      bounds: new Float64Array(count + 1),
      minRow: new Float64Array(count),
      min: new Float64Array(count),
      maxRow: new Float64Array(count),
      max: new Float64Array(count),
    };
    for (let s = 0; s <= count; s++) out.bounds[s] = from + Math.floor((s * (to - from)) / count);
    for (let s = 0; s < count; s++) {
      let lo = -1;
      let hi = -1;
      for (let i = out.bounds[s]; i < out.bounds[s + 1]; i++) {
        const v = this.values[i];
        if (Number.isNaN(v)) continue;
        if (lo < 0 || v < this.values[lo]) lo = i;
        if (hi < 0 || v > this.values[hi]) hi = i;
      }
      out.minRow[s] = lo < 0 ? Number.NaN : lo;
      out.min[s] = lo < 0 ? Number.NaN : this.values[lo];
      out.maxRow[s] = hi < 0 ? Number.NaN : hi;
      out.max[s] = hi < 0 ? Number.NaN : this.values[hi];
    }
    return out;
  }
}
