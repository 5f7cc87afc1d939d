// Search from the gallery and the feed, with JavaScript ("Load more") and without (plain GET form and
// page links): results as plot cards, the query kept in the box, a clear empty state, and never a
// private plot.
import type { APIRequestContext, Page } from '@playwright/test';
import { basicAuth, cardFids, createPlot, E2E_USER, expect, OTHER_USER, signIn, test, unique, type FileRecord } from './support';

/** 26 public plots titled with a fresh word (a page is 24 cards), and a private one with it too. */
async function corpus(request: APIRequestContext): Promise<{ word: string; fids: string[]; hidden: FileRecord }> {
  const word = `srch${unique()}`;
  const fids: string[] = [];
  for (let i = 0; i < 26; i++) fids.push((await createPlot(request, { title: `${word} chart ${i}` })).fid);
  const hidden = await createPlot(request, { title: `${word} private`, visibility: 'private' });
  // Equal relevance: newest first.
  return { word, fids: fids.reverse(), hidden };
}

async function search(page: Page, from: string, words: string): Promise<void> {
  await page.goto(from);
  const box = page.getByRole('searchbox', { name: 'Search public plots' });
  await box.fill(words);
  await box.press('Enter');
  await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === words);
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search public plots' })).toHaveValue(words);
}

test.describe('search', () => {
  test('from the gallery: ranked cards, load more, the query kept, no private plot', async ({ page, request, pageErrors }) => {
    // A corpus of plots made first, then several searches and pages of cards.
    test.slow();
    const { word, fids, hidden } = await corpus(request);
    await search(page, '/', word);
    await expect(page.locator('article.plot-card')).toHaveCount(24);
    expect(await cardFids(page)).toEqual(fids.slice(0, 24));
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(page.locator('article.plot-card')).toHaveCount(26);
    expect(await cardFids(page)).toEqual(fids);
    expect(await cardFids(page)).not.toContain(hidden.fid);
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    // A type: filter narrows to the plots with such a trace (these are bar + scatter).
    await search(page, '/feed', `${word} type:pie`);
    await expect(page.getByRole('heading', { name: /No plots match/ })).toBeVisible();
    await search(page, '/feed', `type:bar ${word} chart 7`);
    expect(await cardFids(page)).toEqual([fids[26 - 1 - 7]]);
    expect(pageErrors).toEqual([]);
  });

  test('dashboards and presentations are found by their names, beside the plots; private ones never', async ({ page, request }) => {
    const word = `board${unique()}`;
    const post = async (kind: 'dashboards' | 'spectacle-presentations', filename: string, worldReadable: boolean) => {
      const content = kind === 'dashboards' ? { layout: null, version: 2, settings: {} } : { presentation: { slides: [] } };
      const res = await request.post(`/v2/${kind}`, {
        headers: { Authorization: basicAuth(E2E_USER) },
        data: { content: JSON.stringify(content), filename, world_readable: worldReadable },
      });
      expect(res.status()).toBe(201);
      return ((await res.json()) as { file: FileRecord }).file;
    };
    const board = await post('dashboards', `Sales_${word}-2026`, true);
    const deck = await post('spectacle-presentations', `${word} deck`, true);
    const hidden = await post('dashboards', `${word} private`, false);
    await search(page, '/', word);
    const cards = page.locator('.document-card');
    await expect(cards).toHaveCount(2);
    await expect(page.getByRole('heading', { name: 'Dashboards and presentations' })).toBeVisible();
    await expect(cards.first().getByRole('link', { name: deck.filename })).toHaveAttribute('href', `/~e2e/${deck.fid.split(':')[1]}/`);
    await expect(cards.nth(1)).toContainText(`Dashboard by e2e`);
    await expect(page.locator('main')).not.toContainText(hidden.filename);
    // Its owner finds the private one among their own.
    await signIn(page);
    await page.goto(`/search?in=mine&q=${word}`);
    await expect(page.locator('.document-card')).toHaveCount(3);
    await page.goto(`/search?q=${encodeURIComponent(`${word} type:bar`)}`);
    await expect(page.locator('.document-card')).toHaveCount(0);
    expect(board.fid).toMatch(/^e2e:/);
  });

  test('no results: a clear empty state, the words kept in the box', async ({ page }) => {
    await search(page, '/feed', `nothing${unique()} here`);
    await expect(page.getByRole('heading', { name: /No plots match/ })).toBeVisible();
    await expect(page.locator('article.plot-card')).toHaveCount(0);
  });

  test('a query over the limit says why, and shows no results', async ({ page }) => {
    await page.goto(`/search?q=${'a'.repeat(201)}`);
    await expect(page.locator('p.notice[role="alert"]')).toContainText('at most 200 characters');
    await expect(page.locator('article.plot-card')).toHaveCount(0);
  });
});

test.describe('search without JavaScript', () => {
  const tag = { tag: '@no-js' };

  test('the GET form from the feed, page links forward and back, the query kept', tag, async ({ page, request }) => {
    expect(test.info().project.use.javaScriptEnabled, 'JavaScript is off in this project').toBe(false);
    const { word, fids, hidden } = await corpus(request);
    await search(page, '/feed', word);
    expect(await cardFids(page)).toEqual(fids.slice(0, 24));
    await page.locator('a[rel="next"]').click();
    await page.waitForURL(/cursor=/);
    expect(await cardFids(page)).toEqual(fids.slice(24));
    expect(await cardFids(page)).not.toContain(hidden.fid);
    await expect(page.getByRole('searchbox', { name: 'Search public plots' })).toHaveValue(word);
    await page.locator('a[rel="prev"]').click();
    await page.waitForLoadState('load');
    expect(await cardFids(page)).toEqual(fids.slice(0, 24));
  });

  test('no results without JavaScript', tag, async ({ page }) => {
    await search(page, '/', `nothing${unique()}`);
    await expect(page.getByRole('heading', { name: /No plots match/ })).toBeVisible();
  });
});

test.describe("searching one's own plots", () => {
  test("the workspace box finds the owner's private and secret plots, and nobody else's", async ({ page, request }) => {
    const word = `mine${unique()}`;
    const hidden = await createPlot(request, { title: `${word} private`, visibility: 'private' });
    const secret = await createPlot(request, { title: `${word} secret`, visibility: 'secret' });
    const theirs = await createPlot(request, { title: `${word} theirs`, visibility: 'private', user: OTHER_USER });
    await signIn(page);
    await page.goto('/~e2e/');
    const box = page.getByRole('searchbox', { name: 'Search your files' });
    await box.fill(word);
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('in') === 'mine');
    await expect(page.locator('article.plot-card')).toHaveCount(2);
    expect(await cardFids(page)).toEqual([secret.fid, hidden.fid]);
    expect(await cardFids(page)).not.toContain(theirs.fid);
    await expect(page.getByRole('searchbox', { name: 'Search your files' })).toHaveValue(word);
    // The same words over public plots find none of them.
    await page.getByRole('link', { name: 'Search all public plots instead' }).click();
    await expect(page.getByRole('heading', { name: /No plots match/ })).toBeVisible();
  });

  test('anonymous: asked to sign in, shown nothing', async ({ page, request }) => {
    const word = `mine${unique()}`;
    await createPlot(request, { title: `${word} private`, visibility: 'private' });
    await page.goto(`/search?in=mine&q=${word}`);
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    await expect(page.locator('article.plot-card')).toHaveCount(0);
  });
});
