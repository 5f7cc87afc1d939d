// The first chart means something (issue 37 point 2): the editor starts from what the grid's columns
// hold (dates and numbers: a line of each over time; words and a number: bars; countries and a number:
// a map; two numbers: a scatter) and offers the next best ones, which keep the title typed so far.
import type { Page } from '@playwright/test';
import { createGrid, expect, expectChartDrawn, signIn, test, unique } from './support';

const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test('the first chart is chosen from the columns, and the next best ones are offered', async ({ page, request }) => {
  const grids = {
    series: await createGrid(
      request,
      { day: ['2024-01-01', '2024-01-02', '2024-01-03'], sales: [3, 1, 4], costs: [2, 7, 1] },
      { filename: `series ${unique()}` },
    ),
    cities: await createGrid(request, { city: ['Oslo', 'Lima', 'Pune'], sales: [3, 1, 4] }, { filename: `cities ${unique()}` }),
    countries: await createGrid(request, { country: ['Norway', 'Peru', 'India', 'Japan'], sales: [3, 1, 4, 1] }, { filename: `countries ${unique()}` }),
    numbers: await createGrid(request, { height: [150, 160, 170], weight: [50, 60, 70] }, { filename: `numbers ${unique()}` }),
  };
  // Four editors opened on a busy machine (a map among them).
  test.setTimeout(120_000);
  await signIn(page);
  const open = (fid: string) => page.goto(`/create/chart?grid=${fid}`);

  await open(grids.cities.fid);
  await expect(byLabel(page, 'Chart type')).toHaveValue('bar');
  await expect(byLabel(page, 'X').locator('option:checked')).toHaveText('city');
  await expect(byLabel(page, 'Y').locator('option:checked')).toHaveText('sales');

  await open(grids.countries.fid);
  await expect(byLabel(page, 'Chart type')).toHaveValue('map-regions');
  await expect(byLabel(page, 'Locations').locator('option:checked')).toHaveText('country');

  await open(grids.numbers.fid);
  await expect(byLabel(page, 'Chart type')).toHaveValue('scatter');
  await expect(byLabel(page, 'X').locator('option:checked')).toHaveText('height');
  await expect(byLabel(page, 'Y').locator('option:checked')).toHaveText('weight');

  // A line of each number over time, each trace named after its column.
  await open(grids.series.fid);
  await expect(byLabel(page, 'Chart type')).toHaveValue('line');
  await expect(page.locator('.trace-tab')).toHaveText(['1. sales', '2. costs']);
  await expect(byLabel(page, 'X').locator('option:checked')).toHaveText('day');
  await expectChartDrawn(page.getByRole('figure', { name: 'Chart preview' }));
  await byLabel(page, 'Chart title').fill('Kept title');
  const offered = page.getByRole('group', { name: 'Other charts of these columns' });
  await offered.getByRole('button', { name: 'Area: sales and costs over day' }).click();
  await expect(byLabel(page, 'Chart type')).toHaveValue('area');
  await expect(byLabel(page, 'Chart title')).toHaveValue('Kept title');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(byLabel(page, 'Chart type')).toHaveValue('line');
});
