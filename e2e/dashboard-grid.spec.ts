// A dashboard that looks made: four plots added in the builder fill a grid of two a row at a readable
// height, as the page draws it at 1280 px, and one a row at 390 px; "Add plot" offers charts only (no
// theme) and tells two of the same title apart; a box resized by keyboard is saved. axe and
// screenshots at both sizes.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { basicAuth, createPlot, E2E_USER, expect, expectChartDrawn, plotPath, signIn, test, unique } from './support';

async function axe(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    results.violations.map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })),
    `axe violations on the ${name}`,
  ).toEqual([]);
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** Each box's place on screen, and the width of the dashboard they share. */
async function geometry(page: Page, boxes: Locator) {
  const content = (await page.locator('section.dash').boundingBox())!;
  const rects = await boxes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }));
  return { content, rects };
}

test('four plots make a grid of two a row on a desktop, one a row on a phone; the picker offers charts, told apart; a resize is saved', async ({
  page,
  request,
}, testInfo) => {
  const tag = unique();
  const same = `Sales ${tag}`;
  const twins = [
    await createPlot(request, { title: same, filename: `sales north ${tag}` }),
    await createPlot(request, { title: same, filename: `sales south ${tag}` }),
  ];
  const others = [
    await createPlot(request, { title: `Costs ${tag}`, filename: `costs ${tag}` }),
    await createPlot(request, { title: `Margin ${tag}`, filename: `margin ${tag}` }),
  ];
  await signIn(page);
  // A theme is a plot too, but nothing to put on a dashboard.
  await page.goto(plotPath(twins[0].fid));
  await page.getByLabel('Name of the theme or template', { exact: true }).fill(`sales look ${tag}`);
  await page.getByRole('button', { name: 'Save as theme', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as' })).toBeVisible();

  await page.goto('/create/dashboard');
  await page.getByLabel('Title', { exact: true }).fill(`Grid ${tag}`);
  await page.getByRole('button', { name: 'Add plot' }).click();
  const picker = page.locator('#dashboard-plot-picker');
  await picker.getByLabel('Search your plots').fill(tag);
  await picker.getByRole('button', { name: 'Search' }).click();
  const choices = picker.locator('.dashboard-picker-list li');
  await expect(choices).toHaveCount(4);
  await expect(picker).not.toContainText('sales look');
  // The two of one title: each its file name, thumbnail and date.
  for (const twin of twins) {
    const choice = choices.filter({ hasText: twin.filename });
    await expect(choice).toContainText(same);
    await expect(choice.locator('img')).toHaveAttribute('src', new RegExp(`${twin.fid.split(':')[1]}.*list-thumb`));
    await expect(choice.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  }
  await axe(page, 'plot picker');
  await shoot(page, testInfo, 'dashboard-grid-picker');
  const titles = [same, same, `Costs ${tag}`, `Margin ${tag}`];
  const plots = [...twins, ...others];
  for (const [i, plot] of plots.entries()) {
    await picker.getByRole('button', { name: `Add ${titles[i]} (${plot.filename})`, exact: true }).click();
  }
  await picker.getByRole('button', { name: 'Done' }).click();
  await expect(page.locator('.dashboard-box')).toHaveCount(4);

  // The second row's split one step wider by keyboard (a slider with its label).
  const width = page.getByLabel(`Width of Box 3 (Costs ${tag})`, { exact: true });
  await width.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(`output[for="${await width.getAttribute('id')}"]`)).toHaveText('55%');
  await axe(page, 'dashboard builder');
  await shoot(page, testInfo, 'dashboard-grid-builder');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/~e2e\/\d+\/$/);

  const n = new URL(page.url()).pathname.split('/')[2];
  const res = await request.get(`/v2/dashboards/e2e:${n}`, { headers: { Authorization: basicAuth(E2E_USER) } });
  const { layout } = JSON.parse(((await res.json()) as { content: string }).content);
  const plotBox = (i: number) => ({ type: 'box', boxType: 'plot', fileId: plots[i].fid, shareKey: null, title: titles[i] });
  const row = (size: number, a: unknown, b: unknown) => ({ type: 'split', direction: 'horizontal', size, sizeUnit: '%', first: a, second: b });
  expect(layout).toMatchObject({ direction: 'vertical', size: 900, sizeUnit: 'px', second: { boxType: 'empty' } });
  expect(layout.first).toEqual({
    type: 'split',
    direction: 'vertical',
    size: 50,
    sizeUnit: '%',
    first: row(50, plotBox(0), plotBox(1)),
    second: row(55, plotBox(2), plotBox(3)),
  });

  // 1280 px: two a row, each a readable height, none a sliver.
  await page.setViewportSize({ width: 1280, height: 1200 });
  const boxes = page.locator('.dash-box-plot');
  await expect(boxes).toHaveCount(4);
  await expectChartDrawn(boxes.nth(3).locator('.plot-figure'));
  const wide = await geometry(page, boxes);
  const [a, b, c, d] = wide.rects;
  expect(Math.abs(a.y - b.y)).toBeLessThan(2);
  expect(Math.abs(c.y - d.y)).toBeLessThan(2);
  expect(c.y).toBeGreaterThanOrEqual(a.y + a.height);
  expect(b.x).toBeGreaterThan(a.x + a.width - 1);
  for (const r of wide.rects) {
    expect(r.height).toBeGreaterThanOrEqual(300);
    expect(r.height).toBeLessThanOrEqual(600);
    expect(r.width).toBeGreaterThanOrEqual(0.4 * wide.content.width);
  }
  // The resize drawn: the second row's first box the wider.
  expect(c.width / (c.width + d.width)).toBeCloseTo(0.55, 1);
  await axe(page, 'dashboard page');
  await shoot(page, testInfo, 'dashboard-grid-desktop');

  // 390 px: one a row, in reading order, each the width of the page's content.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await geometry(page, boxes)).rects[1].y).toBeGreaterThan(wide.rects[1].y);
  const narrow = await geometry(page, boxes);
  narrow.rects.forEach((r, i) => {
    expect(r.width).toBeGreaterThanOrEqual(0.9 * narrow.content.width);
    expect(r.height).toBeGreaterThanOrEqual(300);
    expect(r.height).toBeLessThanOrEqual(600);
    if (i) expect(r.y).toBeGreaterThanOrEqual(narrow.rects[i - 1].y + narrow.rects[i - 1].height);
  });
  await shoot(page, testInfo, 'dashboard-grid-phone');
});
