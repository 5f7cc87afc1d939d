// Themes and templates (issue 25 point 3) as a person uses them: a chart's styling saved as a theme
// on its page and applied to another chart in the editor (an undoable edit), saved and read back
// through the API; a chart saved as a template and used on /create with new data ("Start from a
// template"), the new chart drawing from the new grid's columns; keyboard, axe, desktop and phone.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { basicAuth, createGrid, E2E_USER, expect, expectChartDrawn, plotPath, signIn, test, unique } from './support';

const auth = { Authorization: basicAuth(E2E_USER) };
const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function record(request: APIRequestContext, fid: string) {
  const res = await request.get(`/v2/plots/${fid}`, { headers: auth });
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    fid: string;
    is_theme: boolean;
    is_template: boolean;
    world_readable: boolean;
    figure: { data: Record<string, any>[]; layout: Record<string, any> };
  };
}

/** A private bar chart of the e2e user's, made through the API, styled. */
async function styledChart(request: APIRequestContext, name: string) {
  const grid = await createGrid(request, { month: ['jan', 'feb', 'mar'], revenue: [3, 5, 4] }, { worldReadable: false });
  const res = await request.post('/v2/plots', {
    headers: auth,
    data: {
      filename: name,
      world_readable: false,
      figure: {
        data: [{ type: 'bar', name: 'revenue', xsrc: grid.src('month'), ysrc: grid.src('revenue'), marker: { color: '#8e44ad' } }],
        layout: { title: { text: name, font: { size: 26 } }, plot_bgcolor: '#fdf6e3', font: { family: 'Georgia, serif' }, xaxis: { gridcolor: '#d33682' } },
      },
    },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { file: { fid: string } }).file.fid;
}

/** What the save said (the page has other status lines). */
const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'Saved as' });

/** On the owner's plot page: saves it as a theme or template named `name`; answers the new file's fid (from the link the page gives). */
async function saveAs(page: Page, fid: string, what: 'theme' | 'template', name: string) {
  await page.goto(plotPath(fid));
  await byLabel(page, 'Name of the theme or template').fill(name);
  await page.getByRole('button', { name: `Save as ${what}`, exact: true }).click();
  const status = saved(page);
  const link = status.getByRole('link', { name });
  await expect(link).toBeVisible();
  await expect(status).toContainText(`Saved as a ${what}`);
  const [, owner, n] = /\/~([^/]+)\/(\d+)\/$/.exec((await link.getAttribute('href'))!)!;
  return `${owner}:${n}`;
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    // Nothing wider than the screen: the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} ${size}`).toBeLessThanOrEqual(viewport.width);
    const file = testInfo.outputPath(`${name}-${size}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name} (${size})`, { path: file, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function expectAxeClean(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test("a theme saved from one chart and applied to another: the second plot's layout carries its styling", async ({ page, request }) => {
  const source = await styledChart(request, `Styled ${unique()}`);
  await signIn(page);
  const themeName = `Night ${unique()}`;
  const theme = await saveAs(page, source, 'theme', themeName);
  const saved = await record(request, theme);
  expect(saved).toMatchObject({ is_theme: true, is_template: false, world_readable: false });
  expect(saved.figure.data).toEqual([]);
  expect(saved.figure.layout.template.layout).toMatchObject({ plot_bgcolor: '#fdf6e3', font: { family: 'Georgia, serif' }, xaxis: { gridcolor: '#d33682' } });
  expect(saved.figure.layout.template.data.bar).toEqual([{ marker: { color: '#8e44ad' } }]);
  expect(JSON.stringify(saved.figure.layout.template)).not.toMatch(/src"|revenue/);

  // Another chart, in the editor: the theme is among the Theme control's choices.
  const grid = await createGrid(request, { a: [1, 2, 3], b: [2, 4, 1] }, { worldReadable: false });
  const other = await request.post('/v2/plots', {
    headers: auth,
    data: { filename: `Plain ${unique()}`, world_readable: false, figure: { data: [{ type: 'bar', xsrc: grid.src('a'), ysrc: grid.src('b') }], layout: {} } },
  });
  const target = ((await other.json()) as { file: { fid: string } }).file.fid;
  await page.goto(`${plotPath(target)}edit`);
  await page.locator('summary', { hasText: /^Theme$/ }).click();
  await byLabel(page, 'Theme').selectOption({ label: `Yours: ${themeName}` });
  await expect(byLabel(page, 'Theme').locator('option:checked')).toHaveText(`Yours: ${themeName}`);
  // An undoable edit: undone, the chart has no theme; redone, it has it again.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(byLabel(page, 'Theme').locator('option:checked')).toHaveText('Plotly (default)');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(byLabel(page, 'Theme').locator('option:checked')).toHaveText(`Yours: ${themeName}`);
  await expectChartDrawn(page.getByRole('figure', { name: 'Chart preview' }));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL((url) => url.pathname === plotPath(target));

  const after = await record(request, target);
  expect(after.figure.layout.template).toEqual(saved.figure.layout.template);
  expect(after.figure.data[0]).toMatchObject({ type: 'bar', xsrc: grid.src('a'), ysrc: grid.src('b') });
  expect(after.is_theme).toBe(false);
});

test('a template used with new data on /create: the chart drawn from the new columns, saved on the new grid', async ({ page, request }) => {
  const source = await styledChart(request, `Monthly ${unique()}`);
  await signIn(page);
  const templateName = `Bars by month ${unique()}`;
  const template = await saveAs(page, source, 'template', templateName);
  expect(await record(request, template)).toMatchObject({ is_theme: false, is_template: true, world_readable: false });

  await page.goto('/create');
  await byLabel(page, 'Start from a template').selectOption({ label: templateName });
  await page.getByLabel('Paste data').fill('Region\tMonth\tincome\nnorth\tapr\t7\nsouth\tmay\t9\neast\tjun\t2\n');
  const gridName = `new data ${unique()}`;
  await expect(page.getByLabel('Name')).not.toHaveValue('');
  await page.getByLabel('Name').fill(gridName);
  await page.getByRole('button', { name: 'Import and make a chart' }).click();
  await page.waitForURL(/\/create\/chart\?grid=[^&]+&template=/);
  const gridFid = new URL(page.url()).searchParams.get('grid')!;
  expect(new URL(page.url()).searchParams.get('template')).toBe(template);

  // The template's roles: x the month column (by name, whatever its place), y the number column.
  await expect(byLabel(page, 'X').locator('option:checked')).toHaveText(/Month/);
  await expect(byLabel(page, 'Y').locator('option:checked')).toHaveText(/income/);
  await expect(byLabel(page, 'Chart type').locator('option:checked')).toHaveText('Bar');
  await expectChartDrawn(page.getByRole('figure', { name: 'Chart preview' }));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/$/);
  const [, n] = /\/~e2e\/(\d+)\/$/.exec(new URL(page.url()).pathname)!;

  const made = await record(request, `e2e:${n}`);
  const grid = (await (await request.get(`/v2/grids/${gridFid}`, { headers: auth })).json()) as { cols: { name: string; uid: string }[] };
  const uid = (name: string) => grid.cols.find((c) => c.name === name)!.uid;
  expect(made.figure.data[0]).toMatchObject({
    type: 'bar',
    name: 'income',
    xsrc: `${gridFid}:${uid('Month')}`,
    ysrc: `${gridFid}:${uid('income')}`,
    marker: { color: '#8e44ad' },
  });
  expect(made.figure.layout).toMatchObject({ plot_bgcolor: '#fdf6e3', xaxis: { gridcolor: '#d33682' } });
  expect(made).toMatchObject({ is_theme: false, is_template: false });
});

test('save as theme by keyboard; axe and screenshots of the plot page, /create and the editor', async ({ page, request }, testInfo) => {
  test.slow();
  const source = await styledChart(request, `Keys ${unique()}`);
  const themeName = `Keyboard ${unique()}`;
  await signIn(page);
  await saveAs(page, source, 'template', `Shown ${unique()}`);
  await page.goto(plotPath(source));
  const name = byLabel(page, 'Name of the theme or template');
  await name.focus();
  await page.keyboard.type(themeName);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Save as theme', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(saved(page).getByRole('link', { name: themeName })).toBeVisible();
  await expectAxeClean(page);
  await shoot(page, testInfo, 'plot-page-saved-theme');

  // A taken name: said at the field, nothing made.
  await page.goto(plotPath(source));
  await name.fill(themeName);
  await page.getByRole('button', { name: 'Save as theme', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'already exists' })).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expectAxeClean(page);
  await name.fill('a/b');
  await page.getByRole('button', { name: 'Save as template', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Name: may not contain "/"' })).toBeVisible();
  await expect(saved(page)).toHaveCount(0);

  await page.goto('/create');
  await expect(byLabel(page, 'Start from a template')).toBeVisible();
  await byLabel(page, 'Start from a template').focus();
  await page.keyboard.press('ArrowDown');
  await expect(byLabel(page, 'Start from a template')).not.toHaveValue('');
  await expectAxeClean(page);
  await shoot(page, testInfo, 'create-start-from-template');

  await page.goto(`${plotPath(source)}edit`);
  await page.locator('summary', { hasText: /^Theme$/ }).click();
  await expect(byLabel(page, 'Theme').locator('option', { hasText: `Yours: ${themeName}` })).toHaveCount(1);
  await expectAxeClean(page);
  await shoot(page, testInfo, 'editor-theme');
});
