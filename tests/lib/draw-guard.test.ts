// The draw guard in Debian's Chromium with the pages' own plotly.js: figures that ask plotly for
// millions of ticks (every axis type, tickmode and dtick form, minor ticks, colorbars, 3D, polar,
// ternary, carpet and gauge axes, where the count depends on what the data make of the axes) or
// thousands of items draw promptly with at most the budget's ticks, figures that ask for a sensible
// number keep their own, and the renderer exports the first kind and refuses the second at once.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAW_LIMITS, drawGuardScript } from '@/lib/core/draw-guard';
import { plotlyBrowserScript } from '@/lib/core/plotly-assets';
import { chromiumPath, FigureError, Renderer, type ExportJob } from '@/lib/core/renderer';
import { MAGIC } from '../support/image-formats';

type Figure = { data: Record<string, unknown>[]; layout?: Record<string, unknown> };
const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const line = (x: unknown[], y: unknown[] = x.map((_, i) => i)) => ({ type: 'scatter', mode: 'markers', x, y });
const cats = range(5000, (i) => `c${i}`);
const f8 = (values: number[]) => ({ dtype: 'f8', bdata: Buffer.from(new Float64Array(values).buffer).toString('base64') });

/** Each draws for 10 s to minutes untamed (measured in Chromium on plotly.js 4). */
const HOSTILE: Record<string, Figure> = {
  // The issue's own.
  'log axis every L1e-6 over 1..1e6 (59 bytes)': { data: [line([1, 1e6])], layout: { xaxis: { type: 'log', range: [0, 6], dtick: 'L1e-6' } } },
  'date axis every ms over 60 years of data': { data: [line(['1960-01-01', '2020-01-01'])], layout: { xaxis: { dtick: 1 } } },
  '80,000 tickvals with ticktext': { data: [line([0, 4])], layout: { xaxis: { tickvals: range(80_000, (i) => i / 20_000), ticktext: range(80_000, (i) => `t${i}`) } } },
  'M1 over years 1-9999': { data: [line(['0001-01-01', '9999-12-31'])], layout: { xaxis: { type: 'date', range: ['0001-01-01', '9999-12-31'], dtick: 'M1' } } },
  'log D1 over [-300, 300]': { data: [line([1, 10])], layout: { xaxis: { type: 'log', range: [-300, 300], dtick: 'D1' } } },
  // Others of the same classes.
  'log D1 over data spanning 1e-300..1e300': { data: [line([1e-300, 1e300])], layout: { xaxis: { type: 'log', dtick: 'D1' }, yaxis: { type: 'log', dtick: 'L1' } } },
  'M1 on an autoranged date axis of years 1-9999': { data: [line(['0001-01-01', '9999-12-31'])], layout: { xaxis: { dtick: 'M1' } } },
  'tickmode linear with no dtick (1 by default) over 0..1e7': { data: [line([0, 1e7], [0, 1e7])], layout: { xaxis: { tickmode: 'linear' }, yaxis: { tickmode: 'linear', tick0: 3 } } },
  'a dtick the axis type does not take (its default: 1)': { data: [line([0, 1e7])], layout: { xaxis: { dtick: 'M1' }, yaxis: { dtick: 'L2', range: [0, 1e7] } } },
  'nticks 1e9 on both axes': { data: [line([0, 1e9], [0, 1e9])], layout: { xaxis: { nticks: 1e9 }, yaxis: { nticks: 1e9 } } },
  'minor ticks every ms on a date axis, every 1e-9 on another': { data: [line(['1960-01-01', '2020-01-01'], [0, 1])], layout: { xaxis: { minor: { dtick: 1, showgrid: true, ticks: 'outside' } }, yaxis: { minor: { dtick: 1e-9, showgrid: true } } } },
  '200,000 minor tickvals': { data: [line([0, 1])], layout: { xaxis: { minor: { tickvals: range(200_000, (i) => i / 200_000), showgrid: true } } } },
  'typed-array tickvals (80,000 f8)': { data: [line([0, 4])], layout: { xaxis: { tickvals: f8(range(80_000, (i) => i / 20_000)) } } },
  '5,000 categories ticked every one': { data: [{ type: 'bar', x: cats, y: cats.map((_, i) => i) }], layout: { xaxis: { dtick: 1 } } },
  '5,000 categories, tickvals of them all': { data: [{ type: 'bar', y: cats, x: cats.map((_, i) => i), orientation: 'h' }], layout: { yaxis: { tickvals: cats, ticktext: cats.map((c) => `<b>${c}</b>`) } } },
  'multicategory ticked every one': { data: [{ type: 'bar', x: [range(3000, (i) => `g${i % 50}`), range(3000, (i) => `c${i}`)], y: range(3000, (i) => i) }], layout: { xaxis: { tickmode: 'linear', dtick: 1 } } },
  'colorbars every 1 over 0..1e7, and 80,000 tickvals': {
    data: [
      { type: 'heatmap', z: [[0, 1e7], [5, 9]], colorbar: { dtick: 1, x: 1 } },
      { type: 'scatter', x: [0, 1], y: [0, 1], marker: { color: [0, 1], colorbar: { tickvals: range(80_000, (i) => i / 80_000), x: 1.2 } } },
      { type: 'scatter', x: [0, 1], y: [1, 0], marker: { color: [0, 1e7], coloraxis: 'coloraxis' } },
    ],
    layout: { coloraxis: { colorbar: { tickmode: 'linear', dtick: 1, x: 1.4 } } },
  },
  '3D axes every 1 over 0..1e6, and 50,000 tickvals': { data: [{ type: 'scatter3d', x: [0, 1e6], y: [0, 1], z: [0, 1] }], layout: { scene: { xaxis: { dtick: 1 }, zaxis: { tickvals: range(50_000, (i) => i / 50_000) } } } },
  'polar radial every 1 over 0..1e6, angular every 0.001 degree': { data: [{ type: 'scatterpolar', r: [0, 1e6], theta: [0, 90] }], layout: { polar: { radialaxis: { dtick: 1 }, angularaxis: { dtick: 0.001 } } } },
  'polar angular axis of 5,000 categories ticked every one': { data: [{ type: 'barpolar', r: cats.map((_, i) => i), theta: cats }], layout: { polar: { angularaxis: { dtick: 1, tickmode: 'linear' } } } },
  'ternary axes every 1e-6': { data: [{ type: 'scatterternary', a: [1, 2], b: [1, 1], c: [1, 3] }], layout: { ternary: { aaxis: { dtick: 1e-6 }, baxis: { dtick: 1e-6 }, caxis: { dtick: 1e-6 } } } },
  'gauge axis every 1 over 0..1e9': { data: [{ type: 'indicator', mode: 'gauge+number', value: 5, gauge: { axis: { range: [0, 1e9], dtick: 1 } } }] },
  'a template ticking every 1e-9': { data: [line([0, 3])], layout: { template: { layout: { xaxis: { dtick: 1e-9 }, yaxis: { tickmode: 'linear', dtick: 1e-9 } } } } },
  '40 axes asking 150 ticks each': {
    data: range(40, (i) => ({ ...line([0, 149], [0, 149]), yaxis: `y${i + 1}` })),
    layout: Object.fromEntries(range(40, (i) => [`yaxis${i + 1}`, { dtick: 1, ...(i ? { overlaying: 'y' } : {}) }])),
  },
  '20,000 annotations': { data: [line([0, 100], [0, 100])], layout: { annotations: range(20_000, (i) => ({ x: i % 100, y: (i * 7) % 100, text: `a${i}`, showarrow: true })) } },
  '50,000 labelled shapes and 50,000 selections': {
    data: [line([0, 100], [0, 100])],
    layout: {
      shapes: range(50_000, (i) => ({ type: 'line', x0: i % 100, x1: (i % 100) + 1, y0: 0, y1: 5, label: { text: `s${i}` } })),
      selections: range(50_000, (i) => ({ type: 'rect', x0: i % 100, x1: (i % 100) + 1, y0: 0, y1: 5 })),
    },
  },
  '20,000 slider steps and 20,000 menu buttons': {
    data: [line([0, 1])],
    layout: {
      sliders: [{ steps: range(20_000, (i) => ({ label: `step ${i}`, method: 'restyle', args: ['visible', true] })) }],
      updatemenus: [{ type: 'buttons', buttons: range(20_000, (i) => ({ label: `b${i}`, method: 'restyle', args: ['visible', true] })) }],
    },
  },
};

/** Figures asking for a sensible number of ticks: drawn as they ask. */
const KEPT: { name: string; figure: Figure; labels: (texts: string[]) => void }[] = [
  { name: 'dtick 0.1 over the data 0..2 (autorange)', figure: { data: [line([0, 2])], layout: { xaxis: { dtick: 0.1 } } }, labels: (t) => expect(t).toContain('1.3') },
  {
    name: '50 tickvals with their texts',
    figure: { data: [line([0, 49])], layout: { xaxis: { tickvals: range(50, (i) => i), ticktext: range(50, (i) => `v${i}`) } } },
    labels: (t) => expect(t.filter((x) => /^v\d+$/.test(x)).sort()).toEqual(range(50, (i) => `v${i}`).sort()),
  },
  {
    name: '150 categories, every one labelled',
    figure: { data: [{ type: 'bar', x: cats.slice(0, 150), y: range(150, (i) => i) }], layout: { xaxis: { dtick: 1 } } },
    labels: (t) => expect(t.filter((x) => /^c\d+$/.test(x))).toHaveLength(150),
  },
  {
    name: 'months over a year (M1)',
    figure: { data: [line(['2020-01-01', '2020-12-31'])], layout: { xaxis: { dtick: 'M1', tickformat: '%b' } } },
    labels: (t) => expect(t).toEqual(expect.arrayContaining(['Jan', 'Jun', 'Dec'])),
  },
  {
    name: 'log D2 over 1..1000',
    figure: { data: [line([1, 1000])], layout: { xaxis: { type: 'log', dtick: 'D2' } } },
    // Each decade's 2 and 5 are labelled as digits.
    labels: (t) => {
      expect(t).toEqual(expect.arrayContaining(['1', '10', '100', '1000']));
      expect(t.filter((x) => x === '2' || x === '5')).toHaveLength(6);
    },
  },
  {
    name: 'a colorbar every 0.5 over 0..5',
    figure: { data: [{ type: 'heatmap', z: [[0, 5], [1, 2]], colorbar: { dtick: 0.5, tickformat: '.1f' } }] },
    labels: (t) => expect(t).toEqual(expect.arrayContaining(['0.5', '2.5', '4.5'])),
  },
];

describe('the draw guard in Chromium', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await page.addScriptTag({ content: await plotlyBrowserScript() });
    await page.addScriptTag({ content: drawGuardScript() });
  });
  afterAll(() => browser?.close());

  /** Tames and draws `figure` as a page does: the time it took and the tick labels plotly drew. */
  async function draw(figure: Figure): Promise<{ ms: number; labels: string[]; perAxis: number; gridLines: number }> {
    return page.evaluate(async (fig) => {
      const w = window as unknown as { Plotly: { newPlot(...a: unknown[]): Promise<unknown>; purge(el: HTMLElement): void }; __tameFigure(...a: unknown[]): Promise<Figure> };
      const el = document.createElement('div');
      el.style.cssText = 'width:900px;height:600px';
      document.body.appendChild(el);
      const started = performance.now();
      try {
        const tamed = await w.__tameFigure(w.Plotly, fig, 'cut');
        await w.Plotly.newPlot(el, tamed.data, tamed.layout);
        const ms = performance.now() - started;
        const groups = [...el.querySelectorAll('g')].filter((g) => /tick$/.test(g.getAttribute('class') ?? ''));
        const perClass = new Map<string, number>();
        for (const g of groups) perClass.set(g.getAttribute('class')!, (perClass.get(g.getAttribute('class')!) ?? 0) + 1);
        return {
          ms,
          labels: groups.map((g) => g.textContent ?? ''),
          perAxis: Math.max(0, ...perClass.values()),
          gridLines: el.querySelectorAll('path[class*="grid"]').length,
        };
      } finally {
        w.Plotly.purge(el);
        el.remove();
      }
    }, figure);
  }

  it.each(Object.entries(HOSTILE))('%s: drawn promptly, within the budget', async (_, figure) => {
    const drawn = await draw(figure);
    // Untamed, each takes 10 s to minutes; tamed, about a second on a loaded machine.
    expect(drawn.ms).toBeLessThan(8000);
    expect(drawn.perAxis).toBeLessThanOrEqual(DRAW_LIMITS.axisTicks + 20);
    expect(drawn.labels.length).toBeLessThanOrEqual(DRAW_LIMITS.figureTicks + 200);
    expect(drawn.gridLines).toBeLessThanOrEqual(DRAW_LIMITS.figureMinorTicks + 200);
  });

  it.each(KEPT)('$name: drawn as asked', async ({ figure, labels }) => {
    const drawn = await draw(figure);
    labels(drawn.labels);
  });

  it('thinned tickvals keep their own texts', async () => {
    const { labels } = await draw(HOSTILE['80,000 tickvals with ticktext']);
    const shown = labels.filter((t) => /^t\d+$/.test(t));
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.length).toBeLessThanOrEqual(DRAW_LIMITS.axisTicks);
    // Labels are every k-th of the values in range, in order: evenly spaced texts.
    const gaps = new Set(shown.map((t) => Number(t.slice(1))).map((n, i, a) => (i ? n - a[i - 1] : 0)).slice(1));
    expect(gaps.size).toBe(1);
  });

  it('the figure it was given is left as it was', async () => {
    const figure = { data: [line([0, 1])], layout: { xaxis: { dtick: 1e-9 }, annotations: range(600, () => ({ text: 'a' })) } };
    const before = JSON.stringify(figure);
    const after = await page.evaluate(async (fig) => {
      const w = window as unknown as { Plotly: unknown; __tameFigure(...a: unknown[]): Promise<unknown> };
      await w.__tameFigure(w.Plotly, fig, 'cut');
      return JSON.stringify(fig);
    }, figure);
    expect(after).toBe(before);
  });
});

describe('the renderer: exports and thumbnails of hostile figures', () => {
  const renderer = new Renderer();
  const job = (figure: unknown): ExportJob => ({ figureText: JSON.stringify(figure), format: 'png', width: 700, height: 500, outWidth: 700, outHeight: 500 });
  // Starting Chromium and its pages is not the figure's time.
  beforeAll(async () => {
    await renderer.exportImage(0, job({ data: [line([0, 1])] }), Date.now() + 60_000);
    await renderer.render(JSON.stringify({ data: [line([0, 1])] }), {});
  });
  afterAll(() => renderer.close());

  it.each(Object.entries(HOSTILE).filter(([name]) => !/annotations|shapes|steps/.test(name)))('%s: exported promptly', async (_, figure) => {
    const started = Date.now();
    const png = await renderer.exportImage(0, job(figure), Date.now() + 30_000);
    expect(MAGIC.png(png)).toBe(true);
    // Untamed, each holds the page to its 30 s deadline; 3D on software WebGL is the slowest tamed.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it.each([
    ['20,000 annotations', HOSTILE['20,000 annotations'], 'the figure has 20,000 annotations, more than the 500 a figure may draw'],
    ['50,000 shapes', HOSTILE['50,000 labelled shapes and 50,000 selections'], 'the figure has 50,000 shapes'],
    ['20,000 slider steps', HOSTILE['20,000 slider steps and 20,000 menu buttons'], 'the figure has 20,000 slider steps'],
    ['101 subplots', { data: range(101, (i) => ({ y: [1, 2], xaxis: `x${i + 1}`, yaxis: `y${i + 1}` })) }, 'the figure has 101 subplots'],
  ])('%s: an export is refused at once, saying why', async (_, figure, says) => {
    const started = Date.now();
    const error = await renderer.exportImage(0, job(figure), Date.now() + 30_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FigureError);
    expect((error as Error).message).toContain(says);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it.each(Object.entries(HOSTILE).filter(([name]) => /issue|annotations|L1e-6|every ms|80,000 tickvals|M1 over|D1 over \[/.test(name)))('%s: its thumbnails are drawn promptly', async (_, figure) => {
    const started = Date.now();
    const images = await renderer.render(JSON.stringify(figure), figure.layout ?? {}, 15_000);
    expect(images).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
