// The draw guard in Debian's Chromium with the pages' own plotly.js: figures that ask plotly for
// millions of ticks (every axis type, tickmode and dtick form, minor ticks, colorbars, 3D, polar,
// ternary, carpet and gauge axes, where the count depends on what the data make of the axes) or
// thousands of items draw promptly with at most the budget's ticks, figures that ask for a sensible
// number keep their own, and the renderer exports the first kind and refuses the second at once.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SIZES } from '@/lib/core/images/images';
import { DRAW_LIMITS, drawGuardScript } from '@/lib/shared/figures/draw-guard';
import { plotlyBrowserScript } from '@/lib/render/plotly-assets';
import { chromiumPath } from '@/lib/render/chromium';
import { FigureError, type ExportJob } from '@/lib/render/render-jobs';
import { Renderer } from '@/lib/render/renderer';
import { CROWDED_FIGURES, line, range, SUBPLOTS_FIGURE, TICK_FIGURES, type Figure } from '../support/hostile-figures';
import { MAGIC } from '../support/image-formats';

/** Figures asking for a sensible number of ticks: drawn as they ask. */
const KEPT: { name: string; figure: Figure; labels: (texts: string[]) => void }[] = [
  {
    name: 'dtick 0.1 over the data 0..2 (autorange)',
    figure: { data: [line([0, 2])], layout: { xaxis: { dtick: 0.1 } } },
    labels: (t) => expect(t).toContain('1.3'),
  },
  {
    name: '50 tickvals with their texts',
    figure: { data: [line([0, 49])], layout: { xaxis: { tickvals: range(50, (i) => i), ticktext: range(50, (i) => `v${i}`) } } },
    labels: (t) => expect(t.filter((x) => /^v\d+$/.test(x)).sort()).toEqual(range(50, (i) => `v${i}`).sort()),
  },
  {
    name: '90 categories, every one labelled',
    figure: { data: [{ type: 'bar', x: range(90, (i) => `c${i}`), y: range(90, (i) => i) }], layout: { xaxis: { dtick: 1 } } },
    labels: (t) => expect(t.filter((x) => /^c\d+$/.test(x))).toHaveLength(90),
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
    figure: {
      data: [
        {
          type: 'heatmap',
          z: [
            [0, 5],
            [1, 2],
          ],
          colorbar: { dtick: 0.5, tickformat: '.1f' },
        },
      ],
    },
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

  /** Tames and draws `figure` as a page does: the tick labels plotly drew. */
  async function draw(figure: Figure): Promise<{ labels: string[]; perAxis: number; gridLines: number }> {
    return page.evaluate(async (fig) => {
      const w = window as unknown as {
        Plotly: { newPlot(...a: unknown[]): Promise<unknown>; purge(el: HTMLElement): void };
        __tameFigure(...a: unknown[]): Promise<Figure>;
      };
      const el = document.createElement('div');
      el.style.cssText = 'width:900px;height:600px';
      document.body.appendChild(el);
      try {
        const tamed = await w.__tameFigure(w.Plotly, fig, 'cut');
        await w.Plotly.newPlot(el, tamed.data, tamed.layout);
        const groups = [...el.querySelectorAll('g')].filter((g) => /tick$/.test(g.getAttribute('class') ?? ''));
        const perClass = new Map<string, number>();
        for (const g of groups) perClass.set(g.getAttribute('class')!, (perClass.get(g.getAttribute('class')!) ?? 0) + 1);
        return {
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

  const PAGE_DRAWN: [string, Figure][] = [
    ...Object.entries(TICK_FIGURES),
    ...Object.entries(CROWDED_FIGURES).map(([name, c]): [string, Figure] => [name, c.figure]),
  ];
  // 180 s bounds a hang only: tamed, the crowded figures still take Chromium a while, longer beside other files.
  it.each(PAGE_DRAWN)(
    '%s: drawn promptly, within the budget',
    async (_, figure) => {
      const drawn = await draw(figure);
      // Untamed, each takes 10 s to minutes, for the ticks and items the budget counts: the counts, not
      // the time on a shared machine, tell that it was tamed.
      // Untamed, up to plotly's own cap of 1,000 an axis; where plotly picks, it may draw a few more
      // than the budget on a long category axis (one a 15 px of it).
      expect(drawn.perAxis).toBeLessThanOrEqual(2 * DRAW_LIMITS.axisTicks);
      expect(drawn.labels.length).toBeLessThanOrEqual(DRAW_LIMITS.figureTicks + 200);
      expect(drawn.gridLines).toBeLessThanOrEqual(DRAW_LIMITS.figureMinorTicks + 200);
    },
    180_000,
  );

  it.each(KEPT)('$name: drawn as asked', async ({ figure, labels }) => {
    const drawn = await draw(figure);
    labels(drawn.labels);
  });

  it('thinned tickvals keep their own texts', async () => {
    const { labels } = await draw(TICK_FIGURES['80,000 tickvals with ticktext']);
    const shown = labels.filter((t) => /^t\d+$/.test(t));
    expect(shown.length).toBeGreaterThan(DRAW_LIMITS.axisTicks / 2);
    expect(shown.length).toBeLessThanOrEqual(DRAW_LIMITS.axisTicks);
    // Labels are every k-th of the values in range, in order: evenly spaced texts.
    const gaps = new Set(
      shown
        .map((t) => Number(t.slice(1)))
        .map((n, i, a) => (i ? n - a[i - 1] : 0))
        .slice(1),
    );
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

  // Untamed, each holds its page until the deadline (a RenderTimeoutError); tamed, it is drawn. The
  // outcome says which, whatever the machine's speed (3D on software WebGL is the slowest tamed).
  it.each(Object.entries(TICK_FIGURES))('%s: exported, not abandoned at its deadline', async (_, figure) => {
    const png = await renderer.exportImage(0, job(figure), Date.now() + 50_000);
    expect(MAGIC.png(png)).toBe(true);
  });

  const REFUSED: [string, Figure, string][] = [
    ...Object.entries(CROWDED_FIGURES).map(([name, c]): [string, Figure, string] => [name, c.figure, c.says]),
    ['101 subplots', SUBPLOTS_FIGURE, 'the figure has 101 subplots'],
  ];
  it.each(REFUSED)('%s: an export is refused at once, saying why', async (_, figure, says) => {
    const error = await renderer.exportImage(0, job(figure), Date.now() + 50_000).catch((e: unknown) => e);
    // The guard's refusal, before drawing (a figure drawn until its deadline is a RenderTimeoutError).
    expect(error).toBeInstanceOf(FigureError);
    expect((error as Error).message).toContain(says);
  });

  // The issue's own, and items cut to the budget.
  const THUMBNAILS: [string, Figure][] = [...Object.entries(TICK_FIGURES).slice(0, 5), ['20,000 annotations', CROWDED_FIGURES['20,000 annotations'].figure]];
  it.each(THUMBNAILS)('%s: its thumbnails are drawn, not abandoned at their deadline', async (_, figure) => {
    const images = await renderer.render(JSON.stringify(figure), figure.layout ?? {}, { timeoutMs: 50_000 });
    expect(images).toHaveLength(IMAGE_SIZES.length);
  });
});
