// A workspace where things are found, at 330 files (e2emany, made by e2e/seed.ts: five folders made
// first, then 325 grids): folders first on page 1 whatever the order, a path bar with "Go to folder"
// on every view, the "my files" search finding every kind by name, and the first file row on the
// first screen of a desktop and a phone (screenshots in the test's output).
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { basicAuth, createPlot, expect, signIn, test, unique, type FileRecord, type TestUser } from './support';

const MANY: TestUser = { username: 'e2emany', apiKey: 'e2e-many-files-key-0123456789' };
const HOME = '/~e2emany/';

const rows = (page: Page) => page.locator('li.file-row');
const kinds = (page: Page) => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-filetype')));
const names = (page: Page) => page.locator('li.file-row h3.file-name').allTextContents();
const crumbs = (page: Page) => page.locator('nav.breadcrumbs li');

async function post(request: APIRequestContext, path: string, data: unknown): Promise<FileRecord> {
  const res = await request.post(path, { headers: { Authorization: basicAuth(MANY) }, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return ((await res.json()) as { file: FileRecord }).file;
}

async function goToFolder(page: Page, label: string) {
  const jump = page.locator('form.folder-jump');
  await jump.getByLabel('Go to folder').selectOption({ label });
  await jump.getByRole('button', { name: 'Go' }).click();
}

// Links and plain GET forms: judged without JavaScript (with it they are the same forms; the first
// screen below runs with it).
test.describe('a workspace of 330 files', () => {
  const tag = { tag: '@no-js' };
  test.beforeEach(async ({ page }) => {
    expect(test.info().project.use.javaScriptEnabled, 'JavaScript is off in this project').toBe(false);
    await signIn(page, MANY);
  });

  test('folders come first in every order, and a path bar jumps to any folder from every view', tag, async ({ page }) => {
    await page.goto(HOME);
    // The folders are the oldest files, yet lead page 1 (then the rest, which other tests here add to).
    const folders = ['archive', 'inbox', 'projects'];
    expect((await kinds(page)).slice(0, 4)).toEqual(['fold', 'fold', 'fold', expect.not.stringMatching(/^fold$/)]);
    expect((await names(page)).slice(0, 3).sort()).toEqual(folders);
    await expect(rows(page)).toHaveCount(30);
    // By name too (every order: tests/lib/own-files.test.ts).
    await page.getByLabel('Sort by').selectOption('name');
    await page.locator('form.view-form').getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/sort=name/);
    expect((await names(page)).slice(0, 4)).toEqual([...folders, 'data 001']);
    // Paging on by name: no folder again, no file twice.
    await page.locator('a[rel="next"]').click();
    await expect(page).toHaveURL(/cursor=/);
    expect((await names(page)).slice(0, 2)).toEqual(['data 028', 'data 029']);

    // "Go to folder" from any page, keeping the order; the path bar says where one is.
    await goToFolder(page, 'archive / 2024');
    await expect(page).toHaveURL(/folder=\d+.*sort=name|sort=name.*folder=\d+/);
    await expect(crumbs(page)).toHaveText(['My files', 'archive', '2024']);
    await expect(page.locator('nav.breadcrumbs [aria-current="page"]')).toHaveText('2024');
    await page.locator('nav.breadcrumbs').getByRole('link', { name: 'archive' }).click();
    await expect(crumbs(page)).toHaveText(['My files', 'archive']);
    await expect(rows(page)).toHaveCount(1);
    // The trash has it too, and the jump leads out of it.
    await page.goto(`${HOME}?view=trash`);
    await expect(crumbs(page)).toHaveText(['My files', 'Trash']);
    await goToFolder(page, 'projects / old');
    await expect(crumbs(page)).toHaveText(['My files', 'projects', 'old']);
    await goToFolder(page, 'My files');
    await expect(crumbs(page)).toHaveText(['My files']);
    expect((await kinds(page))[0]).toBe('fold');
  });

  test("the workspace's search finds plots, grids, dashboards, presentations and folders by name", tag, async ({ page, request }) => {
    const word = `found${unique()}`;
    const plot = await createPlot(request, { user: MANY, filename: `${word} plot`, visibility: 'private' });
    const grid = await post(request, '/v2/grids', { filename: `${word}_grid`, world_readable: false, data: { cols: { x: { data: [1], order: 0 } } } });
    const board = await post(request, '/v2/dashboards', {
      filename: `${word} board`,
      world_readable: false,
      content: JSON.stringify({ layout: null, version: 2, settings: {} }),
    });
    const deck = await post(request, '/v2/spectacle-presentations', {
      filename: `${word} deck`,
      world_readable: false,
      content: JSON.stringify({ presentation: { slides: [] } }),
    });
    const folder = await post(request, '/v2/folders', { path: `projects/old/${word} folder` });
    await page.goto(HOME);
    const box = page.getByRole('searchbox', { name: 'Search your files' });
    await box.fill(word);
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('in') === 'mine');
    await expect(page.locator(`article.plot-card[data-fid="${plot.fid}"]`)).toHaveCount(1);
    const documents = page.locator('.document-card');
    await expect(documents).toHaveCount(2);
    for (const f of [board, deck]) await expect(page.locator(`.document-card[data-fid="${f.fid}"]`)).toHaveCount(1);
    const found = page.getByRole('region', { name: 'Grids and folders' });
    await expect(found.locator('li')).toHaveCount(2);
    await expect(found.locator(`li[data-fid="${grid.fid}"]`)).toContainText('Grid in My files');
    await expect(found.locator(`li[data-fid="${folder.fid}"]`)).toContainText('Folder in My files / projects / old');
    await found.getByRole('link', { name: `${word} folder` }).click();
    await expect(crumbs(page)).toHaveText(['My files', 'projects', 'old', `${word} folder`]);
  });
});

for (const [width, height] of [
  [1280, 800],
  [390, 844],
]) {
  test(`the first screen of a workspace of 330 files shows files at ${width}x${height}, every control still there, and passes axe`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, MANY);
    await page.goto(HOME);
    const first = await rows(page).first().boundingBox();
    // Its name is on the first screen, not only its top edge.
    expect(first!.y + 40, `first file row at ${first!.y}px`).toBeLessThanOrEqual(height);
    test.info().annotations.push({ type: 'first row top', description: `${Math.round(first!.y)}px at ${width}x${height}` });
    await page.screenshot({ path: test.info().outputPath(`workspace-${width}x${height}.png`) });
    for (const label of ['Search your files', 'Go to folder', 'New folder', 'Show', 'Sort by']) await expect(page.getByLabel(label)).toBeVisible();
    await expect(page.getByRole('link', { name: 'New dashboard' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The selection's controls unfold when a file is ticked.
    const bulk = page.locator('form#workspace-bulk');
    await expect(bulk.getByLabel('Move to')).toBeHidden();
    await page.getByRole('checkbox', { name: 'Select inbox', exact: true }).check();
    await expect(bulk.getByLabel('Move to')).toBeVisible();
    await expect(bulk.locator('output')).toHaveText('1 selected');
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });
}
