// Without JavaScript (project "no-js", tests tagged @no-js): the gallery is server-rendered, and
// sorting, paging and the quality filter are plain links and a GET form.
import type { Page } from '@playwright/test';
import { cardFids, filteringQuality, cardViews, expect, expectSamePage, getPlotRecord, plotPath, test } from './support';

const tag = { tag: '@no-js' };

/** Follows a link (a full page load without JavaScript) and waits for the new page to load. */
async function follow(page: Page, selector: string): Promise<void> {
  const link = page.locator(selector).first();
  const href = await link.getAttribute('href');
  expect(href, `${selector} has an href`).toBeTruthy();
  await link.click();
  await page.waitForURL(new URL(href!, page.url()).toString(), { waitUntil: 'load' });
}

test.describe('gallery without JavaScript', () => {
  test('cards are server-rendered', tag, async ({ page }) => {
    expect(test.info().project.use.javaScriptEnabled, 'JavaScript is off in this project').toBe(false);
    await page.goto('/');
    const cards = page.locator('article.plot-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(6);
    const fid = (await cards.first().getAttribute('data-fid'))!;
    const href = await cards.first().locator('h2.plot-card-title a[href], a[href]:has(h2.plot-card-title)').getAttribute('href');
    expect(new URL(href!, page.url()).pathname).toBe(plotPath(fid));
    await expect(cards.first().locator('span.views')).not.toHaveText('');
  });

  test('sorting by newest and by views', tag, async ({ page, request }) => {
    await page.goto('/');
    await expect(page.locator('a[data-sort="newest"]')).toHaveAttribute('aria-current', 'page');
    const newest = await cardFids(page);
    expect(newest.length).toBeGreaterThanOrEqual(6);
    const times = [];
    for (const fid of newest.slice(0, 8)) times.push((await getPlotRecord(request, fid)).creation_time);
    expect(times, 'newest first').toEqual([...times].sort().reverse());

    await follow(page, 'a[data-sort="views"]');
    await expect(page.locator('a[data-sort="views"]')).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('a[data-sort="newest"]')).not.toHaveAttribute('aria-current', 'page');
    expect(await cardFids(page)).not.toEqual(newest);
    const views = await cardViews(page);
    expect(views.length).toBeGreaterThanOrEqual(6);
    expect(views, 'views descending').toEqual([...views].sort((a, b) => b - a));

    // Sorted pages page on in the same order.
    await follow(page, 'a[rel="next"]');
    await expect(page.locator('a[data-sort="views"]')).toHaveAttribute('aria-current', 'page');
    const more = await cardViews(page);
    expect(more.length).toBeGreaterThan(0);
    expect(more, 'page 2 views descending').toEqual([...more].sort((a, b) => b - a));
    // (views can grow by a few while other tests open demo plots)
    expect(more[0], 'page 2 starts below page 1').toBeLessThanOrEqual(views[views.length - 1] + 3);

    await follow(page, 'a[data-sort="newest"]');
    await expect(page.locator('a[data-sort="newest"]')).toHaveAttribute('aria-current', 'page');
  });

  test('paging with next and previous links', tag, async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('a[rel="prev"]')).toHaveCount(0);
    const first = await cardFids(page);
    expect(first.length).toBeGreaterThan(0);
    await follow(page, 'a[rel="next"]');
    const second = await cardFids(page);
    expect(second.length).toBeGreaterThan(0);
    expect(
      second.filter((f) => first.includes(f)),
      'page 2 repeats no card of page 1',
    ).toEqual([]);
    await follow(page, 'a[rel="next"]');
    const third = await cardFids(page);
    expect(
      third.filter((f) => first.includes(f) || second.includes(f)),
      'page 3 repeats nothing',
    ).toEqual([]);
    await follow(page, 'a[rel="prev"]');
    expect(await cardFids(page)).toEqual(second);
    await follow(page, 'a[rel="prev"]');
    expectSamePage(await cardFids(page), first);
  });

  test('quality filter form', tag, async ({ page, request }) => {
    await page.goto('/');
    const form = page.locator('form.filters');
    const select = form.locator('select[name="min_quality"]');
    const chosen = await filteringQuality(select, request);
    await select.selectOption(chosen.value);
    // Without JavaScript nothing submits on change: the form needs its own button.
    await form.locator('button[type="submit"], input[type="submit"], button:not([type])').first().click();
    await page.waitForURL(/min_quality=/, { waitUntil: 'load' });
    await expect(page).toHaveURL(new RegExp(`[?&]min_quality=${chosen.value}(&|$)`));
    await expect(select).toHaveValue(chosen.value);
    const shown = await cardFids(page);
    expect(shown.length).toBeGreaterThan(0);
    expect(
      shown.filter((f) => !chosen.fids.has(f)),
      `cards below quality ${chosen.value}`,
    ).toEqual([]);
    // The filter survives sorting.
    await follow(page, 'a[data-sort="views"]');
    await expect(page).toHaveURL(new RegExp(`[?&]min_quality=${chosen.value}(&|$)`));
    expect((await cardFids(page)).filter((f) => !chosen.fids.has(f))).toEqual([]);
  });
});

test('the API reference without JavaScript: every operation listed, the contents link to each', tag, async ({ page, request }) => {
  const doc = await (await request.get('/v2/openapi.json')).json();
  const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item));
  await page.goto('/');
  await follow(page, 'nav[aria-label="Main"] a[href="/docs/api"]');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API reference');
  await expect(page.locator('article.api-op')).toHaveCount(operations.length);
  const contents = page.getByRole('navigation', { name: 'API contents' });
  for (const { operationId } of operations) await expect(contents.locator(`a[href="#${operationId}"]`)).toHaveCount(1);
  await contents.locator('a[href="#postV2Plots"]').click();
  await expect(page).toHaveURL(/#postV2Plots$/);
  const post = page.locator('article#postV2Plots');
  await expect(post).toBeInViewport();
  await expect(post.getByRole('heading', { level: 3 })).toHaveText('POST /v2/plots');
  await expect(post.getByRole('table', { name: 'Request body of POST /v2/plots' }).getByRole('rowheader', { name: 'figure' })).toBeVisible();
});
