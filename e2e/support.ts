// Shared by the browser tests: the test users (created by e2e/server.sh), an API client that makes
// plots the way the Python/R clients do (grid first, then a plot on src references), and fixtures
// that keep every page offline (any request to a non-local host is blocked and fails the test) and
// within the pages' Content-Security-Policy (any violation fails the test).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type BrowserContext, type Locator, type Page, type TestInfo } from '@playwright/test';

export { expect };

export interface TestUser {
  username: string;
  apiKey: string;
}

/** Created by e2e/server.sh before the server starts (keys must match). */
export const E2E_USER: TestUser = { username: 'e2e', apiKey: 'e2e-browser-tests-key-0123456789' };
export const OTHER_USER: TestUser = { username: 'e2eother', apiKey: 'e2e-other-user-key-9876543210' };

export const basicAuth = (user: TestUser) => `Basic ${Buffer.from(`${user.username}:${user.apiKey}`).toString('base64')}`;

export const HOSTILE_TITLES = ['<script>window.__pwned=1</script>', '<img src=x onerror="window.__pwned=1">'] as const;

/** A short unique suffix for file names (tests run in parallel on one database). */
export const unique = () => randomBytes(4).toString('hex');

export interface FileRecord {
  fid: string;
  filename: string;
  title?: string;
  web_url: string;
  embed_url?: string;
  image_urls: { default: string; 'block-thumb': string; 'list-thumb': string };
  share_key?: string | null;
  share_url?: string | null;
  world_readable: boolean;
  views?: number;
  creation_time: string;
  figure?: { data: Record<string, unknown>[]; layout?: Record<string, unknown> };
  cols?: { name: string; uid: string }[];
}

async function json<T>(res: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  const text = await res.text();
  expect(res.ok(), `${what}: HTTP ${res.status()} ${text.slice(0, 500)}`).toBe(true);
  return JSON.parse(text) as T;
}

/** POST /v2/grids: columns in order; returns the grid record (with column uids). */
export async function createGrid(
  request: APIRequestContext,
  cols: Record<string, unknown[]>,
  opts: { user?: TestUser; filename?: string; worldReadable?: boolean } = {},
): Promise<FileRecord & { src: (name: string) => string }> {
  const user = opts.user ?? E2E_USER;
  const body = {
    filename: opts.filename ?? `grid ${unique()}`,
    world_readable: opts.worldReadable ?? true,
    data: { cols: Object.fromEntries(Object.entries(cols).map(([name, data], order) => [name, { data, order }])) },
  };
  const { file } = await json<{ file: FileRecord }>(
    await request.post('/v2/grids', { headers: { Authorization: basicAuth(user) }, data: body }),
    'POST /v2/grids',
  );
  const uid = new Map(file.cols!.map((c) => [c.name, c.uid]));
  return { ...file, src: (name: string) => `${file.fid}:${uid.get(name)}` };
}

export interface NewPlot {
  user?: TestUser;
  title?: string;
  filename?: string;
  /** public (default), private, or secret (private with a share key). */
  visibility?: 'public' | 'private' | 'secret';
}

/** A small bar + line chart on its own grid, created through the API. */
export async function createPlot(request: APIRequestContext, opts: NewPlot = {}): Promise<FileRecord> {
  const user = opts.user ?? E2E_USER;
  const visibility = opts.visibility ?? 'public';
  const grid = await createGrid(request, { x: ['a', 'b', 'c', 'd'], y: [3, 1, 4, 1], z: [2, 7, 1, 8] }, { user, worldReadable: visibility === 'public' });
  const body = {
    filename: opts.filename ?? `e2e plot ${unique()}`,
    ...(opts.title !== undefined ? { title: opts.title } : {}),
    world_readable: visibility === 'public',
    share_key_enabled: visibility === 'secret',
    figure: {
      data: [
        { type: 'bar', name: 'bars', xsrc: grid.src('x'), ysrc: grid.src('y') },
        { type: 'scatter', mode: 'lines+markers', name: 'line', xsrc: grid.src('x'), ysrc: grid.src('z') },
      ],
      layout: { xaxis: { title: { text: 'letter' } }, yaxis: { title: { text: 'value' } } },
    },
  };
  const { file } = await json<{ file: FileRecord }>(
    await request.post('/v2/plots', { headers: { Authorization: basicAuth(user) }, data: body }),
    'POST /v2/plots',
  );
  return file;
}

export async function trashPlot(request: APIRequestContext, fid: string, user: TestUser = E2E_USER): Promise<void> {
  const res = await request.post(`/v2/plots/${fid}/trash`, { headers: { Authorization: basicAuth(user) } });
  expect(res.ok(), `trash ${fid}: HTTP ${res.status()} ${await res.text()}`).toBe(true);
}

/** POST /v2/plots/{fid}/comments as `user`: the comment. */
export async function commentOn(request: APIRequestContext, fid: string, text: string, user: TestUser = E2E_USER): Promise<{ id: number; text: string }> {
  return json(await request.post(`/v2/plots/${fid}/comments`, { headers: { Authorization: basicAuth(user) }, data: { text } }), `comment on ${fid}`);
}

/** POST /v2/files/{fid}/stars as `user`. */
export async function starOf(request: APIRequestContext, fid: string, user: TestUser = E2E_USER): Promise<void> {
  await json(await request.post(`/v2/files/${fid}/stars`, { headers: { Authorization: basicAuth(user) } }), `star ${fid}`);
}

export async function getPlotRecord(request: APIRequestContext, fid: string): Promise<FileRecord> {
  return json<FileRecord>(await request.get(`/v2/plots/${fid}`), `GET /v2/plots/${fid}`);
}

/** Every public plot, walking the API's pages (`next` links). */
export async function allPublicPlots(request: APIRequestContext, query = ''): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  let url: string | null = `/v2/plots?page_size=100${query}`;
  while (url) {
    const page: { next: string | null; results: FileRecord[] } = await json(await request.get(url), `GET ${url}`);
    out.push(...page.results);
    url = page.next;
  }
  return out;
}

export async function allFeedPlots(request: APIRequestContext): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  let url: string | null = '/v2/plots/feed?page_size=100';
  while (url) {
    const page: { next: string | null; results: FileRecord[] } = await json(await request.get(url), `GET ${url}`);
    out.push(...page.results);
    url = page.next;
  }
  return out;
}

/** The path of a file's page, from its web_url (which carries the server's own origin). */
export const pathOf = (webUrl: string) => {
  const u = new URL(webUrl);
  return u.pathname + u.search;
};
/** `/~owner/n.embed` for a fid. */
export const embedPath = (fid: string) => {
  const [owner, n] = fid.split(':');
  return `/~${owner}/${n}.embed`;
};
export const plotPath = (fid: string) => {
  const [owner, n] = fid.split(':');
  return `/~${owner}/${n}/`;
};

/** Digits of a count as shown ("1,234 views" -> 1234). */
export function countOf(text: string | null): number {
  const digits = (text ?? '').replace(/[^\d]/g, '');
  expect(digits, `a number in ${JSON.stringify(text)}`).not.toBe('');
  return Number(digits);
}

/**
 * A chart that plotly really drew: the container says `drawn` and holds plotly's main SVG or a
 * WebGL canvas with a real size, not just an empty div. (Card previews of WebGL charts are
 * snapshotted by plotly's toImage into `img.plot-figure-snapshot`, a decoded PNG of the drawing,
 * which counts too.)
 */
export async function expectChartDrawn(figure: Locator, timeout = 30_000): Promise<void> {
  await figure.scrollIntoViewIfNeeded({ timeout });
  await expect(figure).toHaveAttribute('data-chart-state', 'drawn', { timeout });
  const surface = figure.locator('svg.main-svg, canvas, img.plot-figure-snapshot').first();
  await expect(surface).toBeVisible();
  const box = await surface.boundingBox();
  expect(box && box.width > 40 && box.height > 40, `chart surface has a size (${JSON.stringify(box)})`).toBe(true);
  if ((await surface.evaluate((e) => e.tagName)) === 'IMG') {
    const image = await surface.evaluate((e) => ({ src: (e as HTMLImageElement).src.slice(0, 22), w: (e as HTMLImageElement).naturalWidth }));
    expect(image.src, 'a snapshot plotly made').toBe('data:image/png;base64,');
    expect(image.w, 'a decoded snapshot').toBeGreaterThan(40);
  }
}

/** A card's live chart, drawn when asked for: the pointer resting on its image. */
export async function expectCardDrawn(card: Locator, timeout = 30_000): Promise<void> {
  await card.scrollIntoViewIfNeeded({ timeout });
  const button = card.locator('button.plot-card-live');
  // A chart already asked for has its button out of the pointer's way; the pointer resting where the
  // page scrolled may ask for it meanwhile (then the hover cannot land, and need not).
  if ((await button.getAttribute('aria-disabled', { timeout })) !== 'true') {
    await button.hover({ timeout: 5_000 }).catch(async (error: unknown) => {
      if ((await button.getAttribute('aria-disabled')) !== 'true') throw error;
    });
  }
  await expectChartDrawn(card.locator('.plot-figure'), timeout);
}

/** Cards' fids in page order. */
export async function cardFids(page: Page): Promise<string[]> {
  return page.locator('article.plot-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-fid') ?? ''));
}

/**
 * Back on a page seen before: the same cards, allowing for the few plots other tests create or trash
 * meanwhile at the top of the newest-first list (keyset paging keeps the page's end fixed).
 */
export function expectSamePage(now: string[], before: string[]): void {
  expect(now.length, 'cards on the page').toBe(before.length);
  expect(now[now.length - 1], 'the page ends with the same card').toBe(before[before.length - 1]);
  const kept = now.filter((f) => before.includes(f)).length;
  expect(kept, `cards in common with the page before (${now.join(', ')} vs ${before.join(', ')})`).toBeGreaterThanOrEqual(before.length - 3);
}

/** Views shown on the cards, in page order. */
export async function cardViews(page: Page): Promise<number[]> {
  const texts = await page.locator('article.plot-card span.views').allTextContents();
  return texts.map(countOf);
}

/**
 * Signs in with the sign-in form's own request (POST /signin/submit from this site, as the form
 * sends it), in the page's context so the page has the session; the page stays where it was. The
 * form itself is tested where it is the point (accounts, password reset): rendering it and the page
 * after it for every test cost seconds each.
 */
export async function signIn(page: Page, user: TestUser = E2E_USER): Promise<void> {
  const origin = new URL(String(test.info().project.use.baseURL)).origin;
  const res = await page.context().request.post('/signin/submit', {
    form: { username: user.username, password: user.apiKey, next: '/settings' },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(res.status(), `sign-in of ${user.username}`).toBe(303);
  expect(res.headers().location, `sign-in of ${user.username}`).toMatch(/\/settings$/);
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign out' })).toHaveCount(0);
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

interface Fixtures {
  /** Requests the page tried to make to non-local hosts (all blocked; any fails the test). */
  externalRequests: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** Content-Security-Policy violations on the page (any fails the test). */
  cspViolations: string[];
}

/** Blocks every request to a non-local host; returns the list of those attempted. */
export async function offlineGuard(context: BrowserContext): Promise<string[]> {
  const attempted: string[] = [];
  await context.route(
    (url) => !LOCAL_HOSTS.has(url.hostname),
    (route) => {
      attempted.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return attempted;
}

/**
 * The page's Content-Security-Policy violations, as they happen: the `securitypolicyviolation` events
 * of every document and frame it loads (the only report of a refused eval, which Chromium no longer
 * logs on the console) and the console's CSP errors (which also cover workers). Call before the
 * page's first navigation.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__reportCspViolation', (violation: string) => seen.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation(v: string): void }).__reportCspViolation;
      report(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} on ${e.documentURI}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

export const test = base.extend<Fixtures>({
  externalRequests: [
    async ({ context }, use) => {
      const attempted = await offlineGuard(context);
      await use(attempted);
      expect(attempted, 'the page must not reach for other hosts (it has to work offline)').toEqual([]);
    },
    { auto: true },
  ],
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e.stack ?? e)));
      await use(errors);
    },
    { auto: true },
  ],
  cspViolations: [
    async ({ page }, use) => {
      const seen = await watchCsp(page);
      await use(seen);
      expect(seen, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

/** The strictest option of the gallery's quality filter that keeps some public plots and hides
 * others, with the fids it keeps (the filter then has something to show). */
export async function filteringQuality(select: Locator, request: APIRequestContext): Promise<{ value: string; fids: Set<string> }> {
  const values = (await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter((v) => v !== '');
  expect(values.length, 'quality options').toBeGreaterThan(0);
  const total = (await allPublicPlots(request)).length;
  for (const value of [...values].sort((a, b) => Number(b) - Number(a))) {
    const fids = new Set((await allPublicPlots(request, `&min_quality=${value}`)).map((p) => p.fid));
    if (fids.size > 0 && fids.size < total) return { value, fids };
  }
  throw new Error('no quality option filters the demo gallery');
}

/**
 * Waits for a page's charts: on card pages the first two rows' live charts, asked for one by one
 * (drawing all of them would double the tests' time), else the page's one chart.
 */
export async function expectPageChartsDrawn(page: Page, charts: 'cards' | 'one' | undefined): Promise<void> {
  if (charts === 'cards') {
    // The demo users' cards: other tests, running alongside, trash their own plots at any moment.
    const demo = ['ada', 'grace', 'linus', 'mae'].map((u) => `article.plot-card:has(a.plot-card-owner[href="/~${u}/"])`).join(', ');
    const cards = page.locator(demo);
    await expect(cards.first()).toBeVisible();
    const count = Math.min(await cards.count(), 8);
    for (let i = 0; i < count; i++) await expectCardDrawn(cards.nth(i));
  } else if (charts === 'one') {
    await expectChartDrawn(page.locator('.plot-figure').first());
  }
}

/** The sign-up links e2e/server.sh made before the server started: [js, no-js, a11y], as paths. */
export function invitationLinks(): string[] {
  const file = `${process.env.TMPDIR ?? '/tmp'}/plot-files-e2e-invites-${process.env.E2E_PORT ?? 3400}.txt`;
  const links = readFileSync(file, 'utf8').trim().split('\n');
  expect(links, `invitation links in ${file}`).toHaveLength(3);
  return links.map((link) => {
    const url = new URL(link);
    return url.pathname + url.search;
  });
}

/**
 * A page as people meet it: a full-page screenshot attached to the test (to look at), no axe violation
 * (WCAG 2 A and AA) and no sideways scrolling.
 */
export async function lookAt(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on ${name}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `no sideways scrolling on ${name}`).toBeLessThanOrEqual(0);
}
