// A private plot's data stays private (lib/core/plots/plot-data-sharing.ts): flipping a plot private in the
// workspace takes along the grid only it draws from (its page, CSV and API content are then the 404 of
// a missing file to anyone else), and the page says which grids stay public and why (another public
// plot uses it; it is someone else's). A plot made private through the API (the file alone) warns its
// owner on its page, with a one-click fix. With and without JavaScript; axe on both pages, and
// screenshots at desktop and phone width.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { E2E_USER, OTHER_USER, basicAuth, createGrid, expect, plotPath, signIn, test, unique, type FileRecord } from './support';

const auth = { Authorization: basicAuth(E2E_USER) };

async function api<T>(request: APIRequestContext, method: string, path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(path, { method, headers: auth, data });
  const text = await res.text();
  expect(res.ok(), `${method} ${path}: HTTP ${res.status()} ${text.slice(0, 300)}`).toBe(true);
  return JSON.parse(text) as T;
}

/** A public plot of e2e's drawing column y of each grid, in folder `parent` (a path) when given. */
async function plotOn(request: APIRequestContext, grids: Awaited<ReturnType<typeof createGrid>>[], name: string, parent?: string): Promise<FileRecord> {
  const { file } = await api<{ file: FileRecord }>(request, 'POST', '/v2/plots', {
    filename: name,
    ...(parent ? { parent_path: parent } : {}),
    world_readable: true,
    figure: { data: grids.map((g) => ({ type: 'bar', xsrc: g.src('x'), ysrc: g.src('y') })) },
  });
  return file;
}

/** What an anonymous caller gets at a grid's page, its CSV and its API content: the statuses. */
async function anonymousStatuses(request: APIRequestContext, fid: string): Promise<number[]> {
  const [owner, n] = fid.split(':');
  const urls = [`/~${owner}/${n}/`, `/~${owner}/${n}.csv`, `/v2/grids/${fid}/content`];
  return Promise.all(urls.map(async (url) => (await request.get(url, { maxRedirects: 0 })).status()));
}

async function expectNoAxeViolations(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on the ${name}`).toEqual([]);
}

const data = (page: Page) => page.locator('section.plot-data');

/** Full-page screenshots at desktop and phone width, attached to the report. */
async function screenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const [width, height, label] of [
    [1280, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    // Drawn afresh at this width (a chart keeps the size it was drawn at).
    await page.reload();
    await expect(data(page)).toBeVisible();
    const file = testInfo.outputPath(`${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name} (${label})`, { path: file, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const group = (page: Page, lead: string) => data(page).locator('.data-group', { hasText: lead });

for (const js of [true, false]) {
  const mode = js ? 'with JavaScript' : 'without JavaScript';
  const tag = js ? {} : { tag: '@no-js' };

  test.describe(`a plot's data follows its sharing ${mode}`, () => {
    test.beforeEach(async ({ page }) => {
      expect(test.info().project.use.javaScriptEnabled, 'the project runs this mode').toBe(js);
      await signIn(page);
    });

    test(`flipping a plot private in the workspace makes its own grid private and says which stay public ${mode}`, tag, async ({ page, request }, testInfo) => {
      const folder = `data ${unique()}`;
      const folderN = Number((await api<{ file: { fid: string } }>(request, 'POST', '/v2/folders', { path: folder })).file.fid.split(':')[1]);
      const own = await createGrid(request, { x: ['a', 'b'], y: [1, 2] }, { filename: `only this plot ${unique()}` });
      const shared = await createGrid(request, { x: ['a', 'b'], y: [3, 4] }, { filename: `shared ${unique()}` });
      const theirs = await createGrid(request, { x: ['a', 'b'], y: [5, 6] }, { user: OTHER_USER, filename: `theirs ${unique()}` });
      const plot = await plotOn(request, [own, shared, theirs], `flipped ${unique()}`, folder);
      const other = await plotOn(request, [shared], `still public ${unique()}`);
      expect(await anonymousStatuses(request, own.fid)).toEqual([200, 200, 200]);

      await page.goto(`/~e2e/?folder=${folderN}`);
      const row = page.locator(`li.file-row[data-fid="${plot.fid}"]`);
      await row.locator('summary').click();
      await row.locator('input[name="sharing"][value="private"]').check();
      await row.getByRole('button', { name: 'Save sharing', exact: true }).click();

      await expect(page.locator('p.notice[role="status"]').first()).toHaveText('Sharing changed.');
      await expect(data(page).getByRole('heading')).toHaveText(`The data of “${plot.filename}”`);
      await expect(group(page, 'Private, like the plot:').getByRole('link')).toHaveText([own.filename]);
      await expect(group(page, 'Private, like the plot:').getByRole('link')).toHaveAttribute('href', plotPath(own.fid));
      const held = group(page, 'Still public, because another public plot of yours uses it:');
      await expect(held.locator('li')).toHaveText([`${shared.filename} (used by ${other.filename})`]);
      await expect(held.getByRole('link', { name: other.filename })).toHaveAttribute('href', plotPath(other.fid));
      await expect(group(page, 'Still public, because it belongs to someone else:').locator('li')).toHaveText([
        `${theirs.filename} (by ${OTHER_USER.username})`,
      ]);
      await expect(data(page).getByRole('button')).toHaveCount(0);

      // The grid only this plot drew from is the 404 of a missing file to anyone else; the others stay public.
      expect(await anonymousStatuses(request, own.fid)).toEqual([404, 404, 404]);
      expect(await anonymousStatuses(request, shared.fid)).toEqual([200, 200, 200]);
      expect(await anonymousStatuses(request, theirs.fid)).toEqual([200, 200, 200]);
      await expect(row.locator('.badge')).toHaveText('Private');

      if (js) {
        await expectNoAxeViolations(page, 'workspace with the data notice');
        await screenshots(page, testInfo, 'workspace-data-notice');
      }

      // Public again: no grid is widened, and the page says which stay private.
      await row.locator('summary').click();
      await expect(row.locator('details.file-manage')).toHaveAttribute('open', '');
      await row.locator('input[name="sharing"][value="public"]').check();
      await row.getByRole('button', { name: 'Save sharing', exact: true }).click();
      await expect(row.locator('.badge')).toHaveText('Public');
      await expect(group(page, 'Still private: anyone who can see the plot sees the columns it draws').getByRole('link')).toHaveText([own.filename]);
      expect(await anonymousStatuses(request, own.fid)).toEqual([404, 404, 404]);
    });

    test(
      `a plot made private through the API warns its owner on its page, and the fix makes the grid private ${mode}`,
      tag,
      async ({ page, request }, testInfo) => {
        const grid = await createGrid(request, { x: ['a', 'b'], y: [7, 8] }, { filename: `left public ${unique()}` });
        const plot = await plotOn(request, [grid], `private by API ${unique()}`);
        // The API changes the file alone, as the clients expect.
        await api(request, 'PATCH', `/v2/plots/${plot.fid}`, { world_readable: false });
        expect(await anonymousStatuses(request, grid.fid)).toEqual([200, 200, 200]);

        await page.goto(plotPath(plot.fid));
        await expect(data(page).getByRole('heading')).toHaveText('This private plot reads public data');
        const follows = group(page, 'This grid is public (anyone can open it and download its data), though no public plot of yours uses it:');
        await expect(follows.getByRole('link')).toHaveText([grid.filename]);
        if (js) {
          await expectNoAxeViolations(page, 'plot page with the warning');
          await screenshots(page, testInfo, 'plot-page-data-warning');
        }
        await follows.getByRole('button', { name: 'Make this grid private' }).click();

        // Said where the page opens, above the chart (issue 37 point 9).
        await expect(page.locator('.plot-page > p.notice[role="status"]')).toHaveText('Sharing of its grids changed.');
        await expect(data(page).getByRole('heading')).toHaveText(`The data of “${plot.filename}”`);
        await expect(group(page, 'Private, like the plot:').getByRole('link')).toHaveText([grid.filename]);
        expect(await anonymousStatuses(request, grid.fid)).toEqual([404, 404, 404]);
        // The plot itself is as it was: private, and still readable by its owner.
        expect((await api<{ world_readable: boolean; share_key_enabled: boolean }>(request, 'GET', `/v2/plots/${plot.fid}`)).world_readable).toBe(false);
        // Once nothing public is read, a plain visit shows no notice.
        await page.goto(plotPath(plot.fid));
        await expect(data(page)).toHaveCount(0);
      },
    );
  });
}
