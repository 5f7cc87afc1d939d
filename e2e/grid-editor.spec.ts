// The grid editor (issue 25 point 2): the owner's grid as a spreadsheet at /~owner/n/edit. Cell edits,
// a pasted block, undo, column and row edits, saved and read back through the API; a save based on
// data changed meanwhile refused with the edits kept, then re-applied cell by cell; keyboard-only use; a million rows scrolled to
// the end; axe and screenshots at desktop and phone sizes; others' grids are the 404.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { basicAuth, createGrid, E2E_USER, expect, OTHER_USER, plotPath, signIn, test, unique } from './support';

const editorPath = (fid: string) => `${plotPath(fid)}edit`;
const cell = (page: Page, r: number, c: number) => page.locator(`#ge-cell-${r}-${c}`);
const grid = (page: Page) => page.getByRole('grid');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

type Content = Record<string, { data: unknown[]; order: number; uid: string }>;

async function content(request: APIRequestContext, fid: string): Promise<Content> {
  const res = await request.get(`/v2/grids/${fid}/content`, { headers: { Authorization: basicAuth(E2E_USER) } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { cols: Content }).cols;
}

/** The columns' names in order, and their values. */
const table = (cols: Content) =>
  Object.entries(cols)
    .sort((a, b) => a[1].order - b[1].order)
    .map(([name, c]) => [name, c.data]);

/** Opens the editor and waits for its data. */
async function openEditor(page: Page, fid: string, rows: string) {
  await page.goto(editorPath(fid));
  await expect(page.getByRole('status').filter({ hasText: 'rows,' })).toContainText(rows, { timeout: 60_000 });
}

/** A paste of text copied from a spreadsheet, into the focused grid. */
async function paste(page: Page, text: string) {
  await grid(page).evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function saved(page: Page) {
  await button(page, 'Save').click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
}

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on ${name}`).toEqual([]);
}

test('edits a cell, pastes a block that adds rows, undoes a step, saves; the API reads the edits back and the plot follows', async ({ page, request }) => {
  const made = await createGrid(request, { a: [1, 2, 3], b: [4, 5, 6], c: ['p', 'q', 'r'] }, { filename: `edit grid ${unique()}` });
  const plot = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: { filename: `edit plot ${unique()}`, figure: { data: [{ type: 'scatter', xsrc: made.src('a'), ysrc: made.src('b') }] } },
  });
  const plotFid = ((await plot.json()) as { file: { fid: string } }).file.fid;
  const modified = async () =>
    ((await (await request.get(`/v2/plots/${plotFid}`, { headers: { Authorization: basicAuth(E2E_USER) } })).json()) as { date_modified: string })
      .date_modified;
  const before = await modified();
  await signIn(page);
  await page.goto(plotPath(made.fid));
  await page.getByRole('link', { name: 'Edit data' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edit data: ${made.filename}`);
  await expect(page.getByRole('status').filter({ hasText: 'rows,' })).toContainText('3 rows, 3 columns');

  await cell(page, 0, 1).click();
  await page.keyboard.type('40');
  await page.keyboard.press('Enter');
  await expect(cell(page, 0, 1)).toHaveText('40');
  // The 2 × 3 block lands from row 3, column a: one more row.
  await cell(page, 2, 0).click();
  await paste(page, '7\t8\tx y\n70\t80\tz\n');
  await expect(page.getByRole('status').filter({ hasText: 'Pasted' })).toContainText('Pasted 2 × 3 cells. 4 rows, 3 columns');
  await expect(cell(page, 3, 2)).toHaveText('z');
  await cell(page, 1, 2).dblclick();
  await page.getByRole('textbox', { name: 'c, row 2' }).fill('typo');
  await page.keyboard.press('Enter');
  await expect(cell(page, 1, 2)).toHaveText('typo');
  await button(page, 'Undo').click();
  await expect(cell(page, 1, 2)).toHaveText('q');
  await expect(cell(page, 3, 2)).toHaveText('z');
  await saved(page);

  expect(table(await content(request, made.fid))).toEqual([
    ['a', [1, 2, 7, 70]],
    ['b', [40, 5, 8, 80]],
    ['c', ['p', 'q', 'x y', 'z']],
  ]);
  // The plot drawn from the grid is drawn again (its record moved with the data).
  await expect.poll(modified).not.toBe(before);
});

test('renames, adds, deletes and reorders columns, adds and deletes rows, saves once; the API reads it back', async ({ page, request }) => {
  const made = await createGrid(request, { a: [1, 2, 3], b: [4, 5, 6], c: [7, 8, 9] }, { filename: `columns grid ${unique()}` });
  await signIn(page);
  await openEditor(page, made.fid, '3 rows, 3 columns');
  // Rename b to "beta".
  await cell(page, 0, 1).click();
  await page.getByLabel('Column name', { exact: true }).fill('beta');
  await button(page, 'Rename column').click();
  await expect(page.getByRole('columnheader', { name: 'beta' })).toBeVisible();
  // A new column after beta, with a value.
  await button(page, 'Add column').click();
  await expect(page.getByRole('columnheader', { name: 'Column 4' })).toBeVisible();
  await cell(page, 0, 2).click();
  await page.keyboard.type('new');
  await page.keyboard.press('Enter');
  // Delete a, then move c to the front.
  await cell(page, 0, 0).click();
  await button(page, 'Delete column').click();
  await cell(page, 0, 2).click();
  await button(page, 'Move column left').click();
  await button(page, 'Move column left').click();
  await expect(page.getByRole('columnheader').nth(1)).toContainText('c');
  // Delete row 2; add a row after row 1 and fill it.
  await cell(page, 1, 0).click();
  await button(page, 'Delete selected rows').click();
  await cell(page, 0, 0).click();
  await button(page, 'Add row').click();
  await cell(page, 1, 0).click();
  await page.keyboard.type('0');
  await page.keyboard.press('Tab');
  await expect(cell(page, 1, 0)).toHaveText('0');
  await saved(page);
  expect(table(await content(request, made.fid))).toEqual([
    ['c', [7, 0, 9]],
    ['beta', [4, '', 6]],
    ['Column 4', ['new', '', '']],
  ]);
  // The uids of kept columns stay (plots keep drawing them).
  const cols = await content(request, made.fid);
  expect(cols.c.uid).toBe(made.cols!.find((c) => c.name === 'c')!.uid);
  expect(cols.beta.uid).toBe(made.cols!.find((c) => c.name === 'b')!.uid);
});

test('a save refused because someone else saved meanwhile: the edits stay, download, and re-apply cell by cell with the conflicts shown', async ({
  page,
  request,
}, testInfo) => {
  const made = await createGrid(request, { a: [1, 2], b: ['x', 'y'] }, { filename: `stale grid ${unique()}` });
  await signIn(page);
  await openEditor(page, made.fid, '2 rows, 2 columns');
  await cell(page, 0, 0).click();
  await page.keyboard.type('mine');
  await page.keyboard.press('Enter');
  await cell(page, 1, 1).click();
  await page.keyboard.type('yours');
  await page.keyboard.press('Enter');
  // Meanwhile, through the API: column a becomes 100, 200 (its first cell changed by both).
  const uid = made.cols!.find((c) => c.name === 'a')!.uid;
  const put = await request.put(`/v2/grids/${made.fid}/col?uid=${uid}`, {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: { cols: JSON.stringify([{ data: [100, 200] }]) },
  });
  expect(put.ok()).toBe(true);
  await button(page, 'Save').click();
  await expect(page.locator('.editor-problems[role="alert"]')).toContainText('Someone else saved this grid since you opened it, so nothing was saved');
  await expect(cell(page, 0, 0)).toHaveText('mine');
  expect(table(await content(request, made.fid))).toEqual([
    ['a', [100, 200]],
    ['b', ['x', 'y']],
  ]);
  const download = page.waitForEvent('download');
  await button(page, 'Download CSV').click();
  const file = await (await download).path();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(file!, 'utf8')).toBe('a,b\r\nmine,x\r\n2,yours\r\n');

  // Re-applied: their 200 stays, your "yours" goes in, and the cell you both changed keeps yours, listed.
  await button(page, 'Re-apply my edits to the current data').click();
  await expect(page.getByRole('status').filter({ hasText: 're-applied' })).toContainText('1 cell, and 1 both of you changed');
  await expect(cell(page, 0, 0)).toHaveText('mine');
  await expect(cell(page, 1, 0)).toHaveText('200');
  await expect(cell(page, 1, 1)).toHaveText('yours');
  const conflicts = page.getByRole('table', { name: /Cells you both changed/ });
  await expect(conflicts.getByRole('row').nth(1)).toHaveText(/a\s*1\s*100\s*mine/);
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const shot = testInfo.outputPath(`grid-reapplied-${size.width}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`re-applied edits (${size.width} px)`, { path: shot, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const axe = await new AxeBuilder({ page }).include('.ge-merge').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await button(page, 'Use theirs in row 1 of a').click();
  await expect(cell(page, 0, 0)).toHaveText('100');
  await saved(page);
  expect(table(await content(request, made.fid))).toEqual([
    ['a', [100, 200]],
    ['b', ['x', 'yours']],
  ]);
});

test('keyboard only: reach the grid, move, edit, cancel, undo, redo and save', async ({ page, request }) => {
  const made = await createGrid(request, { a: [1, 2], b: [3, 4] }, { filename: `keys grid ${unique()}` });
  await signIn(page);
  await openEditor(page, made.fid, '2 rows, 2 columns');
  for (let i = 0; i < 40 && !(await grid(page).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(grid(page)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(grid(page)).toHaveAttribute('aria-activedescendant', 'ge-cell-1-1');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('44');
  await page.keyboard.press('Enter');
  await expect(cell(page, 1, 1)).toHaveText('44');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('F2');
  await page.keyboard.type('9');
  await page.keyboard.press('Escape');
  await expect(cell(page, 0, 1)).toHaveText('3');
  await expect(grid(page)).toBeFocused();
  await page.keyboard.press('Delete');
  await expect(cell(page, 0, 1)).toHaveText('');
  await page.keyboard.press('Control+z');
  await expect(cell(page, 0, 1)).toHaveText('3');
  await page.keyboard.press('Control+z');
  await expect(cell(page, 1, 1)).toHaveText('4');
  await page.keyboard.press('Control+y');
  await expect(cell(page, 1, 1)).toHaveText('44');
  // Out of the grid backwards to the toolbar's Save.
  await page.keyboard.press('Shift+Tab');
  for (let i = 0; i < 10 && !(await button(page, 'Save').evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
  await expect(button(page, 'Save')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect(table(await content(request, made.fid))).toEqual([
    ['a', [1, 2]],
    ['b', [3, 44]],
  ]);
});

test('copies and pastes with the system clipboard (Ctrl+C, Ctrl+V), as between spreadsheets', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const made = await createGrid(request, { a: [1, 2, 3], b: ['x', 'y z', 'w'] }, { filename: `clipboard grid ${unique()}` });
  await signIn(page);
  await openEditor(page, made.fid, '3 rows, 2 columns');
  await cell(page, 0, 0).click();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Control+c');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('1\tx\n2\ty z');
  await cell(page, 2, 0).click();
  await page.keyboard.press('Control+v');
  await expect(page.getByRole('status').filter({ hasText: 'Pasted' })).toContainText('Pasted 2 × 2 cells. 4 rows, 2 columns');
  await expect(cell(page, 3, 1)).toHaveText('y z');
  await saved(page);
  expect(table(await content(request, made.fid))).toEqual([
    ['a', [1, 2, 1, 2]],
    ['b', ['x', 'y z', 'x', 'y z']],
  ]);
});

test('a million rows open and scroll to the last one', async ({ page, request }) => {
  test.setTimeout(240_000);
  const n = 1_000_000;
  const made = await createGrid(
    request,
    { i: Array.from({ length: n }, (_, k) => k + 1), half: Array.from({ length: n }, (_, k) => k / 2), mod: Array.from({ length: n }, (_, k) => k % 7) },
    { filename: `million ${unique()}`, worldReadable: false },
  );
  await signIn(page);
  await openEditor(page, made.fid, '1,000,000 rows, 3 columns');
  // The scrollbar dragged to the end shows the last row.
  await grid(page).evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(cell(page, n - 1, 0)).toHaveText('1000000');
  await expect(cell(page, n - 1, 1)).toHaveText('499999.5');
  await expect(page.getByRole('rowheader', { name: '1,000,000' })).toBeVisible();
  // And back to the top by keyboard, then to the end.
  await cell(page, n - 1, 0).click();
  await page.keyboard.press('Control+Home');
  await expect(cell(page, 0, 0)).toHaveText('1');
  await page.keyboard.press('Control+End');
  await expect(cell(page, n - 1, 0)).toHaveText('1000000');
  await expect(cell(page, n - 1, 0)).toBeInViewport();
  await request.delete(`/v2/grids/${made.fid}`, { headers: { Authorization: basicAuth(E2E_USER) } });
});

test("others' grids: no Edit data link, and their editor is the 404 of a missing file", async ({ page, request }) => {
  const theirs = await createGrid(request, { a: [1] }, { user: OTHER_USER, filename: `their grid ${unique()}` });
  await signIn(page);
  await page.goto(plotPath(theirs.fid));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(theirs.filename);
  await expect(page.getByRole('link', { name: 'Edit data' })).toHaveCount(0);
  const res = await page.goto(editorPath(theirs.fid));
  expect(res?.status()).toBe(404);
});

test('accessibility and screenshots of the grid editor, desktop and phone', async ({ page, request }, testInfo) => {
  // axe and full-page screenshots of every view at two sizes.
  test.slow();
  const made = await createGrid(
    request,
    { day: ['2024-01-01', '2024-01-02', '2024-01-03'], fruit: ['apple', 'pear', 'fig'], sales: [3, 1, 4], costs: [2.5, 7, 1] },
    { filename: `a11y grid ${unique()}` },
  );
  await signIn(page);
  for (const [size, viewport] of Object.entries({ desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } })) {
    await page.setViewportSize(viewport);
    await openEditor(page, made.fid, '3 rows, 4 columns');
    await cell(page, 1, 1).click();
    await axe(page, testInfo, `grid editor (${size})`);
    await page.keyboard.press('Enter');
    await axe(page, testInfo, `grid editor editing (${size})`);
    await page.keyboard.press('Escape');
    await page.getByLabel('Column name', { exact: true }).fill('sales');
    await button(page, 'Rename column').click();
    await expect(page.locator('.editor-problems[role="alert"]')).toContainText("Another column is named 'sales'");
    await axe(page, testInfo, `grid editor problem (${size})`);
    await page.goto(plotPath(made.fid));
    await axe(page, testInfo, `grid page with Edit data (${size})`);
  }
});
