// Themes and templates as figures (lib/shared/figures/theme-figures.ts): what a theme keeps of a chart, how it
// is applied, and how a template's column roles go to a new grid's columns.
import { describe, expect, it } from 'vitest';
import { historyReducer, startHistory } from '@/components/chart-editor/figure-history';
import { checkFigure } from '@/lib/core/figures/figure';
import {
  applyTheme,
  columnKind,
  figureFromTemplate,
  mapRoleColumns,
  themeFigure,
  themeFromFigure,
  type Figure,
  type GridColumn,
  type RoleColumn,
} from '@/lib/shared/figures/theme-figures';

const STYLED: Figure = {
  data: [
    {
      type: 'scatter',
      mode: 'lines',
      name: 'Sales',
      xsrc: 'a:1:x1',
      ysrc: 'a:1:y1',
      line: { color: '#ff0000', width: 3 },
      marker: { colorsrc: 'a:1:c1', size: 9 },
    },
    { type: 'bar', ysrc: 'a:1:y1', marker: { color: '#00ff00' }, text: 'hello', hovertemplate: '%{y}' },
    { type: 'scatter', xsrc: 'a:1:x1', ysrc: 'a:1:y1', line: { dash: 'dot' } },
  ],
  layout: {
    title: { text: 'Quarterly sales', font: { size: 22, color: '#123456' } },
    plot_bgcolor: '#fafafa',
    font: { family: 'Georgia' },
    colorway: ['#111111', '#222222'],
    margin: { l: 40 },
    xaxis: { title: { text: 'Quarter', font: { size: 14 } }, range: [0, 4], gridcolor: '#cccccc', type: 'category', domain: [0, 0.5] },
    xaxis2: { gridcolor: '#000000', anchor: 'y2' },
    yaxis: { showgrid: false, tickvals: [1, 2] },
    legend: { title: { text: 'Series' }, bgcolor: '#eeeeee' },
    annotations: [{ text: 'peak', x: 1, y: 2 }],
    shapes: [{ type: 'line' }],
    width: 800,
    height: 500,
    template: { layout: { paper_bgcolor: '#000000', plot_bgcolor: '#ffffff' }, data: { scatter: [{ marker: { symbol: 'square' } }], pie: [{ hole: 0.5 }] } },
  },
};

describe('themeFromFigure', () => {
  const theme = themeFromFigure(STYLED);

  it.each([
    ['its own colours and fonts', ['plot_bgcolor'], '#fafafa'],
    ['fonts', ['font', 'family'], 'Georgia'],
    ['the palette', ['colorway'], ['#111111', '#222222']],
    ['margins', ['margin', 'l'], 40],
    ['the title font, not its text', ['title'], { font: { size: 22, color: '#123456' } }],
    ["an axis's look, not its range, type, place or title text", ['xaxis'], { title: { font: { size: 14 } }, gridcolor: '#cccccc' }],
    ['an axis with nothing but content, dropped', ['yaxis'], { showgrid: false }],
    ['the legend, not its title text', ['legend'], { bgcolor: '#eeeeee' }],
    ['its old template under its own settings', ['paper_bgcolor'], '#000000'],
  ])('keeps %s', (_what, path, expected) => {
    expect(path.reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], theme.layout)).toEqual(expected);
  });

  it.each([['annotations'], ['shapes'], ['width'], ['height'], ['xaxis2'], ['template']])('drops layout.%s', (key) => {
    expect(theme.layout).not.toHaveProperty(key);
  });

  it('keeps each trace type its styles in order, with no srcs, names or text, the old template under them', () => {
    expect(theme.data).toEqual({
      scatter: [
        { mode: 'lines', line: { color: '#ff0000', width: 3 }, marker: { size: 9, symbol: 'square' } },
        { line: { dash: 'dot' }, marker: { symbol: 'square' } },
      ],
      bar: [{ marker: { color: '#00ff00' } }],
      pie: [{ hole: 0.5 }],
    });
    expect(JSON.stringify(theme)).not.toMatch(/src|Sales|Quarter|hello|peak/);
  });

  it('makes a theme figure the figure rules accept (no traces, nothing drawn from data)', () => {
    const figure = themeFigure(theme, 'My theme');
    expect(checkFigure(figure)).toEqual([]);
    expect(figure).toEqual({ data: [], layout: { title: { text: 'My theme' }, template: theme } });
  });
});

describe('applyTheme', () => {
  const chart: Figure = { data: [{ type: 'bar', ysrc: 'b:2:u' }], layout: { title: { text: 'Mine' }, plot_bgcolor: '#abcdef', template: { layout: {} } } };

  it.each([
    ['a theme: the template replaced, the chart and its own settings kept', { layout: { plot_bgcolor: '#000' } }, { layout: { plot_bgcolor: '#000' } }],
    ['none: the template removed (plotly.js own look)', undefined, undefined],
  ])('%s', (_what, theme, expected) => {
    const out = applyTheme(chart, theme);
    expect(out.layout.template).toEqual(expected);
    expect(out.data).toBe(chart.data);
    expect(out.layout.title).toEqual({ text: 'Mine' });
    expect(out.layout.plot_bgcolor).toBe('#abcdef');
    expect(chart.layout.template).toEqual({ layout: {} });
  });

  it('copies the theme: changing the chart later leaves the theme as it was', () => {
    const theme = { layout: { font: { size: 3 } } };
    const out = applyTheme(chart, theme);
    (out.layout.template as { layout: { font: { size: number } } }).layout.font.size = 9;
    expect(theme.layout.font.size).toBe(3);
  });
});

describe("a theme applied in the editor's history", () => {
  it('is one step, applied to the figure as it is then, undone whole', () => {
    const start: Figure = { data: [{ type: 'bar' }], layout: { template: { layout: { font: { size: 1 } } } } };
    let h = startHistory(start);
    h = historyReducer(h, { type: 'change', path: 'layout.title.text', value: 'T' });
    h = historyReducer(h, { type: 'apply', apply: (f) => applyTheme(f, { layout: { plot_bgcolor: '#000' } }) });
    expect(h.present.layout).toEqual({ title: { text: 'T' }, template: { layout: { plot_bgcolor: '#000' } } });
    h = historyReducer(h, { type: 'undo' });
    expect(h.present.layout).toEqual({ ...start.layout, title: { text: 'T' } });
  });
});

describe('columnKind', () => {
  it.each([
    [[1, 2.5, -3], 'number'],
    [['1', ' 2 ', '3e2'], 'number'],
    [[1, null, '', 3], 'number'],
    [['a', 1], 'text'],
    [[], 'text'],
    [[null, ''], 'text'],
    [['2020-01-01'], 'text'],
  ])('%j is %s', (values, kind) => {
    expect(columnKind(values)).toBe(kind);
  });
});

const col = (uid: string, name: string, kind: 'number' | 'text' = 'number'): GridColumn => ({ uid, name, kind });
const role = (name: string, position: number, kind: 'number' | 'text' = 'number'): RoleColumn => ({ name, position, kind });

describe('mapRoleColumns', () => {
  it.each<[string, RoleColumn[], GridColumn[], (string | undefined)[]]>([
    ['by name first, whatever the place or case', [role('x', 0), role('y', 1)], [col('b', 'Y'), col('a', 'X')], ['a', 'b']],
    ['else by place when the kind fits', [role('when', 0, 'text'), role('amount', 1)], [col('d', 'day', 'text'), col('v', 'value')], ['d', 'v']],
    ['else the first unused column of the kind', [role('label', 0, 'text'), role('n', 1)], [col('n1', 'a'), col('t1', 'b', 'text')], ['t1', 'n1']],
    ['else any unused column', [role('label', 0, 'text')], [col('n1', 'a')], ['n1']],
    ['a named column is not taken by place', [role('q', 0), role('x', 1)], [col('x', 'x'), col('z', 'z')], ['z', 'x']],
    [
      'the same role column twice: the same new column',
      [role('x', 0), role('y', 1), role('x', 0), role('z', 2)],
      [col('a', 'a'), col('b', 'b'), col('c', 'c')],
      ['a', 'b', 'a', 'c'],
    ],
    ['fewer columns than roles: reused by place', [role('x', 0), role('y', 1), role('z', 2)], [col('a', 'a'), col('b', 'b')], ['a', 'b', 'b']],
    ['no columns: nothing', [role('x', 0)], [], [undefined]],
  ])('%s', (_what, roles, columns, expected) => {
    expect(mapRoleColumns(roles, columns).map((c) => c?.uid)).toEqual(expected);
  });
});

describe('figureFromTemplate', () => {
  const template = {
    figure: {
      data: [
        { type: 'scatter', name: 'revenue', xsrc: 'a:1:m', ysrc: 'a:1:r', marker: { colorsrc: 'a:1:r' } },
        { type: 'bar', name: 'Costs', xsrc: 'a:1:m', ysrc: 'a:1:c', customdatasrc: 'a:1:z' },
      ],
      layout: { title: { text: 'Money' }, xaxis: { gridcolor: '#eee' } },
    } satisfies Figure,
    roles: [
      { path: ['data', 0, 'xsrc'], cols: [role('month', 0, 'text')] },
      { path: ['data', 0, 'ysrc'], cols: [role('revenue', 1)] },
      { path: ['data', 0, 'marker', 'colorsrc'], cols: [role('revenue', 1)] },
      { path: ['data', 1, 'xsrc'], cols: [role('month', 0, 'text')] },
      { path: ['data', 1, 'ysrc'], cols: [role('costs', 2)] },
      { path: ['data', 7, 'ysrc'], cols: [role('gone', 3)] },
    ],
  };
  const columns = [col('u1', 'Month', 'text'), col('u2', 'income'), col('u3', 'costs'), col('u4', 'other')];

  it('maps every role to the new grid, renames traces named after their column, drops srcs without a role', () => {
    const out = figureFromTemplate(template, 'bob:9', columns);
    expect(out.data).toEqual([
      { type: 'scatter', name: 'income', xsrc: 'bob:9:u1', ysrc: 'bob:9:u2', marker: { colorsrc: 'bob:9:u2' } },
      { type: 'bar', name: 'Costs', xsrc: 'bob:9:u1', ysrc: 'bob:9:u3' },
    ]);
    expect(out.layout).toEqual(template.figure.layout);
    expect(checkFigure(out).map((r) => r.src)).toEqual(['bob:9:u1', 'bob:9:u2', 'bob:9:u2', 'bob:9:u1', 'bob:9:u3']);
  });

  it('leaves the template as it was', () => {
    const before = structuredClone(template);
    figureFromTemplate(template, 'bob:9', columns);
    expect(template).toEqual(before);
  });

  it('a src of several columns takes as many new ones', () => {
    const out = figureFromTemplate(
      {
        figure: { data: [{ type: 'table', cells: { valuessrc: 'a:1:p,q' } }], layout: {} },
        roles: [{ path: ['data', 0, 'cells', 'valuessrc'], cols: [role('p', 0), role('q', 1)] }],
      },
      'bob:2',
      [col('k', 'q'), col('j', 'p')],
    );
    expect(out.data[0]).toEqual({ type: 'table', cells: { valuessrc: 'bob:2:j,k' } });
  });
});
