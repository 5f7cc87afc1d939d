// Nothing is lost without asking (issue 37 point 4): the chart, grid and dashboard editors ask before
// an in-app link or form takes the person away from unsaved changes, stay when told to, and let them
// go once saved; Ctrl+S saves in each; the chart editor's controls end with a Save of their own.
import type { Page } from '@playwright/test';
import { createGrid, expect, plotPath, signIn, test, trashPlot, unique } from './support';

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Answers every dialog the page opens (stay unless `leave` is set), keeping their messages. */
function dialogs(page: Page) {
  const said = { asked: [] as string[], leave: false };
  page.on('dialog', (d) => {
    said.asked.push(d.message());
    void (said.leave ? d.accept() : d.dismiss());
  });
  return said;
}

/** Clicks the header's Feed link: answers once the page went to the feed, or once it asked and stayed (the answer is then its path). */
async function followFeed(page: Page, said: { asked: string[]; leave: boolean }): Promise<string> {
  const before = said.asked.length;
  await page.getByRole('banner').getByRole('link', { name: 'Feed' }).click();
  await expect.poll(() => (said.asked.length > before ? 'asked' : new URL(page.url()).pathname === '/feed' ? 'left' : 'waiting')).not.toBe('waiting');
  // A leave the person allowed goes on to the feed.
  if (said.asked.length === before || said.leave) await page.waitForURL(/\/feed$/);
  return new URL(page.url()).pathname;
}

test('every editor asks before a link leaves unsaved changes, stays when told, saves with Ctrl+S, and leaves freely once saved', async ({ page, request }) => {
  // Three editors, each opened, edited, refused a leave and saved: longer than one page's test.
  test.setTimeout(150_000);
  const made = await createGrid(request, { day: ['2024-01-01', '2024-01-02'], sales: [3, 5] }, { filename: `unsaved ${unique()}` });
  await signIn(page);
  const said = dialogs(page);

  // The chart editor: untouched, a link leaves without asking; a typed title makes it ask.
  await page.goto(`/create/chart?grid=${made.fid}`);
  expect(await followFeed(page, said)).toBe('/feed');
  expect(said.asked).toEqual([]);
  await page.goto(`/create/chart?grid=${made.fid}`);
  await page.getByLabel('Chart title', { exact: true }).fill('Not lost');
  expect(await followFeed(page, said)).toBe('/create/chart');
  expect(said.asked).toEqual(['You have unsaved changes. Leave this page and lose them?']);
  await expect(page.getByLabel('Chart title', { exact: true })).toHaveValue('Not lost');
  // Ctrl+S saves and goes to the chart's page without asking again.
  await page.getByLabel('Chart title', { exact: true }).press('Control+s');
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  await expect(page.locator('h1')).toHaveText('Not lost');
  const fid = `e2e:${new URL(page.url()).pathname.split('/')[2]}`;
  // Editing it again: the Save at the end of the controls.
  await page.goto(`${plotPath(fid)}edit`);
  await page.getByLabel('Chart title', { exact: true }).fill('Saved from the end');
  await button(page, 'Save chart').click();
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  await expect(page.locator('h1')).toHaveText('Saved from the end');
  expect(said.asked).toHaveLength(1);

  // The grid editor: an edited cell asks; Ctrl+S saves; then the link leaves.
  await page.goto(`${plotPath(made.fid)}edit`);
  await expect(page.getByRole('status').filter({ hasText: 'rows,' })).toContainText('2 rows, 2 columns', { timeout: 60_000 });
  await page.locator('#ge-cell-0-1').click();
  await page.keyboard.type('30');
  await page.keyboard.press('Enter');
  expect(await followFeed(page, said)).toBe(`${plotPath(made.fid)}edit`);
  expect(said.asked).toHaveLength(2);
  await page.keyboard.press('Control+s');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect(await followFeed(page, said)).toBe('/feed');
  expect(said.asked).toHaveLength(2);

  // The dashboard builder: a new box asks; told to leave, it goes.
  await page.goto('/create/dashboard');
  await button(page, 'Add text').click();
  await page.keyboard.type('Notes');
  expect(await followFeed(page, said)).toBe('/create/dashboard');
  expect(said.asked).toHaveLength(3);
  said.leave = true;
  expect(await followFeed(page, said)).toBe('/feed');
  expect(said.asked).toHaveLength(4);
  await trashPlot(request, fid);
});
