// A hostile figure drawn in Debian's Chromium with the pages' own plotly.js, on a page of an http
// origin as a visitor's: drawn as it is, its text makes the browser request an address of the
// author's choosing (the check works); through the draw guard (every drawing's way in: pages, cards,
// the editor's preview, the renderer), no request leaves the page and the looks authors ask for stay.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawGuardScript } from '@/lib/shared/figures/draw-guard';
import { plotlyBrowserScript } from '@/lib/render/plotly-assets';
import { chromiumPath } from '@/lib/render/chromium';

const ORIGIN = 'http://plots.test';
const TARGET = '/~someone/3/';
const HOSTILE_TEXT = [
  `<span style="background:url(${TARGET}a)">title</span>`,
  `<span style="fill:url(${TARGET}b#p)">fill</span>`,
  `<b style='background-image:image-set("${TARGET}c" 1x)'>b</b>`,
  `<span style="background:&#117;rl(${TARGET}d)">d</span>`,
  `<SPAN STYLE="BACKGROUND:URL(${TARGET}e)">e</SPAN>`,
];

const hostileFigure = () => ({
  data: [
    {
      type: 'bar',
      x: [HOSTILE_TEXT[1], 'b'],
      y: [1, 2],
      text: [HOSTILE_TEXT[2], HOSTILE_TEXT[3]],
      textposition: 'inside',
      name: HOSTILE_TEXT[4],
      texttemplate: '<span %{customdata}>%{y}</span>',
      customdata: [`style="background:url(${TARGET}f)"`, ''],
    },
  ],
  layout: {
    title: { text: HOSTILE_TEXT[0] },
    showlegend: true,
    annotations: [{ text: HOSTILE_TEXT[0].replace('a)', 'g)'), x: 0, y: 1, xref: 'paper', yref: 'paper' }],
    images: [{ source: `${TARGET}h.png`, x: 0, y: 1, sizex: 0.2, sizey: 0.2, xref: 'paper', yref: 'paper' }],
  },
});

describe('figure text in the browser', () => {
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/')
        return route.fulfill({ contentType: 'text/html', body: '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>' });
      requested.push(url.pathname);
      return route.fulfill({ status: 404, body: '' });
    });
    await page.goto(`${ORIGIN}/`);
    await page.addScriptTag({ content: await plotlyBrowserScript() });
    await page.addScriptTag({ content: drawGuardScript() });
  });
  afterAll(() => browser?.close());

  /** Draws `figure` (through the guard or as it is) in a fresh element; the page's requests and the drawn SVG. */
  async function draw(guarded: boolean): Promise<{ requests: string[]; svg: string }> {
    requested.length = 0;
    const svg = await page.evaluate(
      async ([fig, guarded]) => {
        const w = window as unknown as {
          Plotly: { newPlot(el: HTMLElement, d: unknown, l: unknown): Promise<unknown>; purge(el: HTMLElement): void };
          __tameFigure(P: unknown, f: unknown, o: string): Promise<{ data: unknown; layout: unknown }>;
        };
        const el = document.createElement('div');
        el.style.cssText = 'width:800px;height:600px';
        document.body.appendChild(el);
        const f = guarded ? await w.__tameFigure(w.Plotly, fig, 'cut') : (fig as { data: unknown; layout: unknown });
        await w.Plotly.newPlot(el, f.data, f.layout);
        // Let the browser style, lay out and paint what was drawn (requests for styles start then).
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        await new Promise((r) => setTimeout(r, 200));
        const html = el.innerHTML;
        w.Plotly.purge(el);
        el.remove();
        return html;
      },
      [hostileFigure(), guarded] as const,
    );
    // Requests in flight have reached the route by the time the page answers a round trip.
    await page.evaluate(() => fetch('/').then((r) => r.text()));
    return { requests: requested.filter((p) => p.startsWith(TARGET)), svg };
  }

  it('drawn as it is, the figure makes the visitor request the author-chosen address (the check sees it)', async () => {
    const { requests, svg } = await draw(false);
    expect(svg).toContain(`url(${TARGET}`);
    expect(requests.length).toBeGreaterThan(0);
  });

  it('through the draw guard, no request leaves the page and no style in the drawing names an address', async () => {
    const { requests, svg } = await draw(true);
    expect(requests).toEqual([]);
    // plotly's own clip paths are url(#...) references inside the drawing.
    expect(svg).not.toMatch(/url\((?!#clip|#legend)|image-set|~someone/i);
    expect(svg).toContain('title');
    expect(svg).toContain('fill');
  });

  it("applies the figure's data steps first (plotly 4 has no transforms), the text rules holding for what they make", async () => {
    const figure = {
      data: [
        {
          type: 'bar',
          x: ['a', HOSTILE_TEXT[1], 'a'],
          y: [1, 2, 3],
          transforms: [
            { type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'sum' }] },
            { type: 'sort', target: 'y', order: 'descending' },
          ],
        },
      ],
      layout: {},
    };
    const drawn = await page.evaluate(async (fig) => {
      const w = window as unknown as {
        Plotly: { newPlot(el: HTMLElement, d: unknown, l: unknown): Promise<unknown>; purge(el: HTMLElement): void };
        __tameFigure(P: unknown, f: unknown, o: string): Promise<{ data: unknown; layout: unknown }>;
      };
      const el = document.createElement('div');
      document.body.appendChild(el);
      const f = await w.__tameFigure(w.Plotly, fig, 'cut');
      await w.Plotly.newPlot(el, f.data, f.layout);
      const t = (el as unknown as { _fullData: { x: string[]; y: number[]; transforms?: unknown }[] })._fullData[0];
      const out = { x: t.x.map((v) => v.includes('url(')), y: [...t.y], transforms: 'transforms' in (f.data as object[])[0] };
      w.Plotly.purge(el);
      el.remove();
      return out;
    }, figure);
    expect(drawn).toEqual({ x: [false, false], y: [4, 2], transforms: false });
  });

  it('keeps the looks authors ask for: colours, sizes, bold', async () => {
    const figure = { data: [{ type: 'bar', x: ['a'], y: [1] }], layout: { title: { text: '<span style="color:red;font-size:30px">Red</span> <b>bold</b>' } } };
    const styles = await page.evaluate(async (fig) => {
      const w = window as unknown as {
        Plotly: { newPlot(el: HTMLElement, d: unknown, l: unknown): Promise<unknown>; purge(el: HTMLElement): void };
        __tameFigure(P: unknown, f: unknown, o: string): Promise<{ data: unknown; layout: unknown }>;
      };
      const el = document.createElement('div');
      document.body.appendChild(el);
      const f = await w.__tameFigure(w.Plotly, fig, 'cut');
      await w.Plotly.newPlot(el, f.data, f.layout);
      const out = [...el.querySelectorAll('.gtitle tspan')].map((t) => t.getAttribute('style') ?? '');
      w.Plotly.purge(el);
      el.remove();
      return out;
    }, figure);
    expect(styles.join(' ')).toMatch(/fill:\s*red/);
    expect(styles.join(' ')).toMatch(/font-size:\s*30px/);
    expect(styles.join(' ')).toMatch(/font-weight:\s*bold/);
  });
});
