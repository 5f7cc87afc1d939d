// "Bring your charts", read (lib/core/imports): the files Debian's python3-plotly writes
// (fixtures/bring/make-fixtures.py), Chart Studio's downloads with their grid, and hostile files.
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readFigureFiles, type FigureFile } from '@/lib/core/imports/figure-files';
import { htmlFigures } from '@/lib/core/imports/html-figures';

const file = (name: string, folder?: string): FigureFile => ({ name, bytes: readFileSync(`fixtures/bring/${name}`), ...(folder ? { folder } : {}) });

describe('readFigureFiles', () => {
  it('reads write_json, write_html (without plotly.js and from the CDN, frames kept) and a notebook’s two outputs', async () => {
    const batch = await readFigureFiles([file('fruit.json'), file('temperature.html'), file('growth.html'), file('two-charts.ipynb')]);
    expect(batch.refused).toEqual([]);
    expect(batch.figures.map((f) => [f.label, f.folder, f.name])).toEqual([
      ['fruit.json', 'fruit', 'Fruit counts'],
      ['temperature.html', 'temperature', 'Temperature'],
      ['growth.html', 'growth', 'Growth rate'],
      ['two-charts.ipynb, figure 1', 'two-charts', 'Share'],
      ['two-charts.ipynb, figure 2', 'two-charts', 'Heat'],
    ]);
    const [fruit, temperature, growth, , heat] = batch.figures;
    expect(fruit.figure.data).toEqual([{ name: 'counts', type: 'bar', x: ['apples', 'pears', 'plums'], y: [3, 1, 2] }]);
    expect((fruit.figure.layout as { template: unknown }).template).toBeTruthy();
    expect(temperature.figure.data).toEqual([{ mode: 'lines+markers', type: 'scatter', x: [1, 2, 3, 4], y: [10, 11, 9, 12] }]);
    expect(growth.figure.frames).toEqual([{ data: [{ type: 'scatter', y: [1, 2, 3] }], name: 'f1' }]);
    expect(Object.keys(heat.figure)).toEqual(['data', 'layout']); // the notebook's config left out
    expect(new Set(batch.figures.map((f) => f.key)).size).toBe(5);
  });

  it('reads a page with plotly.js inlined (include_plotlyjs=True) as its one figure', async () => {
    const lib = readFileSync('node_modules/plotly.js-dist-min/plotly.min.js', 'utf8');
    // plotly.js 2 (as python3-plotly inlines it) names a call in an error message's text.
    const message = `var hint = "Plotly.newPlot(gd, data, layout, { mapboxAccessToken: 'my-access-token' });";`;
    const page = readFileSync('fixtures/bring/temperature.html', 'utf8').replace('<body>', `<body><script type="text/javascript">${lib}\n${message}</script>`);
    const batch = await readFigureFiles([{ name: 'inlined.html', bytes: Buffer.from(page) }]);
    expect(batch.refused).toEqual([]);
    expect(batch.figures.map((f) => [f.label, f.name])).toEqual([['inlined.html', 'Temperature']]);
  });

  it('reads a zip into its name’s folder, inlining a Chart Studio plot’s srcs from the grid that came along, with its number', async () => {
    // The process's other work runs while a zip is read: a turn of the event loop comes before the answer.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const batch = await readFigureFiles([file('charts.zip')]);
    expect(turned).toBe(true);
    expect(batch.refused).toEqual([]);
    expect(batch.figures.map((f) => [f.label, f.folder, f.name, f.number])).toEqual([
      ['charts.zip: charts/fruit.json', 'charts', 'Fruit counts', null],
      ['charts.zip: charts/temperature.html', 'charts', 'Temperature', null],
      ['charts.zip: charts/two-charts.ipynb, figure 1', 'charts', 'Share', null],
      ['charts.zip: charts/two-charts.ipynb, figure 2', 'charts', 'Heat', null],
      ['charts.zip: charts/chart-studio/sales-plot.json', 'charts', 'Monthly sales', 7],
    ]);
    expect(batch.figures[4].figure.data).toEqual([{ type: 'scatter', x: ['Jan', 'Feb', 'Mar'], y: [120, 135, 160] }]);
  });

  it('refuses a figure on srcs whose grid did not come along, and a grid without its fid', async () => {
    const plot = { figure: { data: [{ type: 'bar', xsrc: 'ada:6:1a2b3c', ysrc: 'ada:6:4d5e6f' }] } };
    const batch = await readFigureFiles([
      { name: 'plot.json', bytes: strToU8(JSON.stringify(plot)) },
      { name: 'grid.json', bytes: strToU8(JSON.stringify({ cols: { a: { data: [1], uid: '1a2b3c' } } })) },
    ]);
    expect(batch.figures).toEqual([]);
    expect(batch.refused.map((r) => r.reason)).toEqual([
      expect.stringContaining('its data is in the grid ada:6, which did not come along'),
      expect.stringContaining('a grid without its fid'),
    ]);
  });

  it('refuses hostile files with their reasons: a zip bomb, 10,000-deep JSON, calls that are not JSON; keeps only the figure of a page with scripts', async () => {
    const batch = await readFigureFiles([file('bomb.zip'), file('deep.json'), file('hostile.html'), { name: 'notes.txt', bytes: strToU8('hi') }]);
    expect(batch.refused).toEqual([
      { label: 'bomb.zip', reason: expect.stringMatching(/zip bomb/) },
      { label: 'deep.json', reason: expect.stringMatching(/nest|deep/i) },
      { label: 'hostile.html, figure 2', reason: expect.stringMatching(/not JSON literals/) },
      { label: 'notes.txt', reason: expect.stringMatching(/not a figure file/) },
    ]);
    expect(batch.figures.map((f) => f.label)).toEqual(['hostile.html, figure 1']);
    expect(JSON.stringify(batch.figures[0].figure)).not.toMatch(/alert|onload|onerror/);
  });

  it('bounds zips: too many entries, a zip inside a zip, more than the per-entry size', async () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}.json`, strToU8('{}')])));
    const nested = zipSync({ 'inner.zip': zipSync({ 'a.json': strToU8('{}') }) });
    const big = zipSync({ 'big.json': new Uint8Array(21 * 1024 * 1024).fill(32) }, { level: 9 });
    const batch = await readFigureFiles([
      { name: 'many.zip', bytes: many },
      { name: 'nested.zip', bytes: nested },
      { name: 'big.zip', bytes: big },
    ]);
    expect(batch.refused.map((r) => r.reason)).toEqual([
      'it holds more than 1000 files',
      'a zip inside a zip is not read',
      expect.stringMatching(/zip bomb|more than 20 MiB/),
    ]);
  });
});

describe('htmlFigures', () => {
  it('reads plotly.offline.plot’s older call form and a {data, layout} object, never a call on variables, and passes over plotly.js’s own code', async () => {
    const page = `<script>Plotly.newPlot('a', [{"y": [1]}], {"title": "One"}, {})</script>
      <script>Plotly.newPlot("b", {"data": [{"y": [2]}], "layout": {}})</script>
      <script>var d = []; Plotly.newPlot("c", d, {})</script>
      <script>/* plotly.js inlined */ function f(gd) { return Plotly.newPlot(gd, [], {}); }</script>`;
    expect(htmlFigures(page)).toEqual([
      { figure: { data: [{ y: [1] }], layout: { title: 'One' } } },
      { figure: { data: [{ y: [2] }], layout: {} } },
      { refused: expect.stringMatching(/not JSON literals/) },
    ]);
  });
});
