// The figure's data steps (plotly.js 2's transforms) as plotly 4 is handed them: aggregate, filter and
// sort over every data array of a trace, in order, the grid's arrays untouched.
import { describe, expect, it } from 'vitest';
import { applyTransforms, figureTransforms } from '@/lib/shared/figures/apply-transforms';

type Trace = Record<string, unknown>;
const one = (trace: Trace): Trace => applyTransforms({ data: [trace] }).data[0];
const agg = (func: string, target = 'y', extra: Trace = {}) => ({ type: 'aggregate', groups: 'x', aggregations: [{ target, func, enabled: true }], ...extra });

const CITIES = { type: 'bar', x: ['Oslo', 'Rome', 'Oslo', 'Lima', 'Rome', 'Oslo'], y: [1, 10, 2, 100, '20', 'n/a'], text: ['a', 'b', 'c', 'd', 'e', 'f'] };

describe('aggregate', () => {
  it.each([
    ['sum', [3, 30, 100]],
    ['count', [3, 2, 1]],
    ['avg', [1.5, 15, 100]],
    ['median', [1.5, 15, 100]],
    ['min', [1, 10, 100]],
    ['max', [2, 20, 100]],
    ['first', [1, 10, 100]],
    ['last', ['n/a', '20', 100]],
  ])('%s: one point a group, in order of first appearance; other arrays keep their first value', (func, y) => {
    const out = one({ ...CITIES, transforms: [agg(func)] });
    expect(out).toEqual({ type: 'bar', x: ['Oslo', 'Rome', 'Lima'], y, text: ['a', 'b', 'd'] });
  });

  it('groups by x when unset, by any attribute named, or by an array of its own (a groupssrc inlined)', () => {
    expect(one({ ...CITIES, transforms: [{ type: 'aggregate', aggregations: [{ target: 'y', func: 'sum' }] }] }).y).toEqual([3, 30, 100]);
    const byText = one({
      x: [1, 2, 3],
      y: [1, 2, 3],
      text: ['a', 'b', 'a'],
      transforms: [{ type: 'aggregate', groups: 'text', aggregations: [{ target: 'y', func: 'sum' }] }],
    });
    expect(byText).toEqual({ x: [1, 2], y: [4, 2], text: ['a', 'b'] });
    const byArray = one({
      x: [1, 2, 3],
      y: [5, 6, 7],
      transforms: [{ type: 'aggregate', groups: ['p', 'q', 'p'], aggregations: [{ target: 'y', func: 'max' }] }],
    });
    expect(byArray).toEqual({ x: [1, 2], y: [7, 6] });
  });

  it('count makes an array the trace lacks; a group of no numbers is a gap; dates stay dates', () => {
    expect(one({ x: ['a', 'b', 'a'], transforms: [agg('count')] })).toEqual({ x: ['a', 'b'], y: [2, 1] });
    expect(one({ x: ['a', 'b'], y: ['-', 3], transforms: [agg('avg')] }).y).toEqual([null, 3]);
    expect(one({ x: ['a', 'a', 'b'], y: ['2024-01-01', '2024-03-01 12:30', '2023-05-06'], transforms: [agg('max')] }).y).toEqual([
      '2024-03-01 12:30',
      '2023-05-06',
    ]);
  });

  it('nested arrays are aggregated too; settings arrays are not', () => {
    const out = one({
      x: ['a', 'b', 'a'],
      y: [1, 2, 3],
      marker: {
        color: ['red', 'blue', 'green'],
        colorscale: [
          [0, 'red'],
          [1, 'blue'],
        ],
      },
      transforms: [agg('sum')],
    });
    expect(out).toEqual({
      x: ['a', 'b'],
      y: [4, 2],
      marker: {
        color: ['red', 'blue'],
        colorscale: [
          [0, 'red'],
          [1, 'blue'],
        ],
      },
    });
  });
});

describe('filter', () => {
  const rows = { x: ['Oslo', 'Rome', 'Lima', 'Oslo'], y: [5, 50, 500, 5000], text: ['a', 'b', 'c', 'd'] };
  it.each([
    [{ operation: '{}', value: ['Oslo', 'Lima'] }, [5, 500, 5000]],
    [{ operation: '}{', value: ['Oslo'] }, [50, 500]],
    [{ operation: '=', value: 'Rome' }, [50]],
    [{ operation: '!=', value: 'Rome' }, [5, 500, 5000]],
    [{ target: 'y', operation: '[]', value: [50, 500] }, [50, 500]],
    [{ target: 'y', operation: '()', value: [50, 500] }, []],
    [{ target: 'y', operation: '>=', value: '500' }, [500, 5000]],
    [{ target: 'y', operation: '<', value: 50 }, [5]],
    [{ target: 'y', operation: ')(', value: [6, 4999] }, [5, 5000]],
    [{ target: [1, 2, 3, 4], operation: '>', value: 2 }, [500, 5000]],
  ])('%j keeps %j', (step, y) => {
    const out = one({ ...rows, transforms: [{ type: 'filter', ...step }] });
    expect(out.y).toEqual(y);
    expect((out.x as unknown[]).length).toBe(y.length);
    expect((out.text as unknown[]).length).toBe(y.length);
  });

  it('compares dates in time, and keeps gaps when asked', () => {
    const dated = { x: ['2024-01-31', '2024-02-01 08:00', '2024-03-01'], y: [1, 2, 3] };
    expect(one({ ...dated, transforms: [{ type: 'filter', operation: '[]', value: ['2024-02-01', '2024-02-29'] }] }).y).toEqual([2]);
    expect(one({ ...dated, transforms: [{ type: 'filter', operation: '>=', value: '2024-02-01', preservegaps: true }] }).y).toEqual([null, 2, 3]);
  });
});

describe('sort, and steps in order', () => {
  it('sorts every array by its target, values that are no number last, stable', () => {
    const out = one({ x: ['a', 'b', 'c', 'd', 'e'], y: [3, 'x', 1, 3, 2], transforms: [{ type: 'sort', target: 'y', order: 'descending' }] });
    expect(out).toEqual({ x: ['a', 'd', 'e', 'c', 'b'], y: [3, 3, 2, 1, 'x'] });
    expect(one({ x: [3, 1, 2], y: [30, 10, 20], transforms: [{ type: 'sort' }] })).toEqual({ x: [1, 2, 3], y: [10, 20, 30] });
  });

  it('applies filter, aggregate and sort in their order: the sort sees the sums', () => {
    const out = one({
      ...CITIES,
      transforms: [{ type: 'filter', operation: '}{', value: ['Lima'] }, agg('sum'), { type: 'sort', target: 'y', order: 'descending' }],
    });
    expect(out).toEqual({ type: 'bar', x: ['Rome', 'Oslo'], y: [30, 3], text: ['b', 'a'] });
  });

  it('leaves figures without transforms as they are, skips disabled and unknown steps, and never writes to its input', () => {
    const plain = { data: [{ x: [1], y: [2] }], layout: {} };
    expect(applyTransforms(plain)).toBe(plain);
    const trace = { x: ['a', 'a'], y: [1, 2], transforms: [{ ...agg('sum'), enabled: false }, { type: 'groupby', groups: ['p', 'q'] }, 'junk'] };
    const copy = structuredClone(trace);
    expect(one(trace)).toEqual({ x: ['a', 'a'], y: [1, 2] });
    expect(one({ ...trace, transforms: [agg('sum')] })).toEqual({ x: ['a'], y: [3] });
    expect(trace).toEqual(copy);
    // A target naming nothing, an unknown operation or function: that step does nothing.
    expect(one({ x: [1, 2], y: [3, 4], transforms: [{ type: 'filter', target: 'z' }, { type: 'filter', operation: '~' }, agg('nope')] })).toEqual({
      x: [1, 2],
      y: [3, 4],
    });
  });

  it('runs as the text the renderer injects, and in linear time on many rows', () => {
    const injected = new Function(`return (${figureTransforms.toString()})({ transforms: 10 }).applyTransforms`)() as typeof applyTransforms;
    expect(injected({ data: [{ ...CITIES, transforms: [agg('sum')] }] }).data[0].y).toEqual([3, 30, 100]);
    const n = 200_000;
    const big = { x: Array.from({ length: n }, (_, i) => `city ${i % 1000}`), y: Array.from({ length: n }, (_, i) => i % 7) };
    const started = performance.now();
    const out = one({ ...big, transforms: [{ type: 'filter', target: 'y', operation: '>=', value: 1 }, agg('median'), { type: 'sort', target: 'y' }] });
    expect((out.x as unknown[]).length).toBe(1000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
