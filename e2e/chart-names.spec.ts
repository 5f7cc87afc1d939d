// Names people chose (issue 37 point 6): a chart made on the web is a file named after its title,
// numbered when that name is taken; the editor's Name field renames it (a taken name refused at the
// field, in words); an import whose name is taken is numbered instead of refused.
import type { APIRequestContext, Page } from '@playwright/test';
import { basicAuth, createGrid, E2E_USER, expect, type FileRecord, signIn, test, trashPlot, unique } from './support';

const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const record = async (request: APIRequestContext, kind: 'plots' | 'grids', fid: string) =>
  (await (await request.get(`/v2/${kind}/${fid}`, { headers: { Authorization: basicAuth(E2E_USER) } })).json()) as FileRecord;

async function saved(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  return `e2e:${new URL(page.url()).pathname.split('/')[2]}`;
}

test('a new chart is named after its title, numbered when taken; Name renames it; a taken import name is numbered', async ({ page, request }) => {
  const grid = await createGrid(request, { city: ['Oslo', 'Lima'], sales: [3, 5] }, { filename: `names grid ${unique()}` });
  const title = `Sales / city ${unique()}`;
  const name = title.replace('/', '-');
  await signIn(page);
  const fids: string[] = [];
  for (const expected of [name, `${name} (2)`]) {
    await page.goto(`/create/chart?grid=${grid.fid}`);
    await byLabel(page, 'Chart title').fill(title);
    await expect(byLabel(page, 'Name')).toHaveAttribute('placeholder', name);
    const fid = await saved(page);
    fids.push(fid);
    expect((await record(request, 'plots', fid)).filename).toBe(expected);
  }

  // Renamed in the editor: a taken name is refused at the field and nothing is saved; a free one renames.
  await page.goto(`/~e2e/${fids[1].split(':')[1]}/edit`);
  await expect(byLabel(page, 'Name')).toHaveValue(`${name} (2)`);
  await byLabel(page, 'Name').fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('#chart-name-error')).toContainText('already exists');
  await expect(byLabel(page, 'Name')).toHaveAttribute('aria-invalid', 'true');
  expect((await record(request, 'plots', fids[1])).filename).toBe(`${name} (2)`);
  await byLabel(page, 'Name').fill(`${name} renamed`);
  await saved(page);
  expect((await record(request, 'plots', fids[1])).filename).toBe(`${name} renamed`);

  // An import named as an existing grid is stored as "name (2)".
  await page.goto('/create');
  await page.getByLabel('Paste data').fill('city\tsales\nOslo\t3');
  await byLabel(page, 'Name').fill(grid.filename!);
  await page.getByRole('button', { name: 'Import and make a chart' }).click();
  await page.waitForURL(/\/create\/chart\?grid=/);
  const imported = new URL(page.url()).searchParams.get('grid')!;
  expect((await record(request, 'grids', imported)).filename).toBe(`${grid.filename} (2)`);
  for (const fid of fids) await trashPlot(request, fid);
});

test('"Make a chart" on a grid page opens the editor on that grid', async ({ page, request }) => {
  const grid = await createGrid(request, { city: ['Oslo', 'Lima'], sales: [3, 5] }, { filename: `chart me ${unique()}` });
  await signIn(page);
  await page.goto(`/~e2e/${grid.fid.split(':')[1]}/`);
  await page.getByRole('link', { name: 'Make a chart', exact: true }).click();
  await page.waitForURL(/\/create\/chart\?grid=/);
  expect(new URL(page.url()).searchParams.get('grid')).toBe(grid.fid);
  await expect(byLabel(page, 'Chart type')).toHaveValue('bar');
});
