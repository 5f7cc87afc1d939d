// A long trace's reduced copy for drawing (lib/shared/figures/reduce-rows.ts).
import { describe, expect, it } from 'vitest';
import { minMaxRows, pickRows, REDUCED_POINTS } from '@/lib/shared/figures/reduce-rows';

describe('minMaxRows', () => {
  it('keeps every row of a short trace', () => {
    expect(Array.from(minMaxRows([3, 1, 2], 3))).toEqual([0, 1, 2]);
  });

  it('keeps each stretch’s lowest and highest row, in order, within the points asked for', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => Math.sin(i / 1000));
    values[123_456] = 50;
    values[765_432] = -50;
    const rows = minMaxRows(values, values.length);
    expect(rows.length).toBeLessThanOrEqual(REDUCED_POINTS);
    expect(rows.length).toBeGreaterThan(REDUCED_POINTS / 2);
    for (let i = 1; i < rows.length; i++) expect(rows[i]).toBeGreaterThan(rows[i - 1]);
    // The spikes a person would see are kept.
    expect(rows).toContain(123_456);
    expect(rows).toContain(765_432);
    const drawn = pickRows(values, rows) as number[];
    expect(Math.max(...drawn)).toBe(50);
    expect(Math.min(...drawn)).toBe(-50);
  });

  it('a stretch without numbers keeps its first row; without values, rows are evenly spaced', () => {
    const words = Array.from({ length: 10 }, () => 'x');
    expect(Array.from(minMaxRows(words, 10, 4))).toEqual([0, 5]);
    expect(Array.from(minMaxRows(null, 10, 4))).toEqual([0, 5]);
  });
});
