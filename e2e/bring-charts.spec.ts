// "Bring your charts" (issue 40): every file of fixtures/bring (written by Debian's python3-plotly:
// make-fixtures.py) chosen at once on /create; the page lists the charts made (links), those whose
// figure came twice, and the refused with their reasons (a zip bomb, 10,000-deep JSON, a call on
// variables in a page whose scripts never run); a Chart Studio plot from the zip drawn with its data
// in a grid (srcs); its old URL forms and Chart Studio's editor link resolve. Axe and screenshots.
import { readdirSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { basicAuth, E2E_USER, expect, expectChartDrawn, signIn, test } from './support';

const DIR = 'fixtures/bring';
const FILES = readdirSync(DIR)
  .filter((f) => !f.endsWith('.py'))
  .sort()
  .map((f) => `${DIR}/${f}`);

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a folder of plotly’s files brought on /create: plots made on grids, the refused said why, old links resolve', async ({
  page,
  request,
  browser,
}, testInfo) => {
  // One person's whole path: 12 files, ~11 charts stored and drawn, and the old links.
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page);
  await page.goto('/create');
  await page.getByLabel('Public (else only you see them)').check();
  await page.getByLabel('Bring your charts').setInputFiles(FILES);
  const results = page.locator('.bring-results');
  await expect(results.getByRole('heading', { name: 'Charts made (6)' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(results.locator('.bring-made a')).toHaveText(['Fruit counts', 'Temperature', 'Share', 'Heat', 'Monthly sales', 'Growth rate']);
  await expect(results.getByRole('heading', { name: 'Imported before (5)' })).toBeVisible();
  await expect(results.locator('.bring-refused li')).toHaveText([
    /^bomb\.zip: it unpacks to over 100 times its size \(a zip bomb\?\)$/,
    /^deep\.json: .*nesting deeper than 100 levels/,
    /^hostile\.html, figure 2: a Plotly\.newPlot call whose arguments are not JSON literals/,
  ]);
  await axe(page);
  await shoot(page, testInfo, 'bring-charts-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing sticks out at 390 px').toBeLessThanOrEqual(390);
  await shoot(page, testInfo, 'bring-charts-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  const salesPath = await results.getByRole('link', { name: 'Monthly sales' }).getAttribute('href');
  // A file dropped anywhere on the page is brought too: this one came before, so it is listed so.
  await page.evaluate(
    (text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], 'fruit.json', { type: 'application/json' }));
      document.querySelector('main h1')?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    readFileSync(`${DIR}/fruit.json`, 'utf8'),
  );
  await expect(results.getByRole('heading', { name: 'Imported before (1)' })).toBeVisible();
  await expect(results.getByRole('heading', { name: 'Charts made (0)' })).toBeVisible();
  await page.goto(salesPath!);
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  const n = Number(new URL(page.url()).pathname.split('/')[2]);
  const auth = { Authorization: basicAuth(E2E_USER) };
  const content = await (await request.get(`/v2/plots/e2e:${n}/content`, { headers: auth })).json();
  expect(content.data[0].xsrc).toMatch(/^e2e:\d+:[0-9a-f]+$/);
  const grid = content.data[0].xsrc.split(':').slice(0, 2).join(':');
  const cols = (await (await request.get(`/v2/grids/${grid}/content`, { headers: auth })).json()).cols;
  expect(Object.values(cols).map((c) => (c as { data: unknown[] }).data)).toEqual([
    ['Jan', 'Feb', 'Mar'],
    [120, 135, 160],
  ]);
  expect(dialogs).toEqual([]);

  // Chart Studio's URL forms, and its editor link: the editor for its owner, the page for others.
  for (const form of [`/~e2e/${n}`, `/~e2e/${n}/`, `/~e2e/${n}/monthly-sales/`, `/~e2e/${n}.embed`, `/~e2e/${n}.png`, `/~e2e/${n}.json`]) {
    expect((await request.get(form)).status(), form).toBe(200);
  }
  await page.goto(`/create/?fid=e2e:${n}`);
  await expect(page).toHaveURL(new RegExp(`/~e2e/${n}/edit$`));
  const anonymous = await browser.newPage();
  await anonymous.goto(`/create/?fid=e2e:${n}`);
  await expect(anonymous).toHaveURL(new RegExp(`/~e2e/${n}/$`));
  await anonymous.close();
});
