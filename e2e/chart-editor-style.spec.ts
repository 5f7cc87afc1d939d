// The chart editor's style panels (issue 24 point 2's styling), in the editor as a person uses them:
// axes, legend, colours, size, annotations, theme and a trace's line, saved and read back through the
// API and shown again on reopening; a bad value is refused at its field and changes nothing; the
// panels by keyboard alone; axe with every section open; and a phone's width.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { basicAuth, createGrid, E2E_USER, expect, expectChartDrawn, plotPath, signIn, test, unique } from './support';

const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const section = (page: Page, name: string) => page.locator('summary', { hasText: new RegExp(`^${name}$`) });

/** Opens a style section (a <details>) unless it is open. */
async function open(page: Page, name: string) {
  const summary = section(page, name);
  if (!(await summary.evaluate((s) => (s.parentElement as HTMLDetailsElement).open))) await summary.click();
}

async function newLineChart(page: Page, request: Parameters<typeof createGrid>[0]) {
  const grid = await createGrid(request, { sales: [3, 1, 4, 10], costs: [2, 7, 1, 8] }, { filename: `style grid ${unique()}`, worldReadable: false });
  await signIn(page);
  await page.goto(`/create/chart?grid=${grid.fid}`);
  await byLabel(page, 'Chart type').selectOption({ label: 'Line' });
  await byLabel(page, 'X').selectOption({ label: 'sales' });
  await byLabel(page, 'Y').selectOption({ label: 'costs' });
  await byLabel(page, 'Chart title').fill(`Styled ${unique()}`);
  return grid;
}

test('style a chart: what the panels set is saved, drawn, and shown again in the editor', async ({ page, request }) => {
  await newLineChart(page, request);
  await byLabel(page, 'X axis title').fill('Sales');
  await byLabel(page, 'Y axis type').selectOption({ label: 'Log' });
  await byLabel(page, 'Y axis minimum').fill('1');
  await byLabel(page, 'Y axis maximum').fill('10');

  await open(page, 'Legend');
  await byLabel(page, 'Legend position').selectOption({ label: 'Top' });

  await open(page, 'Colours');
  await byLabel(page, 'Palette').selectOption({ label: 'Okabe-Ito (colour-blind safe)' });
  await byLabel(page, 'Plot background').fill('not a colour');
  await expect(byLabel(page, 'Plot background')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'Not a colour' })).toBeVisible();
  await byLabel(page, 'Plot background').fill('ivory');
  await expect(page.getByRole('alert').filter({ hasText: 'Not a colour' })).toHaveCount(0);

  await open(page, 'Size');
  await byLabel(page, 'Chart size').selectOption({ label: 'Fixed width and height' });
  await byLabel(page, 'Width (px)').fill('5000');
  await expect(page.getByText('Enter a number from 50 to 4096')).toBeVisible();
  await byLabel(page, 'Width (px)').fill('800');

  await open(page, 'Annotations');
  await page.getByRole('button', { name: 'Add annotation' }).click();
  await byLabel(page, 'Annotation 1 text').fill('Peak');

  await open(page, 'Theme');
  await byLabel(page, 'Theme').selectOption({ label: 'Simple white' });

  await byLabel(page, 'Line style').selectOption({ label: 'Dashed' });
  await byLabel(page, 'Line colour').fill('#ff0000');

  await expectChartDrawn(page.getByRole('figure', { name: 'Chart preview' }));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/$/);
  const [, owner, n] = /\/~(e2e)\/(\d+)\/$/.exec(new URL(page.url()).pathname)!;
  const fid = `${owner}:${n}`;
  const record = await (await request.get(`/v2/plots/${fid}`, { headers: { Authorization: basicAuth(E2E_USER) } })).json();
  const { layout, data } = record.figure;
  expect(layout.xaxis.title.text).toBe('Sales');
  expect(layout.yaxis).toMatchObject({ type: 'log', range: [0, 1], autorange: false });
  expect(layout.legend).toMatchObject({ orientation: 'h', yanchor: 'bottom' });
  expect(layout.colorway[0]).toBe('#e69f00');
  expect(layout.plot_bgcolor).toBe('ivory');
  expect(layout).toMatchObject({ autosize: false, width: 800, height: 450 });
  expect(layout.annotations).toEqual([{ text: 'Peak', xref: 'paper', yref: 'paper', x: 0.5, y: 0.5, showarrow: false }]);
  expect(layout.template.layout.xaxis.showgrid).toBe(false);
  expect(data[0].line).toEqual({ dash: 'dash', color: '#ff0000' });

  await page.goto(`${plotPath(fid)}edit`);
  await expect(byLabel(page, 'X axis title')).toHaveValue('Sales');
  await expect(byLabel(page, 'Y axis maximum')).toHaveValue('10');
  await expect(byLabel(page, 'Theme').locator('option:checked')).toHaveText('Simple white');
  await expect(byLabel(page, 'Palette').locator('option:checked')).toHaveText('Okabe-Ito (colour-blind safe)');
});

test('the style panels by keyboard alone, axe with every section open, and a phone’s width', async ({ page, request }) => {
  // axe over the whole editor with every section open is the slowest check here.
  test.slow();
  await newLineChart(page, request);
  // Keyboard: to the Legend section, open it, and turn the legend off.
  await section(page, 'Legend').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(byLabel(page, 'Show legend')).toBeFocused();
  const before = await byLabel(page, 'Show legend').isChecked();
  await page.keyboard.press('Space');
  await expect(byLabel(page, 'Show legend')).toBeChecked({ checked: !before });
  await page.keyboard.press('Tab');
  await expect(byLabel(page, 'Legend position')).toBeFocused();

  for (const name of ['Axes', 'Legend', 'Colours', 'Fonts', 'Margins', 'Size', 'Annotations', 'Theme']) await open(page, name);
  await page.getByRole('button', { name: 'Add annotation' }).click();
  await byLabel(page, 'Font size').fill('500');
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await section(page, 'Fonts').evaluate((s) => {
    const panels = s.closest('details')!.parentElement!;
    return [...panels.querySelectorAll('input, select, button')].filter((el) => el.getBoundingClientRect().right > window.innerWidth).length;
  });
  expect(overflow).toBe(0);
});
