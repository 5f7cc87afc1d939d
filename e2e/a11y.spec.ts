// Accessibility (axe-core, WCAG 2 A and AA rules) on every page type, each after its charts drew,
// with a full-page screenshot of each attached to the report (and kept under test-results/); on the
// same load, the page's security headers (./security-headers.ts; the no-CSP-violation check is every test's).
import AxeBuilder from '@axe-core/playwright';
import {
  allPublicPlots,
  basicAuth,
  commentOn,
  createGrid,
  createPlot,
  E2E_USER,
  embedPath,
  expect,
  expectPageChartsDrawn,
  invitationLinks,
  OTHER_USER,
  pathOf,
  plotPath,
  signIn,
  starOf,
  test,
  type FileRecord,
} from './support';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expectSecurePage } from './security-headers';

interface PageType {
  name: string;
  path: (request: APIRequestContext) => Promise<string>;
  status?: number;
  /** What the page draws: plot cards (each chart drawn as it scrolls in), or one chart. */
  charts?: 'cards' | 'one';
  /** Seen signed in (as the e2e user). */
  signedIn?: boolean;
  /** Any site may frame it (the embed). */
  frameable?: boolean;
  /** A plain page with no script. */
  scriptless?: boolean;
}

let publicPlots: FileRecord[] | undefined;
const demoPlot = async (request: APIRequestContext) => {
  publicPlots ??= await allPublicPlots(request);
  return publicPlots.find((p) => p.fid.startsWith('ada:') && p.figure?.data.some((t) => t.type === 'scatter')) ?? publicPlots[0];
};

const PAGES: PageType[] = [
  // Most viewed first: the demo plots (other tests fill the newest-first page with plots of their own).
  { name: 'gallery', path: async () => '/?order_by=-views', charts: 'cards' },
  { name: 'feed', path: async () => '/feed', charts: 'cards' },
  { name: 'search', path: async () => '/search?q=ada', charts: 'cards' },
  { name: 'search, no results', path: async () => '/search?q=nothingmatchesthis' },
  { name: 'profile', path: async () => '/~ada/', charts: 'cards' },
  { name: 'plot', path: async (request) => plotPath((await demoPlot(request)).fid), charts: 'one' },
  {
    name: 'grid',
    path: async (request) =>
      pathOf((await createGrid(request, { city: ['Oslo', 'Lima', 'Pune'], people: [709, 10_300, 7_200] }, { filename: `a11y grid ${Date.now()}` })).web_url),
  },
  { name: 'embed', path: async (request) => embedPath((await demoPlot(request)).fid), charts: 'one', frameable: true },
  { name: 'data table', path: async (request) => `${plotPath((await demoPlot(request)).fid)}data-table` },
  { name: 'signin', path: async () => '/signin' },
  // With an invitation (sign-up is closed in the browser tests); opening it does not use it.
  { name: 'signup', path: async () => invitationLinks()[2] },
  // A refused sign-up: the error at its field (the forgot and reset forms: e2e/password-reset.spec.ts).
  { name: 'signup, refused', path: async () => `${invitationLinks()[2]}&error=username-taken` },
  { name: 'reset link that no longer works', path: async () => '/reset-password?token=no-such-token', status: 410, scriptless: true },
  { name: 'settings', path: async () => '/settings', signedIn: true },
  { name: 'new chart', path: async () => '/create', signedIn: true },
  { name: 'api reference', path: async () => '/docs/api' },
  { name: 'not-found', path: async () => '/~ada/999999/', status: 404 },
  // Stars and comments, seen by a signed-in reader with a comment of their own (edit and delete).
  { name: 'plot with comments', path: commentedPlot, charts: 'one', signedIn: true },
  // A demo plot starred (its card draws as the demo cards do), beside a new one with comments.
  {
    name: 'profile, starred',
    path: async (request) => {
      await starOf(request, (await demoPlot(request)).fid, E2E_USER);
      await commentedPlot(request);
      return `/~${E2E_USER.username}/?tab=starred`;
    },
    charts: 'cards',
    signedIn: true,
  },
];

async function commentedPlot(request: APIRequestContext): Promise<string> {
  const plot = await createPlot(request, { user: OTHER_USER, title: `a11y comments ${Date.now()}` });
  await commentOn(request, plot.fid, `A first line\nand a second with https://example.org/a and ${'long'.repeat(80)}`, OTHER_USER);
  await commentOn(request, plot.fid, '<script>window.__pwned=1</script> is only text', E2E_USER);
  await starOf(request, plot.fid, E2E_USER);
  return plotPath(plot.fid);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name} page`, { path: file, contentType: 'image/png' });
}

for (const type of PAGES) {
  test(`accessibility and screenshot: ${type.name} page`, async ({ page, request }, testInfo) => {
    // axe reads every node of the page: the API reference's thousands take it most of a minute on a busy machine.
    test.slow();
    if (type.signedIn) await signIn(page);
    const res = await page.goto(await type.path(request));
    expect(res?.status()).toBe(type.status ?? 200);
    await expectSecurePage(res!, type);
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

for (const type of PAGES) {
  test(`fits a phone: the ${type.name} page has no sideways scroll at 390 px`, async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    if (type.signedIn) await signIn(page);
    await page.goto(await type.path(request));
    await expectPageChartsDrawn(page, type.charts);
    const wide = await page.evaluate(() =>
      document.documentElement.scrollWidth > window.innerWidth
        ? [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`)
        : [],
    );
    expect(wide, `what sticks out of the ${type.name} page at 390 px`).toEqual([]);
  });
}

// The owner's own pages (signed in as e2e): the workspace with a folder, private and secret files and a
// row's forms open; the trash; a plot's page with its owner forms.
const OWNER_PAGES: { name: string; path: (request: APIRequestContext) => Promise<string> }[] = [
  { name: 'workspace', path: async (request) => `/~e2e/?folder=${(await ownerFolder(request)).n}` },
  {
    name: 'trash',
    path: async (request) => {
      await ownerFolder(request);
      return '/~e2e/?view=trash';
    },
  },
  { name: 'own plot', path: async (request) => plotPath((await ownerFolder(request)).plot) },
  { name: 'workspace, grids by name', path: async (request) => `/~e2e/?folder=${(await ownerFolder(request)).n}&type=grid&sort=name` },
  { name: "workspace, a grid's plots", path: async (request) => `/~e2e/?uses=${(await ownerFolder(request)).grid}` },
  {
    name: 'trash, empty confirmation',
    path: async (request) => {
      await ownerFolder(request);
      return '/~e2e/?view=trash&empty=confirm';
    },
  },
];

let folder: Promise<{ n: number; plot: string; grid: number }> | undefined;
/** A folder of e2e's holding a sub-folder, a private, a secret and a public plot, a grid two of them draw from; and a plot in the trash. */
function ownerFolder(request: APIRequestContext) {
  folder ??= (async () => {
    const headers = { Authorization: basicAuth(E2E_USER) };
    const name = `a11y ${Date.now()}`;
    const made = await request.post('/v2/folders', { headers, data: { path: name } });
    const n = Number((await made.json()).file.fid.split(':')[1]);
    await request.post('/v2/folders', { headers, data: { path: `${name}/inner` } });
    const plots = [];
    for (const visibility of ['private', 'secret', 'public'] as const) {
      const plot = await createPlot(request, { visibility, title: `a11y ${visibility} plot` });
      await request.patch(`/v2/files/${plot.fid}`, { headers, data: { parent: n } });
      plots.push(plot.fid);
    }
    const grid = await createGrid(request, { x: [1, 2, 3], y: [2, 4, 3] }, { filename: `a11y data ${Date.now()}`, worldReadable: false });
    await request.patch(`/v2/files/${grid.fid}`, { headers, data: { parent: n } });
    for (const title of ['a11y plot on data', 'a11y other plot on data']) {
      const figure = { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc: grid.src('y') }] };
      await request.post('/v2/plots', { headers, data: { title, world_readable: false, parent_path: name, figure } });
    }
    const trashed = await createPlot(request, { visibility: 'private', title: 'a11y trashed plot' });
    await request.post(`/v2/files/${trashed.fid}/trash`, { headers });
    return { n, plot: plots[0], grid: Number(grid.fid.split(':')[1]) };
  })();
  return folder;
}

for (const type of OWNER_PAGES) {
  test(`accessibility and screenshot: ${type.name} page (its owner signed in)`, async ({ page, request }, testInfo) => {
    await signIn(page);
    const res = await page.goto(await type.path(request));
    expect(res?.status()).toBe(200);
    // A row's forms open, so they are judged too.
    const summary = page.locator('details.file-manage summary').first();
    if (type.name.startsWith('workspace')) await summary.click();
    if (type.name === 'own plot') await expectPageChartsDrawn(page, 'one');
    await screenshot(page, testInfo, type.name);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const summaryOf = results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
    if (summaryOf.length) await testInfo.attach(`${type.name} axe violations`, { body: JSON.stringify(summaryOf, null, 2), contentType: 'application/json' });
    expect(summaryOf, `axe violations on the ${type.name} page`).toEqual([]);
  });
}

for (const type of OWNER_PAGES) {
  test(`fits a phone: the ${type.name} page (its owner signed in) has no sideways scroll at 390 px`, async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto(await type.path(request));
    if (type.name.startsWith('workspace')) await page.locator('details.file-manage summary').first().click();
    const wide = await page.evaluate(() =>
      document.documentElement.scrollWidth > window.innerWidth
        ? [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`)
        : [],
    );
    expect(wide, `what sticks out of the ${type.name} page at 390 px`).toEqual([]);
  });
}
