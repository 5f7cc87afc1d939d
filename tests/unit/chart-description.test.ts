// A chart's text alternative (lib/shared/figures/chart-description.ts) and its data table (lib/shared/figures/chart-table.ts):
// a table of figures to the words they give, every plotly mock described in sentences that never
// show "undefined" or "[object Object]", and both bounded whatever the figure holds.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeChart, MAX_DESCRIPTION_CHARS, MAX_VALUES_READ } from '@/lib/shared/figures/chart-description';
import { CELL_CHARS, chartTable, TABLE_COLUMNS, TABLE_ROWS } from '@/lib/shared/figures/chart-table';
import { mergeMapData } from '@/lib/shared/figures/map-data';

const words = { title: 'Sales', caption: '' };

describe('describeChart', () => {
  it.each([
    [
      'a line chart',
      { data: [{ type: 'scatter', mode: 'lines', x: [1, 2, 3], y: [4, 5, 6] }] },
      ['Line chart: Sales.', 'X axis: from 1 to 3.', 'Series "trace 0": 3 points, y from 4 to 6.'],
    ],
    ['an untyped trace (plotly draws a line)', { data: [{ y: [2, 1] }] }, ['Line chart: Sales.', '"trace 0": 2 points, y from 1 to 2']],
    ['a scatter plot', { data: [{ type: 'scatter', mode: 'markers', x: [1], y: [7] }] }, ['Scatter plot: Sales.', 'y all 7']],
    [
      'bars of data steps: what they made of the rows, and how',
      {
        data: [
          {
            type: 'bar',
            x: ['a', 'b', 'a'],
            y: [1, 2, 3],
            transforms: [
              { type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'sum', enabled: true }] },
              { type: 'sort', target: 'y', order: 'descending' },
            ],
          },
        ],
      },
      ['"trace 0": 2 points, y from 2 to 4 (y summed for each x, sorted).'],
    ],
    [
      'bars with three series and axis titles',
      {
        data: ['a', 'b', 'c'].map((name, i) => ({ type: 'bar', name, x: ['Jan', 'Feb', 'Mar', 'Apr'], y: [i, 10, 20, 30] })),
        layout: { xaxis: { title: { text: 'Month' } }, yaxis: { title: 'Revenue <b>($)</b>' } },
      },
      [
        'Bar chart with 3 series: Sales.',
        'X axis "Month": 4 categories: Jan, Feb, Mar and 1 more.',
        'Y axis "Revenue ($)": from 0 to 30.',
        '"a": 4 points, y from 0 to 30',
      ],
    ],
    [
      'horizontal bars',
      { data: [{ type: 'bar', orientation: 'h', x: [3, 1], y: ['p', 'q'] }] },
      ['Horizontal bar chart: Sales.', 'Y axis: 2 categories: p and q.'],
    ],
    ['a pie', { data: [{ type: 'pie', labels: ['x', 'y', 'z'], values: [1, 2, 40] }] }, ['Pie chart: Sales.', '"trace 0": 3 slices, values from 1 to 40.']],
    [
      'a heatmap',
      {
        data: [
          {
            type: 'heatmap',
            z: [
              [1, 2],
              [3, 9],
            ],
          },
        ],
      },
      ['Heatmap: Sales.', '2 rows, z from 1 to 9'],
    ],
    ['dates on x', { data: [{ x: ['2024-03-01', '2024-01-01', '2024-02-01'], y: [1, 2, 3] }] }, ['X axis: from 2024-01-01 to 2024-03-01.']],
    ['numbers written as text', { data: [{ x: ['1', '10', '5'], y: [1, 2, 3] }] }, ['X axis: from 1 to 10.']],
    [
      'mixed kinds',
      {
        data: [
          { type: 'bar', y: [1] },
          { type: 'scatter', mode: 'lines', y: [2] },
          { type: 'scatter', mode: 'lines', y: [3] },
        ],
      },
      ['Chart combining bar chart and line chart (2 series): Sales.'],
    ],
    ['a caption', { data: [{ y: [1] }] }, ['Line chart: Sales. Sold per month.'], { caption: 'Sold per month' }],
    ['no title', { data: [{ type: 'bar', y: [1] }] }, ['Bar chart.'], { title: '' }],
    ['no traces', { data: [] }, ['Empty chart: Sales.']],
    ['a trace without data', { data: [{ type: 'scatter' }] }, ['"trace 0": no data.']],
    [
      'data not read',
      { data: [{ type: 'scatter', xsrc: 'a:1:b', ysrc: 'a:1:c' }] },
      ['data not summarised', 'Its data is too large to summarise here.'],
      { dataOmitted: true },
    ],
    ['a named trace with HTML', { data: [{ name: '<i>North</i> region', y: [5, 6] }] }, ['"North region": 2 points']],
    ['an unknown type', { data: [{ type: 'sparkle', y: [1] }] }, ['Sparkle chart: Sales.']],
    ['an odd type', { data: [{ type: '<script>', y: [1] }] }, ['Chart: Sales.']],
    [
      'many traces',
      { data: Array.from({ length: 9 }, (_, i) => ({ name: `t${i}`, y: [i] })) },
      ['Line chart with 9 series: Sales.', '"t3": 1 point, y all 3; and 5 more.'],
    ],
    ['3D', { data: [{ type: 'scatter3d', x: [1], y: [2], z: [3] }] }, ['3D scatter plot: Sales.', 'z all 3']],
    ['a map', { data: [{ type: 'scattergeo', lat: [1, 2], lon: [3, 4] }] }, ['Map: Sales.', '2 points, lat from 1 to 2']],
  ] as [string, unknown, string[], Partial<typeof words>?][])('%s', (_name, figure, expected, extra) => {
    const text = describeChart(figure, { ...words, ...extra });
    for (const part of expected) expect(text).toContain(part);
  });

  const mocks = readdirSync('fixtures/plotly-mocks').filter((f) => f.endsWith('.json'));
  it.each(mocks)('describes the mock %s in sentences', (file) => {
    const figure = JSON.parse(readFileSync(`fixtures/plotly-mocks/${file}`, 'utf8'));
    const text = describeChart(figure, { title: file, caption: '' });
    expect(text).not.toMatch(/undefined|\[object Object\]|NaN|null/);
    expect(text.length).toBeGreaterThan(10);
    expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(text).toMatch(/^[A-Z0-9]/);
  });

  it('stays short and quick whatever the figure holds: it reads a bounded number of values', () => {
    // Quick by count, not by clock: every value read from the big arrays is counted.
    let reads = 0;
    const counted = (values: number[]) =>
      new Proxy(values, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver);
        },
      });
    const big = Array.from({ length: 400_000 }, (_, i) => i);
    const figure = {
      data: [{ name: 'n'.repeat(10_000), x: counted(big), y: counted(big) }, ...Array.from({ length: 5000 }, (_, i) => ({ name: `t${i}`, y: [i] }))],
      layout: { xaxis: { title: 'x'.repeat(10_000) } },
    };
    const text = describeChart(figure, { title: 'T'.repeat(10_000), caption: 'C'.repeat(10_000) });
    expect(reads, 'values read of 800,000').toBeLessThanOrEqual(4 * MAX_VALUES_READ);
    expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(text).toContain('400,000 points');
    expect(text).toContain(`Ranges are of its first ${MAX_VALUES_READ.toLocaleString('en')} values.`);
  });

  it('counts categories without reading them all twice', () => {
    const text = describeChart({ data: [{ type: 'bar', x: Array.from({ length: 50 }, (_, i) => `c${i}`), y: Array(50).fill(1) }] }, words);
    expect(text).toContain('50 categories: c0, c1, c2 and 47 more');
  });
});

describe('chartTable', () => {
  const figure = {
    data: [
      { name: 'North', x: ['a', 'b', 'c'], y: [1, 2, 3], text: ['one', 'two', 'three'] },
      { type: 'pie', labels: ['p', 'q'], values: [5, 6] },
      {
        type: 'heatmap',
        z: [
          [1, 2],
          [3, 4],
        ],
      },
      { type: 'scatter', xsrc: 'a:1:b' },
    ],
  };

  it('has one column per trace field, headed by the trace name', () => {
    const table = chartTable(figure, 1);
    expect(table.columns).toEqual([
      { trace: 'North', field: 'x' },
      { trace: 'North', field: 'y' },
      { trace: 'North', field: 'text' },
      { trace: 'trace 1', field: 'labels' },
      { trace: 'trace 1', field: 'values' },
      { trace: 'trace 2', field: 'z' },
    ]);
    expect(table.rowCount).toBe(3);
    expect(table.rows).toEqual([
      ['a', '1', 'one', 'p', '5', '1, 2'],
      ['b', '2', 'two', 'q', '6', '3, 4'],
      ['c', '3', 'three', '', '', ''],
    ]);
    expect({ page: table.page, pageCount: table.pageCount, firstRow: table.firstRow }).toEqual({ page: 1, pageCount: 1, firstRow: 1 });
  });

  it('pages rows, and a page past the last shows the last', () => {
    const y = Array.from({ length: TABLE_ROWS * 2 + 5 }, (_, i) => i);
    const second = chartTable({ data: [{ y }] }, 2);
    expect(second.rows.map((r) => r[0])).toEqual(y.slice(TABLE_ROWS, TABLE_ROWS * 2).map(String));
    expect({ page: second.page, pageCount: second.pageCount, firstRow: second.firstRow }).toEqual({ page: 2, pageCount: 3, firstRow: TABLE_ROWS + 1 });
    const past = chartTable({ data: [{ y }] }, 99);
    expect(past.page).toBe(3);
    expect(past.rows).toHaveLength(5);
    expect(chartTable({ data: [{ y }] }, Number.NaN).page).toBe(1);
  });

  it('caps columns and cells, so a page is bounded whatever the figure', () => {
    const long = 'x'.repeat(100_000);
    const wide = { data: Array.from({ length: 30 }, () => ({ x: [long, [long, long], { a: long }], y: [[Array(10_000).fill(1)]] })) };
    const table = chartTable(wide, 1);
    expect(table.columns).toHaveLength(TABLE_COLUMNS);
    expect(table.columnCount).toBe(60);
    for (const row of table.rows) for (const cell of row) expect(cell.length).toBeLessThanOrEqual(CELL_CHARS);
    expect(JSON.stringify(table.rows).length).toBeLessThan(TABLE_ROWS * TABLE_COLUMNS * (CELL_CHARS + 8));
  });

  it('is empty for a figure without data', () => {
    expect(chartTable({ data: 'nope' }, 1)).toMatchObject({ columns: [], rowCount: 0, page: 1, pageCount: 1, rows: [] });
  });
});

describe('mergeMapData', () => {
  it('moves map_data into the srcs that name it, frames too, never through the prototype', () => {
    const body = {
      data: [{ xsrc: 'a:1:x', ysrc: 'constructor' }],
      frames: [{ data: [{ ysrc: 'a:1:x' }] }],
      map_data: { 'a:1:x': [1, 2] },
    };
    expect(mergeMapData(body)).toEqual({ data: [{ x: [1, 2], ysrc: 'constructor' }], frames: [{ data: [{ y: [1, 2] }] }] });
  });
});
