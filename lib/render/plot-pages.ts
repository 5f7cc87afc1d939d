// The pages the renderer draws in: each in a browser context of its own, with the pages' own plotly.js
// loaded and nothing reachable on the network, and the script that draws a figure there.
import 'server-only';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CARD_SCALE, CARD_SIZE, cardFigureScript } from '@/lib/shared/figures/card-figure';
import { DROP_WAIT_MS, within } from './chromium';
import { drawGuardScript } from '@/lib/shared/figures/draw-guard';
import { geoAssetsScript, plotlyBrowserScript } from './plotly-assets';
import type { ExportJob } from './render-jobs';

// Plain JavaScript run in the pages (a string, so no compiler helper leaks into it).
// __renderFigure (thumbnails): toImage draws the figure once in an off-screen element; thumbnails
// are scaled from that image in a canvas, letterboxed with the colour of the chart's own corner; the
// card image is the figure drawn again in its card layout (lib/shared/figures/card-figure.ts).
// __exportFigure (exports): the figure as SVG at its drawing size with the output size set on the
// root (plotly's own scaling does the same, but leaves fractional sizes); rasters are that SVG
// drawn into a canvas of exactly the output size. It answers {error} for a figure plotly refuses,
// so a thrown error always means the page itself failed.
const DRAW_GUARD_SCRIPT = `${drawGuardScript()}\n${cardFigureScript()}`;

const PAGE_SCRIPT = `
window.__renderFigure = async function (text, w, h, boxes, card) {
  var fig = await window.__tameFigure(Plotly, JSON.parse(text), 'cut');
  var layout = Object.assign({}, fig.layout, { width: w, height: h, autosize: false });
  var url = await Plotly.toImage(
    { data: fig.data || [], layout: layout, frames: fig.frames, config: { displayModeBar: false } },
    { format: 'png', width: w, height: h }
  );
  var img = new Image();
  img.src = url;
  await img.decode();
  var probe = document.createElement('canvas').getContext('2d');
  probe.drawImage(img, 0, 0, 1, 1, 0, 0, 1, 1);
  var px = probe.getImageData(0, 0, 1, 1).data;
  var out = [url];
  for (var i = 0; i < boxes.length; i++) {
    var bw = boxes[i][0], bh = boxes[i][1];
    var canvas = document.createElement('canvas');
    canvas.width = bw;
    canvas.height = bh;
    var ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgba(' + px[0] + ',' + px[1] + ',' + px[2] + ',' + px[3] / 255 + ')';
    ctx.fillRect(0, 0, bw, bh);
    var s = Math.min(bw / w, bh / h), dw = Math.round(w * s), dh = Math.round(h * s);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, Math.round((bw - dw) / 2), Math.round((bh - dh) / 2), dw, dh);
    out.push(canvas.toDataURL('image/png'));
  }
  var shown = window.__cardFigure(fig, card[0], card[1]);
  out.push(await Plotly.toImage(
    { data: shown.data, layout: shown.layout, config: { displayModeBar: false } },
    { format: 'png', width: card[0], height: card[1], scale: card[2] }
  ));
  return out.map(function (u) { return u.slice(u.indexOf(',') + 1); });
};
window.__exportFigure = async function (text, w, h, outW, outH, format) {
  var svg;
  try {
    var fig = await window.__tameFigure(Plotly, JSON.parse(text), 'refuse');
    var layout = Object.assign({}, fig.layout, { width: w, height: h, autosize: false });
    svg = await Plotly.toImage(
      { data: fig.data || [], layout: layout, config: { displayModeBar: false } },
      { format: 'svg', width: w, height: h, imageDataOnly: true }
    );
  } catch (e) {
    return { error: String((e && e.message) || e).slice(0, 500) };
  }
  var root = /^<svg[^>]*>/.exec(svg);
  if (!root || !/ width="[^"]*"/.test(root[0]) || !/ height="[^"]*"/.test(root[0])) throw new Error('unexpected SVG from plotly');
  var sized = root[0].replace(/ width="[^"]*"/, ' width="' + outW + '"').replace(/ height="[^"]*"/, ' height="' + outH + '"');
  if (!/ viewBox=/.test(sized)) sized = sized.replace(/^<svg/, '<svg viewBox="0 0 ' + w + ' ' + h + '"');
  svg = sized + svg.slice(root[0].length);
  if (format === 'svg') return { data: svg };
  var url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    var img = new Image();
    img.src = url;
    await img.decode();
    var canvas = document.createElement('canvas');
    canvas.width = outW;
    canvas.height = outH;
    canvas.getContext('2d').drawImage(img, 0, 0, outW, outH);
    var data = canvas.toDataURL('image/' + format);
    if (data.indexOf('data:image/' + format + ';') !== 0) throw new Error('this browser cannot encode ' + format);
    return { data: data.slice(data.indexOf(',') + 1) };
  } finally {
    URL.revokeObjectURL(url);
  }
};
`;

/** A page in a context of its own with plotly.js loaded and nothing reachable on the network. */
export async function plotPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  try {
    // Figures arrive with their data inlined: nothing is fetched, so nothing can leak or hang on the network.
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await page.addScriptTag({ content: await plotlyBrowserScript() });
    await page.addScriptTag({ content: `${DRAW_GUARD_SCRIPT}\n${PAGE_SCRIPT}` });
    return { context, page };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}

// The map outlines are as large as plotly.js and take as long to load: a page loads them before
// its first geo map, not before every figure.
const outlined = new WeakMap<Page, Promise<void>>();

/** Loads plotly's map outlines into `page` (once). */
export function withMapOutlines(page: Page): Promise<void> {
  let loading = outlined.get(page);
  if (!loading) {
    const started = geoAssetsScript().then((content) => page.addScriptTag({ content }).then(() => {}));
    started.catch(() => {
      if (outlined.get(page) === started) outlined.delete(page);
    });
    outlined.set(page, started);
    loading = started;
  }
  return loading;
}

/** Whether `page` can make a WebGL context (given back at once), within a few seconds. */
export function webglWorks(page: Page): Promise<boolean> {
  const probe = page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return gl !== null;
  });
  return within(DROP_WAIT_MS, probe, false).catch(() => false);
}

/** The figure's default image and thumbnails in `boxes` (then its card), drawn on `page`: base64 PNGs. */
export function drawThumbnails(page: Page, figureText: string, width: number, height: number, boxes: (readonly [number, number])[]): Promise<string[]> {
  return page.evaluate(([text, w, h, b, c]) => (window as unknown as { __renderFigure(...a: unknown[]): Promise<string[]> }).__renderFigure(text, w, h, b, c), [
    figureText,
    width,
    height,
    boxes,
    [...CARD_SIZE, CARD_SCALE],
  ] as const);
}

/** An export drawn on `page`: base64 for rasters, text for SVG (a PDF is drawn as SVG, then printed); {error} for a figure plotly refuses. */
export function drawExport(page: Page, job: ExportJob): Promise<{ data: string } | { error: string }> {
  return page.evaluate(
    ([text, w, h, ow, oh, format]) =>
      (window as unknown as { __exportFigure(...a: unknown[]): Promise<{ data: string } | { error: string }> }).__exportFigure(text, w, h, ow, oh, format),
    [job.figureText, job.width, job.height, job.outWidth, job.outHeight, job.format === 'pdf' ? 'svg' : job.format] as const,
  );
}

/** A page with JavaScript off and nothing reachable, to print an SVG from. */
export async function printerPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.route('**/*', (route) => route.abort());
  return { context, page: await context.newPage() };
}

/** The SVG as a vector PDF of its own size: Chromium prints `page` holding it. */
export async function printPdf(page: Page, svg: string, width: number, height: number): Promise<Buffer> {
  await page.setContent(
    `<!doctype html><html><head><meta charset="utf-8"><title>Plot</title><style>@page{size:${width}px ${height}px;margin:0}html,body{margin:0;padding:0}svg{display:block}</style></head><body>${svg}</body></html>`,
  );
  return page.pdf({ width: `${width}px`, height: `${height}px`, printBackground: true, pageRanges: '1' });
}
