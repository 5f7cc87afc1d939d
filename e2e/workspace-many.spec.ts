// The workspace at many files (`/~e2e/` to e2e): kinds and orders as a plain GET form, a plot's grids
// and a grid's plots linked, a selection moved, shared and trashed at once, the grids only a plot uses
// going with it, and "Empty trash" after a confirmation step; with JavaScript (project js) and
// without it (project no-js), at desktop and phone sizes. Everything is checked against the API.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_USER, basicAuth, createGrid, createPlot, expect, signIn, test, unique, type FileRecord, type TestUser } from './support';

const TRASH_USERS: Record<'js' | 'nojs', TestUser> = {
  js: { username: 'e2etrashjs', apiKey: 'e2e-trash-js-key-0123456789' },
  nojs: { username: 'e2etrashnojs', apiKey: 'e2e-trash-nojs-key-0123456789' },
};

async function api<T = Record<string, unknown>>(request: APIRequestContext, method: string, path: string, data?: unknown, user: TestUser = E2E_USER) {
  const res = await request.fetch(path, { method, headers: { Authorization: basicAuth(user) }, data });
  const text = await res.text();
  return { status: res.status(), json: (text ? JSON.parse(text) : {}) as T };
}

const nOf = (fid: string) => Number(fid.split(':')[1]);

async function newFolder(request: APIRequestContext, name = `many ${unique()}`) {
  const res = await api<{ file: { fid: string } }>(request, 'POST', '/v2/folders', { path: name });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return { n: nOf(res.json.file.fid), name };
}

const moveTo = async (request: APIRequestContext, fid: string, parent: number) =>
  expect((await api(request, 'PATCH', `/v2/files/${fid}`, { parent })).status).toBe(200);

/** A private grid of e2e's in folder `parent`. */
async function gridIn(request: APIRequestContext, parent: number, filename = `data ${unique()}`) {
  const grid = await createGrid(request, { x: [1, 2, 3], y: [4, 1, 5] }, { filename, worldReadable: false });
  await moveTo(request, grid.fid, parent);
  return grid;
}

/** A private plot of e2e's drawing from `grid`, in `folder`. */
async function plotOn(request: APIRequestContext, grid: { src: (name: string) => string }, folder: { name: string }, filename = `plot ${unique()}`) {
  const res = await api<{ file: FileRecord }>(request, 'POST', '/v2/plots', {
    filename,
    world_readable: false,
    parent_path: folder.name,
    figure: { data: [{ type: 'scatter', xsrc: grid.src('x'), ysrc: grid.src('y') }] },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.file;
}

const file = (request: APIRequestContext, fid: string, user: TestUser = E2E_USER) =>
  api<Record<string, unknown>>(request, 'GET', `/v2/files/${fid}`, undefined, user);
const row = (page: Page, fid: string) => page.locator(`li.file-row[data-fid="${fid}"]`);
const rowFids = (page: Page) => page.locator('li.file-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-fid')));
const bulk = (page: Page) => page.locator('form#workspace-bulk');

async function expectNotice(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.locator('p.notice[role="status"]').first()).toContainText(text);
}

/** Unfolds the selection's controls (ticking a file does, with JavaScript; without it, its summary). */
async function openBulk(page: Page): Promise<void> {
  const details = bulk(page).locator('details');
  await expect(async () => {
    if ((await details.getAttribute('open')) === null) await bulk(page).locator('summary').click();
    await expect(details).toHaveAttribute('open', '', { timeout: 1000 });
  }).toPass();
}

async function tick(page: Page, names: string[]): Promise<void> {
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
  await openBulk(page);
}

async function manage(page: Page, fid: string): Promise<Locator> {
  const r = row(page, fid);
  await r.locator('summary').click();
  await expect(r.locator('details.file-manage')).toHaveAttribute('open', '');
  return r;
}

for (const js of [true, false]) {
  const mode = js ? 'with JavaScript' : 'without JavaScript';
  const tag = js ? {} : { tag: '@no-js' };

  test.describe(`workspace at many files ${mode}`, () => {
    test.beforeEach(async ({ page }) => {
      expect(test.info().project.use.javaScriptEnabled, 'the project runs this mode').toBe(js);
      await signIn(page);
    });

    test(`shows a plot's data and a grid's plots, linked, and filters and sorts by a plain form ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const grid = await gridIn(request, folder.n, `c data ${unique()}`);
      const b = await plotOn(request, grid, folder, `b plot ${unique()}`);
      const a = await plotOn(request, grid, folder, `a plot ${unique()}`);
      await page.goto(`/~e2e/?folder=${folder.n}`);
      // Latest modified first, with the facts a row shows.
      expect(await rowFids(page)).toEqual([a.fid, b.fid, grid.fid]);
      await expect(row(page, a.fid).locator('.file-data')).toHaveText(`data: ${grid.filename}`);
      await expect(row(page, a.fid).locator('.file-facts')).toContainText('0 views');
      await expect(row(page, a.fid).locator('.file-facts')).toContainText('Modified');
      await expect(row(page, grid.fid).locator('.file-used-by')).toHaveText('used by 2 plots');

      // Kind: grids only.
      const view = page.locator('form.view-form');
      await view.getByLabel('Show').selectOption('grid');
      await view.getByRole('button', { name: 'Apply' }).click();
      await expect(page).toHaveURL(new RegExp(`folder=${folder.n}&type=grid`));
      expect(await rowFids(page)).toEqual([grid.fid]);
      // Order: by name, every kind.
      await view.getByLabel('Show').selectOption('all');
      await view.getByLabel('Sort by').selectOption('name');
      await view.getByRole('button', { name: 'Apply' }).click();
      await expect(page).toHaveURL(/sort=name/);
      expect(await rowFids(page)).toEqual([a.fid, b.fid, grid.fid]);
      // A bad value is the default, not an error.
      await page.goto(`/~e2e/?folder=${folder.n}&type=nonsense&sort=nonsense`);
      expect(await rowFids(page)).toEqual([a.fid, b.fid, grid.fid]);

      // "used by 2 plots" lists them; "data: grid" opens the grid.
      await row(page, grid.fid).locator('.file-used-by a').click();
      await expect(page).toHaveURL(new RegExp(`uses=${nOf(grid.fid)}`));
      await expect(page.locator('.uses-heading')).toContainText(grid.filename);
      expect((await rowFids(page)).sort()).toEqual([a.fid, b.fid].sort());
      await row(page, a.fid).locator('.file-data a').click();
      await expect(page).toHaveURL(new RegExp(`/~e2e/${nOf(grid.fid)}/$`));
      await expect(page.locator('h1')).toContainText(grid.filename);
    });

    test(`moves, shares and trashes a selection at once, plots with the grids only they use ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const dest = await newFolder(request);
      const grid = await gridIn(request, folder.n);
      const p1 = await plotOn(request, grid, folder);
      const p2 = await plotOn(request, grid, folder);
      const other = await createPlot(request, { visibility: 'private', filename: `other ${unique()}` });
      await moveTo(request, other.fid, folder.n);
      await page.goto(`/~e2e/?folder=${folder.n}`);

      // Nothing ticked: said at the form, nothing changes.
      await openBulk(page);
      await bulk(page).getByRole('button', { name: 'Move', exact: true }).click();
      await expect(bulk(page).locator('.form-error')).toHaveText('Select one or more files first.');
      await page.goto(`/~e2e/?folder=${folder.n}`);

      if (js) {
        // Select all on the page, counted; and none again.
        const count = bulk(page).locator('output');
        await expect(count).toHaveText('0 selected');
        await openBulk(page);
        await bulk(page).getByLabel('Select all on this page').check();
        await expect(count).toHaveText('4 selected');
        await bulk(page).getByLabel('Select all on this page').uncheck();
        await expect(count).toHaveText('0 selected');
        await tick(page, [p1.filename]);
        await expect(count).toHaveText('1 selected');
        await page.getByRole('checkbox', { name: `Select ${p1.filename}`, exact: true }).uncheck();
      }

      await tick(page, [p1.filename, p2.filename]);
      await bulk(page).getByLabel('Sharing').selectOption('public');
      await bulk(page).getByRole('button', { name: 'Save sharing' }).click();
      await expectNotice(page, 'Sharing of 2 files changed.');
      for (const p of [p1, p2]) expect((await file(request, p.fid)).json.world_readable).toBe(true);
      expect((await file(request, other.fid)).json.world_readable).toBe(false);

      await tick(page, [p1.filename, p2.filename, grid.filename]);
      await bulk(page).getByLabel('Move to').selectOption({ label: dest.name });
      await bulk(page).getByRole('button', { name: 'Move', exact: true }).click();
      await expectNotice(page, '3 files moved.');
      for (const f of [p1, p2, grid]) expect((await file(request, f.fid)).json.parent).toBe(dest.n);
      expect(await rowFids(page)).toEqual([other.fid]);

      await page.goto(`/~e2e/?folder=${dest.n}`);
      await tick(page, [p1.filename, p2.filename]);
      await expect(bulk(page).getByLabel('Trash with plots the grids only they use')).toBeChecked();
      await bulk(page).getByRole('button', { name: 'Move to trash' }).click();
      await expectNotice(page, '2 files moved to the trash.');
      await expectNotice(page, '1 grid only they used went with them.');
      for (const f of [p1, p2, grid]) expect((await file(request, f.fid)).status).toBe(404);
      await expect(page.locator('li.file-row')).toHaveCount(0);
    });

    test(`trashing and deleting a plot offers its lone grids, ticked, and says what went ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const grid = await gridIn(request, folder.n);
      const plot = await plotOn(request, grid, folder);
      await page.goto(`/~e2e/?folder=${folder.n}`);
      // Unticked: the grid stays.
      let r = await manage(page, plot.fid);
      const box = r.getByLabel('Also trash the grids only it uses');
      await expect(box).toBeChecked();
      await box.uncheck();
      await r.getByRole('button', { name: 'Move to trash' }).click();
      await expectNotice(page, 'Moved to the trash.');
      expect((await file(request, grid.fid)).status).toBe(200);
      await expect(row(page, grid.fid).locator('.file-used-by')).toHaveText('used by no plot');

      expect((await api(request, 'POST', `/v2/files/${plot.fid}/restore`)).status).toBe(200);
      await page.goto(`/~e2e/?folder=${folder.n}`);
      r = await manage(page, plot.fid);
      await r.getByRole('button', { name: 'Move to trash' }).click();
      await expectNotice(page, 'Moved to the trash. You can restore it from the Trash. 1 grid only it used went with it.');
      expect((await file(request, grid.fid)).status).toBe(404);

      // Deleted for good from the trash: its grid (trashed with it) too.
      await page.goto('/~e2e/?view=trash');
      const t = row(page, plot.fid);
      await expect(t.getByLabel('Also delete the grids only it uses')).toBeChecked();
      await t.getByLabel('Yes, delete it for good').check();
      await t.getByRole('button', { name: 'Delete for good' }).click();
      await expectNotice(page, 'Deleted for good. 1 grid only it used went with it.');
      for (const f of [plot, grid]) expect((await api(request, 'POST', `/v2/files/${f.fid}/restore`)).status).toBe(404);
    });

    test(`a selection moved at phone size, the page no wider than the phone ${mode}`, tag, async ({ page, request }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const folder = await newFolder(request);
      const dest = await newFolder(request);
      const grid = await gridIn(request, folder.n);
      const plot = await plotOn(request, grid, folder);
      await page.goto(`/~e2e/?folder=${folder.n}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await tick(page, [plot.filename]);
      await bulk(page).getByLabel('Move to').selectOption({ label: dest.name });
      await bulk(page).getByRole('button', { name: 'Move', exact: true }).click();
      await expectNotice(page, 'Moved.');
      expect((await file(request, plot.fid)).json.parent).toBe(dest.n);
    });
  });

  test(`"Empty trash" asks first, then deletes everything in the trash for good ${mode}`, tag, async ({ page, request }) => {
    expect(test.info().project.use.javaScriptEnabled).toBe(js);
    const user = TRASH_USERS[js ? 'js' : 'nojs'];
    await signIn(page, user);
    const folderRes = await api<{ file: { fid: string } }>(request, 'POST', '/v2/folders', { path: `old ${unique()}` }, user);
    const folderFid = folderRes.json.file.fid;
    const inside = await createPlot(request, { user, visibility: 'private' });
    expect((await api(request, 'PATCH', `/v2/files/${inside.fid}`, { parent: nOf(folderFid) }, user)).status).toBe(200);
    const loose = await createPlot(request, { user, visibility: 'private' });
    const live = await createPlot(request, { user, visibility: 'private' });
    for (const fid of [folderFid, loose.fid]) expect((await api(request, 'POST', `/v2/files/${fid}/trash`, undefined, user)).status).toBe(200);

    const trash = `/~${user.username}/?view=trash`;
    await page.goto(trash);
    await page.getByRole('link', { name: 'Empty trash…' }).click();
    await expect(page).toHaveURL(/empty=confirm/);
    const ask = page.locator('section.empty-confirm');
    await expect(ask).toContainText('3 files will be deleted for good');
    // Cancel: nothing goes.
    await ask.getByRole('link', { name: 'Cancel' }).click();
    await expect(page.locator('li.file-row')).toHaveCount(2);
    await page.getByRole('link', { name: 'Empty trash…' }).click();
    await page.locator('section.empty-confirm').getByRole('button', { name: 'Yes, empty the trash' }).click();
    await expectNotice(page, '3 files deleted for good.');
    await expect(page.getByText('The trash is empty.')).toBeVisible();
    for (const fid of [folderFid, inside.fid, loose.fid]) expect((await api(request, 'POST', `/v2/files/${fid}/restore`, undefined, user)).status).toBe(404);
    expect((await file(request, live.fid, user)).status).toBe(200);
  });
}
