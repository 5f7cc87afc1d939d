// The card layout (lib/shared/figures/card-figure.ts) over every fixture mock, and the rules it follows one by one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_SIZE, cardFigure, cardFigureScript } from '@/lib/shared/figures/card-figure';

const MOCKS = path.join(process.cwd(), 'fixtures/plotly-mocks');
const mocks = readdirSync(MOCKS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(path.join(MOCKS, f), 'utf8'))] as const);
const [W, H] = CARD_SIZE;
const AXIS = /^([xy]axis\d*)$/;

describe('cardFigure over the fixture mocks', () => {
  it.each(mocks)('%s: fits the card, leaves the figure as it was', (_name, figure) => {
    const before = JSON.stringify(figure);
    const card = cardFigure(figure, W, H);
    expect(JSON.stringify(figure)).toBe(before);
    const l = card.layout;
    expect(l).toMatchObject({ width: W, height: H, autosize: false, showlegend: false, updatemenus: [], sliders: [], title: { text: '' }, dragmode: false });
    expect(l.margin).toEqual({ l: 6, r: 6, t: 6, b: 6, pad: 0, autoexpand: true });
    expect((l.font as { size: number }).size).toBeLessThanOrEqual(10);
    const notes = l.annotations as { text?: string }[];
    expect(notes.length).toBeLessThanOrEqual(3);
    for (const a of notes) expect(String(a.text ?? '').replace(/<[^>]*>/g, '').length).toBeLessThanOrEqual(16);
    for (const [key, axis] of Object.entries(l)) {
      if (!AXIS.test(key)) continue;
      const ax = axis as Record<string, unknown>;
      expect(ax.automargin, key).toBe(true);
      if ((ax.tickmode ?? 'auto') === 'auto' && ax.dtick === undefined) expect(ax.nticks, key).toBeLessThanOrEqual(5);
    }
    expect(card.data).toHaveLength(Array.isArray(figure.data) ? figure.data.length : 0);
    for (const t of card.data) expect(t.showscale).toBe(false);
    expect(card).not.toHaveProperty('frames');
  });
});

describe('cardFigure, rule by rule', () => {
  it.each([
    ['a short annotation on the plot stays', { text: 'peak', x: 1, y: 2 }, true],
    ['a long one goes', { text: 'A sentence far too long for a card', x: 1, y: 2 }, false],
    ['markup does not count', { text: '<b>peak</b>', x: 1, y: 2 }, true],
    ['one in the margin (paper, outside 0..1) goes', { text: 'source', xref: 'paper', yref: 'paper', x: 0, y: -0.2 }, false],
    ['one on the paper inside stays', { text: 'note', xref: 'paper', yref: 'paper', x: 0.5, y: 0.5 }, true],
    ['a hidden one goes', { text: 'x', visible: false }, false],
    ['one at the paper’s top drawn upwards goes', { text: 'over', xref: 'paper', yref: 'paper', x: 0.5, y: 1, yanchor: 'bottom', showarrow: false }, false],
    ['one at the paper’s top drawn downwards stays', { text: 'under', xref: 'paper', yref: 'paper', x: 0.5, y: 1, yanchor: 'top', showarrow: false }, true],
    ['one at the paper’s top with its arrow (text above) goes', { text: 'arrow', xref: 'paper', yref: 'paper', x: 0.5, y: 1, yanchor: 'top' }, false],
    ['one at the paper’s left edge centred on it goes', { text: 'half', xref: 'paper', yref: 'paper', x: 0, y: 0.5, xanchor: 'center' }, false],
  ])('%s', (_why, annotation, kept) => {
    const { layout } = cardFigure({ data: [{ y: [1, 2] }], layout: { annotations: [annotation] } }, W, H);
    expect((layout.annotations as unknown[]).length).toBe(kept ? 1 : 0);
  });

  it('an annotation without references is on the paper when the figure has no x/y axes (a treemap’s label over it goes)', () => {
    const over = { text: 'percent parent', x: 0.25, y: 1, yanchor: 'bottom', showarrow: false };
    expect(cardFigure({ data: [{ type: 'icicle' }], layout: { annotations: [over] } }, W, H).layout.annotations).toEqual([]);
    expect((cardFigure({ data: [{ y: [1] }], layout: { annotations: [over] } }, W, H).layout.annotations as unknown[]).length).toBe(1);
  });

  it('hides range sliders (a candlestick’s default one too) and their selectors, keeping their settings', () => {
    const { layout } = cardFigure(
      {
        data: [{ type: 'candlestick' }, { type: 'ohlc', xaxis: 'x2' }],
        layout: { xaxis: { rangeslider: { thickness: 0.2 }, rangeselector: { buttons: [] } } },
      },
      W,
      H,
    );
    expect(layout.xaxis).toMatchObject({ rangeslider: { thickness: 0.2, visible: false }, rangeselector: { buttons: [], visible: false } });
    expect(layout.xaxis2).toMatchObject({ rangeslider: { visible: false } });
    expect(layout.yaxis).not.toHaveProperty('rangeslider');
  });

  it('gives polar, ternary and smith axes smaller labels and fewer ticks', () => {
    const { layout } = cardFigure(
      { layout: { polar2: { hole: 0.1, angularaxis: { tickfont: { size: 14 } } }, ternary: { aaxis: { nticks: 9 } }, smith: {} } },
      W,
      H,
    );
    const polar = layout.polar2 as Record<string, Record<string, unknown>>;
    expect(polar.hole).toBe(0.1);
    expect(polar.angularaxis).toMatchObject({ tickfont: { size: 9 }, nticks: 5 });
    expect(polar.radialaxis).toMatchObject({ tickfont: { size: 9 }, nticks: 5 });
    expect((layout.ternary as Record<string, unknown>).aaxis).toMatchObject({ nticks: 5 });
    expect((layout.smith as Record<string, unknown>).realaxis).toMatchObject({ tickfont: { size: 9 } });
  });

  it('gives a pie’s outside labels room and text on the data the card’s size', () => {
    const { data } = cardFigure(
      { data: [{ type: 'pie', textfont: { size: 20 }, outsidetextfont: { size: 6 }, title: { text: 'T', font: { size: 30 } } }] },
      W,
      H,
    );
    expect(data[0]).toMatchObject({ automargin: true, textfont: { size: 10 }, outsidetextfont: { size: 6 }, title: { text: 'T', font: { size: 10 } } });
  });

  it('keeps at most three annotations, in order', () => {
    const annotations = ['a', 'b', 'c', 'd'].map((text) => ({ text, x: 0, y: 0 }));
    const { layout } = cardFigure({ layout: { annotations } }, W, H);
    expect((layout.annotations as { text: string }[]).map((a) => a.text)).toEqual(['a', 'b', 'c']);
  });

  it.each([
    ['no tick settings: 5 ticks', {}, 5],
    ['more asked: 5', { nticks: 20 }, 5],
    ['fewer asked: kept', { nticks: 3 }, 3],
    ['a dtick: left alone', { dtick: 2 }, undefined],
    ['tickvals: left alone', { tickmode: 'array', tickvals: [1, 2] }, undefined],
  ])('axis ticks: %s', (_why, axis, nticks) => {
    const { layout } = cardFigure({ layout: { xaxis: axis, yaxis2: axis, scene: { zaxis: axis } } }, W, H);
    for (const ax of [layout.xaxis, layout.yaxis2, (layout.scene as Record<string, unknown>).zaxis] as Record<string, unknown>[]) {
      expect(ax.nticks).toBe(nticks);
      expect(ax.automargin).toBe(true);
      expect((ax.tickfont as { size: number }).size).toBe(9);
    }
  });

  it('makes fonts smaller, never larger', () => {
    expect(cardFigure({ layout: { font: { size: 18, family: 'Georgia' } } }, W, H).layout.font).toEqual({ size: 10, family: 'Georgia' });
    expect(cardFigure({ layout: { font: { size: 8 } } }, W, H).layout.font).toEqual({ size: 8 });
  });

  it('drops colour scales from traces, their markers and colour axes', () => {
    const { data, layout } = cardFigure(
      { data: [{ type: 'heatmap', z: [[1]] }, { marker: { color: [1, 2], showscale: true } }], layout: { coloraxis: { colorscale: 'Viridis' } } },
      W,
      H,
    );
    expect(data[0].showscale).toBe(false);
    expect((data[1].marker as Record<string, unknown>).showscale).toBe(false);
    expect(layout.coloraxis).toEqual({ colorscale: 'Viridis', showscale: false });
  });

  it('stands alone as a script (the renderer injects it as text)', () => {
    const window: Record<string, unknown> = {};
    new Function('window', cardFigureScript())(window);
    const card = (window.__cardFigure as typeof cardFigure)({ data: [{ y: [1] }], layout: { title: 'T' } }, W, H);
    expect(card.layout.title).toEqual({ text: '' });
    // plotly's x/y trace types go along with it.
    const quiver = { data: [{ type: 'quiver', x: [1], y: [1] }, { type: 'pie' }] };
    expect((window.__cardFigure as typeof cardFigure)(quiver, W, H)).toEqual(cardFigure(quiver, W, H));
    expect(Object.keys(cardFigure(quiver, W, H).layout).filter((k) => AXIS.test(k))).toEqual(['xaxis', 'yaxis']);
  });
});

describe('cardFigure adds the axes a figure leaves to defaults', () => {
  it.each([
    ['a scatter with no layout', { data: [{ y: [1, 2] }] }, ['xaxis', 'yaxis']],
    [
      'traces on second axes',
      {
        data: [
          { type: 'bar', y: [1] },
          { type: 'scatter', xaxis: 'x2', yaxis: 'y3', y: [1] },
        ],
      },
      ['xaxis', 'yaxis', 'xaxis2', 'yaxis3'],
    ],
    ['a quiver (on x and y axes, as plotly.js 4 draws it)', { data: [{ type: 'quiver', x: [1], y: [1], u: [1], v: [1] }] }, ['xaxis', 'yaxis']],
    ['a pie: none', { data: [{ type: 'pie', values: [1, 2] }] }, []],
    ['a 3D scatter: none', { data: [{ type: 'scatter3d', x: [1], y: [1], z: [1] }] }, []],
    [
      'a scatter matrix: one x and one y per dimension',
      { data: [{ type: 'splom', dimensions: [{ values: [1] }, { values: [2] }] }] },
      ['xaxis', 'xaxis2', 'yaxis', 'yaxis2'],
    ],
    ['a scatter matrix naming its axes', { data: [{ type: 'splom', dimensions: [{}], xaxes: ['x3'], yaxes: ['y4'] }] }, ['xaxis3', 'yaxis4']],
  ])('%s', (_why, figure, axes) => {
    const { layout } = cardFigure(figure, W, H);
    expect(
      Object.keys(layout)
        .filter((k) => AXIS.test(k))
        .sort(),
    ).toEqual([...axes].sort());
    for (const key of axes) expect(layout[key]).toMatchObject({ automargin: true, nticks: 5 });
  });
});
