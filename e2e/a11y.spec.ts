// Accessibility (axe-core, WCAG 2 A and AA rules) on every page type, each after its charts drew,
// with a full-page screenshot of each attached to the report (and kept under test-results/).
import AxeBuilder from '@axe-core/playwright';
import { allPublicPlots, createGrid, embedPath, expect, expectPageChartsDrawn, pathOf, plotPath, test, type FileRecord } from './support';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';

interface PageType {
  name: string;
  path: (request: APIRequestContext) => Promise<string>;
  status?: number;
  /** What the page draws: plot cards (each chart drawn as it scrolls in), or one chart. */
  charts?: 'cards' | 'one';
}

let publicPlots: FileRecord[] | undefined;
const demoPlot = async (request: APIRequestContext) => {
  publicPlots ??= await allPublicPlots(request);
  return publicPlots.find((p) => p.fid.startsWith('ada:') && p.figure?.data.some((t) => t.type === 'scatter')) ?? publicPlots[0];
};

const PAGES: PageType[] = [
  { name: 'gallery', path: async () => '/', charts: 'cards' },
  { name: 'feed', path: async () => '/feed', charts: 'cards' },
  { name: 'profile', path: async () => '/~ada/', charts: 'cards' },
  { name: 'plot', path: async (request) => plotPath((await demoPlot(request)).fid), charts: 'one' },
  {
    name: 'grid',
    path: async (request) => pathOf((await createGrid(request, { city: ['Oslo', 'Lima', 'Pune'], people: [709, 10_300, 7_200] }, { filename: `a11y grid ${Date.now()}` })).web_url),
  },
  { name: 'embed', path: async (request) => embedPath((await demoPlot(request)).fid), charts: 'one' },
  { name: 'signin', path: async () => '/signin' },
  { name: 'api reference', path: async () => '/docs/api' },
  { name: 'not-found', path: async () => '/~ada/999999/', status: 404 },
];

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name} page`, { path: file, contentType: 'image/png' });
}

for (const type of PAGES) {
  test(`accessibility and screenshot: ${type.name} page`, async ({ page, request }, testInfo) => {
    const res = await page.goto(await type.path(request));
    expect(res?.status()).toBe(type.status ?? 200);
    // Judge (and picture) the finished page: charts drawn.
    await expectPageChartsDrawn(page, type.charts);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, testInfo, type.name);

    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const summary = results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
    }));
    if (summary.length) await testInfo.attach(`${type.name} axe violations`, { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });
    expect(summary, `axe violations on the ${type.name} page`).toEqual([]);
  });
}
