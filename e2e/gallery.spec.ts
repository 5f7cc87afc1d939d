// The gallery, feed and profile pages with JavaScript: cards whose charts really render, sorting,
// paging, "load more" and the quality filter. (Without JavaScript: nojs.spec.ts.)
import {
  allFeedPlots,
  allPublicPlots,
  filteringQuality,
  cardFids,
  cardViews,
  countOf,
  expect,
  expectCardDrawn,
  expectSamePage,
  getPlotRecord,
  plotPath,
  test,
  type FileRecord,
} from './support';
import type { APIRequestContext, Page } from '@playwright/test';

/** Asks card by card for its live chart and expects each drawn (cards of plots that could not be
 * drawn, such as other tests' hostile ones, only show their images: they are passed over). */
async function expectCardsDrawn(page: Page, count: number): Promise<void> {
  const cards = page.locator('article.plot-card[data-live="true"]');
  await expect(cards.first()).toBeVisible();
  const total = await cards.count();
  expect(total, 'cards on the page').toBeGreaterThanOrEqual(count);
  for (let i = 0; i < count; i++) await expectCardDrawn(cards.nth(i));
}

async function expectNewestFirst(request: APIRequestContext, fids: string[]): Promise<void> {
  const times: string[] = [];
  for (const fid of fids) times.push((await getPlotRecord(request, fid)).creation_time);
  const sorted = [...times].sort().reverse();
  expect(times, `cards newest first (${fids.join(', ')})`).toEqual(sorted);
}

test.describe('gallery', () => {
  test('cards draw real live charts when asked, at the top of the page and at its end', async ({ page, pageErrors }) => {
    // Most viewed first: the demo plots (the newest-first page holds other tests' hostile figures).
    await page.goto('/?order_by=-views');
    const cards = page.locator('article.plot-card');
    await expect(cards.first()).toBeVisible();
    const first = await cards.count();
    expect(first, 'cards on the first screen').toBeGreaterThanOrEqual(6);

    // Every card: a title linking to the plot page, a view count, its trace types.
    for (let i = 0; i < Math.min(first, 6); i++) {
      const card = cards.nth(i);
      const fid = (await card.getAttribute('data-fid')) ?? '';
      expect(fid).toMatch(/^[A-Za-z0-9_.-]+:\d+$/);
      const link = card.locator('h2.plot-card-title a[href], a[href]:has(h2.plot-card-title)');
      await expect(link, `${fid}: h2.plot-card-title with a link`).toHaveCount(1);
      expect(new URL((await link.getAttribute('href'))!, page.url()).pathname).toBe(plotPath(fid));
      await expect(card.locator('h2.plot-card-title')).not.toHaveText('');
      countOf(await card.locator('span.views').textContent());
      expect(await card.locator('ul.trace-types li').count(), `${fid} lists its trace types`).toBeGreaterThan(0);
    }

    // Card by card, each live chart asked for draws.
    const drawnTarget = Math.min(first, 12);
    await expectCardsDrawn(page, drawnTarget);
    // And at the bottom of the page, a card there draws too.
    await page.mouse.wheel(0, 100_000);
    await page.waitForTimeout(500);
    const now = await cards.count();
    expect(now).toBeGreaterThanOrEqual(first);
    await expectCardDrawn(page.locator('article.plot-card[data-live="true"]').last());
    const drawn = page.locator('article.plot-card .plot-figure[data-chart-state="drawn"]');
    expect(await drawn.count(), 'drawn charts after scrolling').toBeGreaterThanOrEqual(drawnTarget);
    expect(await page.locator('article.plot-card .plot-figure[data-chart-state="failed"]').count(), 'failed charts').toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test('sorting: newest first, then most viewed (views descending), and back', async ({ page, request }) => {
    await page.goto('/');
    await expect(page.locator('a[data-sort="newest"]')).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('a[data-sort="views"]')).not.toHaveAttribute('aria-current', 'page');
    const newest = await cardFids(page);
    expect(newest.length).toBeGreaterThanOrEqual(6);
    await expectNewestFirst(request, newest.slice(0, 8));

    await page.locator('a[data-sort="views"]').click();
    await expect(page.locator('a[data-sort="views"]')).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('a[data-sort="newest"]')).not.toHaveAttribute('aria-current', 'page');
    await expect.poll(() => cardFids(page), { message: 'the order changes' }).not.toEqual(newest);
    const views = await cardViews(page);
    expect(views.length).toBeGreaterThanOrEqual(6);
    expect(views, 'views descending').toEqual([...views].sort((a, b) => b - a));
    // The most viewed public plot comes first.
    const [top] = (await (await request.get('/v2/plots?order_by=-views&page_size=1')).json()).results as FileRecord[];
    expect(views[0]).toBeGreaterThanOrEqual(top.views! - 5); // (views may move while tests run)

    await page.locator('a[data-sort="newest"]').click();
    await expect(page.locator('a[data-sort="newest"]')).toHaveAttribute('aria-current', 'page');
    await expectNewestFirst(request, (await cardFids(page)).slice(0, 8));
  });

  test('paging: next and previous pages (links)', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('article.plot-card').first()).toBeVisible();
    await expect(page.locator('a[rel="prev"]')).toHaveCount(0);
    const first = await cardFids(page);
    await page.locator('a[rel="next"]').first().click();
    await expect(page).toHaveURL(/cursor=/);
    await expect.poll(async () => (await cardFids(page))[0] ?? first[0], { message: 'page 2 shows' }).not.toBe(first[0]);
    const second = await cardFids(page);
    expect(second.length).toBeGreaterThan(0);
    expect(
      second.filter((f) => first.includes(f)),
      'page 2 repeats no card of page 1',
    ).toEqual([]);
    await page.locator('a[rel="prev"]').first().click();
    await expect.poll(async () => (await cardFids(page)).at(-1)).toBe(first.at(-1));
    expectSamePage(await cardFids(page), first);
  });

  test('"load more" appends distinct cards whose charts render', async ({ page }) => {
    // Four loads of cards, each drawing its charts: ~40 s on two idle cores.
    test.setTimeout(120_000);
    await page.goto('/');
    const cards = page.locator('article.plot-card');
    await expect(cards.first()).toBeVisible();
    const before = await cardFids(page);
    const button = page.locator('button.load-more');
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await expect.poll(() => cards.count()).toBeGreaterThan(before.length);
    const after = await cardFids(page);
    expect(after.slice(0, before.length), 'the first cards stay').toEqual(before);
    expect(new Set(after).size, 'no card twice').toBe(after.length);
    await expectCardDrawn(cards.nth(before.length));
    await expectCardDrawn(cards.nth(after.length - 1));
    // Again, until the button is gone or three more loads happened: still no duplicates.
    for (let i = 0; i < 3 && (await button.count()) > 0 && (await button.isVisible()); i++) {
      const n = await cards.count();
      await button.click();
      await expect.poll(() => cards.count()).toBeGreaterThan(n);
    }
    const all = await cardFids(page);
    expect(new Set(all).size, 'no card twice after several loads').toBe(all.length);
  });

  test('quality filter shows only plots of at least that quality', async ({ page, request }) => {
    await page.goto('/');
    const select = page.locator('form.filters select[name="min_quality"]');
    await expect(select).toBeVisible();
    const chosen = await filteringQuality(select, request);
    await select.selectOption(chosen.value);
    const submit = page.locator('form.filters').locator('button[type="submit"], input[type="submit"], button:not([type])');
    if (!new URL(page.url()).searchParams.has('min_quality') && (await submit.count()) > 0 && (await submit.first().isVisible())) {
      await submit.first().click();
    }
    await expect(page).toHaveURL(new RegExp(`[?&]min_quality=${chosen.value}(&|$)`));
    await expect(select).toHaveValue(chosen.value);
    await expect(page.locator('article.plot-card').first()).toBeVisible();
    const shown = await cardFids(page);
    expect(
      shown.filter((f) => !chosen.fids.has(f)),
      `cards below quality ${chosen.value}`,
    ).toEqual([]);
    expect(shown.length).toBe(Math.min(chosen.fids.size, shown.length));
    await expectCardDrawn(page.locator('article.plot-card').first());
  });
});

test('feed page shows handpicked plots as cards with drawn charts', async ({ page, request }) => {
  const handpicked = new Set((await allFeedPlots(request)).map((p) => p.fid));
  expect(handpicked.size, 'the demo gallery has handpicked plots').toBeGreaterThan(0);
  await page.goto('/feed');
  await expect(page.locator('h1')).toBeVisible();
  await expectCardsDrawn(page, Math.min(4, handpicked.size));
  const fids = await cardFids(page);
  expect(
    fids.filter((f) => !handpicked.has(f)),
    'cards that are not handpicked',
  ).toEqual([]);
  expect(new Set(fids).size).toBe(fids.length);
});

test('profile page shows the user and only their public plots', async ({ page, request }) => {
  const ada = (await allPublicPlots(request)).filter((p) => p.fid.startsWith('ada:')).map((p) => p.fid);
  await page.goto('/~ada/');
  await expect(page.locator('h1')).toContainText(/ada/i);
  await expectCardsDrawn(page, 3);
  const fids = await cardFids(page);
  expect(
    fids.filter((f) => !ada.includes(f)),
    "cards that are not ada's public plots",
  ).toEqual([]);
});

test('unknown user profile is the 404 page', async ({ page }) => {
  const res = await page.goto('/~nobody-here-e2e/');
  expect(res?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Not found');
});
