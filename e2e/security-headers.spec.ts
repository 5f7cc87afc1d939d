// Security headers on every page type: a strict Content-Security-Policy with a fresh script nonce per
// request, which every page passes with no violation once its charts are drawn (WebGL and maps
// included; the `cspViolations` fixture of ./support fails a test on any), nosniff and a referrer
// policy; and frame rules: the embed page may be framed by any site, no other page. The page types
// e2e/a11y.spec.ts loads (gallery, feed, profile, a plot, a grid, sign-in, the API reference, the 404
// and more) have their headers checked there, on the same load (./security-headers.ts); here, the
// pages only this file draws: WebGL, maps and the embed. (The API's headers: tests/http/security-headers.test.ts.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { expectPageHeaders, expectSecurePage } from './security-headers';
import { allPublicPlots, embedPath, expect, expectChartDrawn, expectPageChartsDrawn, plotPath, test, type FileRecord } from './support';

let publicPlots: FileRecord[] | undefined;
/** The public demo plot with a trace of this type and the fewest other types. */
async function demoPlot(request: APIRequestContext, type: string): Promise<FileRecord> {
  publicPlots ??= (await allPublicPlots(request)).filter((p) => ['ada', 'grace', 'linus', 'mae'].includes(p.fid.split(':')[0]));
  const types = (p: FileRecord) => new Set((p.figure?.data ?? []).map((t) => String(t.type ?? 'scatter')));
  const plot = publicPlots.filter((p) => types(p).has(type)).sort((a, b) => types(a).size - types(b).size)[0];
  expect(plot, `a public demo plot with a ${type} trace`).toBeDefined();
  return plot;
}

interface PageType {
  name: string;
  path: (request: APIRequestContext) => Promise<string>;
  status?: number;
  charts?: 'cards' | 'one';
  frameable?: boolean;
}

const PAGES: PageType[] = [
  // WebGL: a 3D scene (stack.gl) and a regl trace (the reason for 'unsafe-eval').
  { name: 'plot (3D)', path: async (request) => plotPath((await demoPlot(request, 'scatter3d')).fid), charts: 'one' },
  { name: 'plot (scattergl)', path: async (request) => plotPath((await demoPlot(request, 'scattergl')).fid), charts: 'one' },
  // A map: outlines from the app's own geo assets script, loaded by plotly's loader ('strict-dynamic').
  { name: 'plot (map)', path: async (request) => plotPath((await demoPlot(request, 'choropleth')).fid), charts: 'one' },
  { name: 'embed', path: async (request) => embedPath((await demoPlot(request, 'scattergl')).fid), charts: 'one', frameable: true },
];

for (const type of PAGES) {
  test(`security headers and no CSP violation: ${type.name} page`, async ({ page, request, cspViolations }) => {
    const res = (await page.goto(await type.path(request)))!;
    expect(res.status()).toBe(type.status ?? 200);
    await expectSecurePage(res, { frameable: type.frameable });

    await expectPageChartsDrawn(page, type.charts);
    if (type.charts === 'one') {
      await expect(page.locator('.plot-figure').first(), 'plotly could not get a WebGL context').not.toContainText('WebGL is not supported');
    }
    expect(cspViolations).toEqual([]);
  });
}

test('every page load gets a new nonce', async ({ request }) => {
  const nonces = new Set<string>();
  for (let i = 0; i < 3; i++) nonces.add(expectPageHeaders((await request.get('/signin')).headers()));
  expect(nonces.size).toBe(3);
});

test('the embed page may be framed by any site in both its URL forms, other pages by none', async ({ request }) => {
  const [owner, n] = (await demoPlot(request, 'scatter')).fid.split(':');
  for (const path of [`/~${owner}/${n}.embed`, `/files/${owner}/${n}/embed`]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expectPageHeaders(res.headers(), true);
  }
  for (const path of [`/~${owner}/${n}/`, `/files/${owner}/${n}`, `/~${owner}/`, '/']) {
    expectPageHeaders((await request.get(path)).headers(), false);
  }
});

test('another site frames the embed page, and cannot frame the plot page', async ({ page, request, baseURL, cspViolations }) => {
  const plot = await demoPlot(request, 'scatter');
  const embed = new URL(embedPath(plot.fid), baseURL).href;
  const plotPage = new URL(plotPath(plot.fid), baseURL).href;
  // The other site: another origin on this machine (Chromium keeps public sites from framing local ones).
  const site: Server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      `<!DOCTYPE html><title>Another site</title><iframe name="embed" src="${embed}" width="640" height="480"></iframe><iframe name="page" src="${plotPage}"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, 'localhost', resolve));
  try {
    const refused = page.waitForEvent('requestfailed', (r) => r.url() === plotPage);
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    await expectChartDrawn(page.frameLocator('iframe[name="embed"]').locator('.plot-figure'));
    expect((await refused).failure()?.errorText).toBe('net::ERR_BLOCKED_BY_RESPONSE');
    expect(page.frame({ name: 'page' })?.url()).not.toBe(plotPage);
    // The one violation here is the refused framing.
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    expect(cspViolations.splice(0)).toEqual([expect.stringContaining(`violates the following Content Security Policy directive: "frame-ancestors 'none'"`)]);
  } finally {
    await new Promise((resolve) => site.close(resolve));
  }
});
