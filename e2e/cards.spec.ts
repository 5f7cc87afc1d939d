// Plot cards (gallery, feed, profiles, search): each shows its card image, drawn by the renderer for
// the card, and draws its live chart only when the visitor asks (the pointer resting on the image,
// keyboard focus on its button, a tap), at desktop and phone sizes and without JavaScript.
import type { Page, Request } from '@playwright/test';
import { E2E_USER, allPublicPlots, createPlot, expect, expectChartDrawn, plotPath, test } from './support';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Scripts and figures the page requests, so a test can say nothing of plotly's loaded. */
function watchRequests(page: Page): { scripts: Request[]; figures: Request[] } {
  const seen = { scripts: [] as Request[], figures: [] as Request[] };
  page.on('request', (r) => {
    if (r.resourceType() === 'script') seen.scripts.push(r);
    if (/\/v2\/plots\/[^/]+\/content/.test(r.url())) seen.figures.push(r);
  });
  return seen;
}

/** The script bytes received (plotly.js's smallest bundle alone is over 1 MB). */
async function scriptBytes(requests: Request[]): Promise<number[]> {
  return Promise.all(requests.map(async (r) => (await (await r.response())?.body().catch(() => null))?.length ?? 0));
}

test.describe('cards at desktop size', () => {
  test('show their card images, first row first, and load no plotly.js nor figure before the visitor asks', async ({ page, pageErrors }) => {
    const seen = watchRequests(page);
    await page.goto('/');
    const images = page.locator('article.plot-card img.plot-card-image');
    expect(await images.count()).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < 6; i++) {
      const image = images.nth(i);
      await expect(image).toHaveAttribute('src', /\.png\?size=card&v=/);
      await expect(image).toHaveAttribute('width', '300');
      await expect(image).toHaveAttribute('height', '220');
      await expect(image).toHaveAttribute('alt', /^Chart: ./);
      // The first row's images load at once and first; the rest as they near the viewport.
      await expect(image).toHaveAttribute('loading', i < 4 ? 'eager' : 'lazy');
      if (i < 4) await expect(image).toHaveAttribute('fetchpriority', 'high');
    }
    await expect.poll(() => images.first().evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(600);
    // Scrolled to the end, and a moment for anything lazy to start.
    for (let y = 0; y < 10; y++) await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(800);
    expect(
      seen.figures.map((r) => r.url()),
      'figures fetched before interaction',
    ).toEqual([]);
    expect(Math.max(0, ...(await scriptBytes(seen.scripts))), 'the largest script before interaction (plotly.js is over 1 MB)').toBeLessThan(1_000_000);
    expect(pageErrors).toEqual([]);
  });

  test('hovering a card draws its live chart, with the one plotly.js bundle its figure needs', async ({ page, request, pageErrors }) => {
    const plot = await createPlot(request, { title: `hover card ${Date.now()}` });
    const seen = watchRequests(page);
    await page.goto(`/~${E2E_USER.username}/`);
    const card = page.locator(`article.plot-card[data-fid="${plot.fid}"]`);
    await expect(card.locator('img.plot-card-image')).toBeVisible();
    const before = seen.scripts.length;
    await card.locator('button.plot-card-live').hover();
    await expectChartDrawn(card.locator('.plot-figure'));
    await expect(card.locator('img.plot-card-image')).toBeHidden();
    // Bars and lines: plotly.js's basic bundle (1.2 MB), fetched once; not the full one (4.8 MB).
    const loaded = (await scriptBytes(seen.scripts.slice(before))).filter((n) => n > 1_000_000);
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toBeLessThan(2_000_000);
    expect(seen.figures).toHaveLength(1);
    // The live chart has no modebar, no title, no legend: the card layout.
    await expect(card.locator('.modebar')).toHaveCount(0);
    await expect(card.locator('.legend')).toHaveCount(0);
    await expect(card.locator('.gtitle')).toHaveCount(0);
    // The title still links to the plot.
    await card.locator('h2.plot-card-title a').click();
    await expect(page).toHaveURL(new RegExp(`${plotPath(plot.fid)}$`));
    expect(pageErrors).toEqual([]);
  });

  test('keyboard: focusing a card’s button draws its live chart, and focus stays on it', async ({ page, request }) => {
    const title = `focus card ${Date.now()}`;
    const plot = await createPlot(request, { title });
    await page.goto(`/~${E2E_USER.username}/`);
    const card = page.locator(`article.plot-card[data-fid="${plot.fid}"]`);
    const button = card.getByRole('button', { name: `Show live chart of “${title}”` });
    await expect(button).toBeAttached();
    // Tab through the page until the button has focus (as a keyboard user would reach it).
    for (let i = 0; i < 200 && !(await button.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(button).toBeFocused();
    await expectChartDrawn(card.locator('.plot-figure'));
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    // The next Tab goes on to the card's title link.
    await page.keyboard.press('Tab');
    await expect(card.locator('h2.plot-card-title a')).toBeFocused();
  });
});

test.describe('cards at phone size', () => {
  test.use(PHONE);

  test('tapping the image draws the live chart; the title link still opens the plot', async ({ page, request, pageErrors }) => {
    const plot = await createPlot(request, { title: `tap card ${Date.now()}` });
    const seen = watchRequests(page);
    await page.goto(`/~${E2E_USER.username}/`);
    const card = page.locator(`article.plot-card[data-fid="${plot.fid}"]`);
    const image = card.locator('img.plot-card-image');
    await image.scrollIntoViewIfNeeded();
    await expect(image).toBeVisible();
    const box = (await image.boundingBox())!;
    expect(box.width, 'the image spans the phone’s card').toBeGreaterThan(300);
    expect(Math.abs(box.height / box.width - 220 / 300)).toBeLessThan(0.02);
    expect(seen.figures).toHaveLength(0);
    await card.locator('button.plot-card-live').tap();
    await expectChartDrawn(card.locator('.plot-figure'));
    expect(page.url(), 'the tap drew the chart, it did not navigate').toMatch(new RegExp(`/~${E2E_USER.username}/$`));
    await card.locator('h2.plot-card-title a').tap();
    await expect(page).toHaveURL(new RegExp(`${plotPath(plot.fid)}$`));
    expect(pageErrors).toEqual([]);
  });
});

test.describe('cards without JavaScript', () => {
  test('are their images and links', { tag: '@no-js' }, async ({ page }) => {
    await page.goto('/');
    const cards = page.locator('article.plot-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(6);
    await expect(cards.first().locator('img.plot-card-image')).toHaveAttribute('src', /\.png\?size=card&v=/);
    await expect
      .poll(() =>
        cards
          .first()
          .locator('img.plot-card-image')
          .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)),
      )
      .toBe(600);
    // No button that would do nothing without JavaScript.
    await expect(page.locator('button.plot-card-live')).toHaveCount(0);
    await expect(cards.first().locator('h2.plot-card-title a')).toHaveAttribute('href', /^\/~[^/]+\/\d+\/$/);
  });

  test('at phone size too', { tag: '@no-js' }, async ({ browser }) => {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/');
      const image = page.locator('article.plot-card img.plot-card-image').first();
      await expect(image).toBeVisible();
      const box = (await image.boundingBox())!;
      expect(box.width).toBeGreaterThan(300);
      expect(box.width).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  });
});

// Every demo figure's card, as the gallery shows it (300x220), on one sheet kept with the run's
// results (card-contact-sheet.png) to be judged by eye; none may be "could not be drawn".
test.describe('the demo cards', () => {
  const DEMO_OWNERS = ['ada', 'grace', 'linus', 'mae'];

  test('are all drawn, and make a contact sheet', async ({ page, request }, testInfo) => {
    test.setTimeout(300_000);
    const demo = (await allPublicPlots(request)).filter((p) => DEMO_OWNERS.includes(p.fid.split(':')[0]));
    expect(demo.length).toBeGreaterThan(80);
    const cardUrl = (fid: string) => `${plotPath(fid).replace(/\/$/, '')}.png?size=card`;
    // The image queue draws them from the start of the run on: wait for each to settle.
    const states = new Map<string, string>();
    await expect
      .poll(
        async () => {
          for (const p of demo) {
            if (states.get(p.fid) === 'rendered' || states.get(p.fid) === 'failed') continue;
            const answer = await request.head(cardUrl(p.fid));
            states.set(p.fid, answer.headers()['x-image-state'] ?? 'none');
          }
          return demo.filter((p) => states.get(p.fid) === 'pending').length;
        },
        { timeout: 240_000, intervals: [2_000] },
      )
      .toBe(0);
    const base = testInfo.project.use.baseURL;
    const cells = demo
      .map(
        (p) =>
          `<figure><img src="${base}${cardUrl(p.fid)}" width="300" height="220" alt=""><figcaption>${p.fid} ${p.filename.replace(/[<&]/g, '')}</figcaption></figure>`,
      )
      .join('');
    await page.setContent(
      `<!doctype html><style>body{margin:0;padding:8px;display:flex;flex-wrap:wrap;gap:8px;background:#eee;font:11px sans-serif}figure{margin:0;background:#fff;width:300px}figcaption{padding:2px 4px;white-space:nowrap;overflow:hidden}</style>${cells}`,
    );
    await expect.poll(() => page.evaluate(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0))).toBe(true);
    const file = testInfo.outputPath('card-contact-sheet.png');
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach('card-contact-sheet', { path: file, contentType: 'image/png' });
    expect(
      demo.filter((p) => states.get(p.fid) !== 'rendered').map((p) => `${p.fid} ${p.filename}: ${states.get(p.fid)}`),
      'demo cards not drawn',
    ).toEqual([]);
  });
});
