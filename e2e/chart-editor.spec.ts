// The chart editor (issue 24 points 2 and 3): a new chart of every type from a grid, saved through the
// API and drawn on its page; a plot made by a client edited and read back; "Edit a copy"; the expert
// view's checks; undo and redo; keyboard-only use; axe on every editor view; and others' editors 404.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  basicAuth,
  createGrid,
  createPlot,
  E2E_USER,
  expect,
  expectChartDrawn,
  OTHER_USER,
  plotPath,
  signIn,
  test,
  trashPlot,
  unique,
  type FileRecord,
} from './support';

const editorPath = (fid: string) => `${plotPath(fid)}edit`;
const newChartPath = (fid: string) => `/create/chart?grid=${fid}`;
const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** Every column a chart type here needs: numbers, words, places and dates. */
async function dataGrid(request: APIRequestContext, opts: { worldReadable?: boolean } = {}) {
  return createGrid(
    request,
    {
      day: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'],
      fruit: ['apple', 'pear', 'fig', 'kiwi'],
      sales: [3, 1, 4, 1],
      costs: [2, 7, 1, 8],
      size: [10, 20, 30, 40],
      lat: [59.9, -12.0, 18.5, 35.7],
      lon: [10.7, -77.0, 73.9, 139.7],
      country: ['NOR', 'PER', 'IND', 'JPN'],
      open: [10, 11, 12, 11],
      high: [12, 13, 13, 12],
      low: [9, 10, 11, 10],
      close: [11, 12, 11, 11],
    },
    { filename: `editor grid ${unique()}`, worldReadable: opts.worldReadable ?? false },
  );
}

/** Waits for the editor's preview to be drawn. */
async function previewDrawn(page: Page) {
  await expectChartDrawn(page.getByRole('figure', { name: 'Chart preview' }));
}

/**
 * A new chart of `dataGrid`'s columns, drawn, down to one trace: its first chart is a line of each
 * number over `day` (issue 37 point 2), and these tests choose one trace's columns themselves.
 */
async function newOneTraceChart(page: Page, fid: string) {
  await page.goto(newChartPath(fid));
  await previewDrawn(page);
  const tabs = page.locator('.trace-tab');
  for (let n = await tabs.count(); n > 1; n--) {
    await page.getByRole('button', { name: 'Remove trace' }).click();
    await expect(tabs).toHaveCount(n - 1);
  }
}

/** Saves and lands on the plot's page; answers its fid. */
async function save(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  const m = /\/~(e2e)\/(\d+)\/$/.exec(new URL(page.url()).pathname)!;
  return `${m[1]}:${m[2]}`;
}

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name}`, { path: file, contentType: 'image/png' });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on ${name}`).toEqual([]);
}

const apiGet = async (request: APIRequestContext, fid: string) =>
  (await (await request.get(`/v2/plots/${fid}`, { headers: { Authorization: basicAuth(E2E_USER) } })).json()) as FileRecord & {
    figure: { data: Record<string, unknown>[]; layout: Record<string, unknown>; frames?: unknown[] };
  };

test('a new chart: type, X and Y, title and sharing, saved with srcs only and drawn on its page', async ({ page, request }) => {
  const grid = await dataGrid(request);
  await signIn(page);
  await newOneTraceChart(page, grid.fid);
  await byLabel(page, 'Chart type').selectOption({ label: 'Bar' });
  await byLabel(page, 'X').selectOption({ label: 'fruit' });
  await byLabel(page, 'Y').selectOption({ label: 'sales' });
  await byLabel(page, 'Chart title').fill('Fruit sales');
  await expect(byLabel(page, 'Sharing')).toHaveValue('private');
  await byLabel(page, 'Sharing').selectOption({ label: 'Public' });
  await previewDrawn(page);
  const fid = await save(page);
  await expect(page.locator('h1')).toHaveText('Fruit sales');
  await expectChartDrawn(page.locator('.plot-chart .plot-figure'));
  const record = await apiGet(request, fid);
  expect(record.world_readable).toBe(true);
  expect(record.title).toBe('Fruit sales');
  expect(record.figure.layout).toEqual({ title: { text: 'Fruit sales' }, barmode: 'group' });
  // The trace left was named after its column (close); named after the column it draws now.
  expect(record.figure.data).toEqual([{ type: 'bar', name: 'sales', xsrc: grid.src('fruit'), ysrc: grid.src('sales') }]);
  // Browser tests share one database: a public plot on a private grid is odd to the others' picks.
  await trashPlot(request, fid);
});

test('saved private from the editor, the chart takes its public grid along; a public chart of mine on a grid keeps it public', async ({ page, request }) => {
  // Three charts made and saved in the editor.
  test.setTimeout(120_000);
  const auth = { Authorization: basicAuth(E2E_USER) };
  const gridShared = async (fid: string) => ((await (await request.get(`/v2/grids/${fid}`, { headers: auth })).json()) as FileRecord).world_readable;
  const lone = await dataGrid(request, { worldReadable: true });
  await signIn(page);
  await newOneTraceChart(page, lone.fid);
  await byLabel(page, 'Chart type').selectOption({ label: 'Line' });
  await byLabel(page, 'X').selectOption({ label: 'day' });
  await byLabel(page, 'Y').selectOption({ label: 'sales' });
  await expect(byLabel(page, 'Sharing')).toHaveValue('private');
  await expect(page.locator('#chart-sharing-hint')).toContainText('Your public grids it draws from become private too');
  const fid = await save(page);
  await expect(page.getByText('Sharing of its grids changed.')).toBeVisible();
  expect(await gridShared(lone.fid)).toBe(false);

  // A grid a public chart of mine draws from stays public when another chart on it is made secret.
  const shared = await dataGrid(request, { worldReadable: true });
  await newOneTraceChart(page, shared.fid);
  await byLabel(page, 'X').selectOption({ label: 'day' });
  await byLabel(page, 'Y').selectOption({ label: 'costs' });
  await byLabel(page, 'Sharing').selectOption({ label: 'Public' });
  const open = await save(page);
  await newOneTraceChart(page, shared.fid);
  await byLabel(page, 'X').selectOption({ label: 'day' });
  await byLabel(page, 'Y').selectOption({ label: 'sales' });
  await byLabel(page, 'Sharing').selectOption({ label: 'Secret' });
  const secret = await save(page);
  await expect(page.getByText('Sharing of its grids changed.')).toHaveCount(0);
  expect(await gridShared(shared.fid)).toBe(true);
  for (const f of [fid, open, secret]) await trashPlot(request, f);
});

/** Each chart type: the columns its roles take (one label or several for a 2D role) and the trace type saved. */
const TYPES: { label: string; roles: Record<string, string | string[] | null>; type: string }[] = [
  { label: 'Line', roles: { X: 'day', Y: 'sales' }, type: 'scatter' },
  { label: 'Scatter', roles: { X: 'sales', Y: 'costs' }, type: 'scatter' },
  { label: 'Bar', roles: { X: 'fruit', Y: 'sales' }, type: 'bar' },
  { label: 'Stacked bar', roles: { X: 'fruit', Y: 'sales' }, type: 'bar' },
  { label: 'Area', roles: { X: 'day', Y: 'costs' }, type: 'scatter' },
  { label: 'Pie', roles: { Labels: 'fruit', Values: 'sales' }, type: 'pie' },
  { label: 'Donut', roles: { Labels: 'fruit', Values: 'costs' }, type: 'pie' },
  { label: 'Histogram', roles: { X: 'sales' }, type: 'histogram' },
  { label: 'Box', roles: { Y: 'costs' }, type: 'box' },
  { label: 'Heatmap', roles: { Z: ['sales', 'costs', 'size'] }, type: 'heatmap' },
  { label: 'Bubble', roles: { X: 'sales', Y: 'costs', Size: 'size' }, type: 'scatter' },
  { label: 'Map (points)', roles: { Latitude: 'lat', Longitude: 'lon' }, type: 'scattergeo' },
  { label: 'Map (regions)', roles: { Locations: 'country', Values: 'sales' }, type: 'choropleth' },
  { label: '3D scatter', roles: { X: 'sales', Y: 'costs', Z: 'size' }, type: 'scatter3d' },
  { label: 'Surface', roles: { Z: ['sales', 'costs', 'size'], X: 'size' }, type: 'surface' },
  { label: 'Candlestick', roles: { X: 'day', Open: 'open', High: 'high', Low: 'low', Close: 'close' }, type: 'candlestick' },
];

for (const kind of TYPES) {
  test(`every chart type: ${kind.label} from a grid, saved and drawn on its page`, async ({ page, request }) => {
    const grid = await dataGrid(request);
    await signIn(page);
    await newOneTraceChart(page, grid.fid);
    await byLabel(page, 'Chart type').selectOption({ label: kind.label });
    for (const [role, column] of Object.entries(kind.roles)) {
      await byLabel(page, role).selectOption(column === null ? { value: '' } : Array.isArray(column) ? column.map((label) => ({ label })) : { label: column });
    }
    await byLabel(page, 'Chart title').fill(`${kind.label} chart`);
    await previewDrawn(page);
    const fid = await save(page);
    await expectChartDrawn(page.locator('.plot-chart .plot-figure'));
    const { figure, title } = await apiGet(request, fid);
    expect(title).toBe(`${kind.label} chart`);
    expect(figure.data).toHaveLength(1);
    expect(figure.data[0].type).toBe(kind.type);
    // Src references only, naming the columns chosen.
    const uids = new Map(grid.cols!.map((c) => [c.name, c.uid]));
    const srcs = JSON.stringify(figure.data[0]);
    for (const column of Object.values(kind.roles).flat()) if (column !== null) expect(srcs).toContain(uids.get(column)!);
    expect(JSON.stringify(figure)).not.toMatch(/"(x|y|z|labels|values|lat|lon|locations|open|high|low|close)":\[/);
  });
}

test('edit a client-made plot: many traces, nested srcs, frames and a type outside the picker round-trip; the edits are saved', async ({ page, request }) => {
  const grid = await dataGrid(request);
  const figure = {
    data: [
      {
        type: 'scatter',
        mode: 'lines+markers',
        name: 'sales',
        xsrc: grid.src('day'),
        ysrc: grid.src('sales'),
        marker: { colorsrc: grid.src('size'), size: 9 },
        customdatasrc: grid.src('fruit'),
      },
      { type: 'bar', name: 'costs', xsrc: grid.src('day'), ysrc: grid.src('costs'), opacity: 0.6 },
      { type: 'violin', name: 'spread', ysrc: grid.src('high') },
    ],
    layout: { title: { text: 'Client plot', font: { size: 22 } }, xaxis: { title: { text: 'day' } }, updatemenus: [] },
    frames: [{ name: 'later', data: [{ ysrc: grid.src('costs') }] }],
  };
  const made = await request.post('/v2/plots', { headers: { Authorization: basicAuth(E2E_USER) }, data: { figure, world_readable: false } });
  expect(made.ok()).toBe(true);
  const plot = (await made.json()).file as FileRecord;

  await signIn(page);
  await page.goto(plotPath(plot.fid));
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${editorPath(plot.fid)}$`));
  await expect(byLabel(page, 'Chart type')).toHaveValue('mixed');
  await expect(byLabel(page, 'Chart title')).toHaveValue('Client plot');
  // The nested srcs show as their attributes; the violin as its own type with its column.
  await expect(byLabel(page, 'marker.color')).toHaveValue(grid.src('size'));
  await expect(byLabel(page, 'customdata')).toHaveValue(grid.src('fruit'));
  await page.getByRole('button', { name: '3. spread' }).click();
  await expect(byLabel(page, 'Trace type')).toHaveValue('other');
  await expect(byLabel(page, 'Trace type').locator('option:checked')).toHaveText('violin (edited as it is)');
  await expect(byLabel(page, 'y')).toHaveValue(grid.src('high'));
  await page.getByRole('button', { name: '2. costs' }).click();
  await byLabel(page, 'Y').selectOption({ label: 'size' });
  await byLabel(page, 'Chart title').fill('Edited in the browser');
  await previewDrawn(page);
  expect(await save(page)).toBe(plot.fid);

  const after = await apiGet(request, plot.fid);
  expect(after.fid).toBe(plot.fid);
  expect(after.web_url).toBe(plot.web_url);
  expect(after.title).toBe('Edited in the browser');
  const expected = structuredClone(figure);
  expected.layout.title.text = 'Edited in the browser';
  expected.data[1].ysrc = grid.src('size');
  // Named after the column it drew, the trace is named after the one it draws now: its legend says so.
  expected.data[1].name = 'size';
  expect(after.figure).toEqual(expected);
});

test('edit a plot made by the Python client and read it back with the client: the edits are there', async ({ page, baseURL }) => {
  const home = mkdtempSync(path.join(tmpdir(), 'editor-python-'));
  const python = (...args: string[]) => {
    const out = execFileSync('/usr/bin/python3', ['e2e/editor_client.py', ...args], {
      env: {
        ...process.env,
        HOME: home,
        PYTHONPATH: ['tests/clients/vendor', 'tests/clients'].join(path.delimiter),
        PF_URL: baseURL!,
        PF_USERNAME: E2E_USER.username,
        PF_API_KEY: E2E_USER.apiKey,
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return JSON.parse(
      out
        .split('\n')
        .find((line) => line.startsWith('RESULT '))!
        .slice('RESULT '.length),
    );
  };
  const { url } = python('make', `editor python ${unique()}`);
  const plotUrl = new URL(url);
  await signIn(page);
  await page.goto(`${plotUrl.pathname}edit`);
  await byLabel(page, 'Chart title').fill('Retitled in the editor');
  await byLabel(page, 'Chart type').selectOption({ label: 'Bar' });
  await previewDrawn(page);
  await save(page);
  const back = python('read', url);
  expect(back.layout.title.text).toBe('Retitled in the editor');
  expect(back.data.map((t: { type: string }) => t.type)).toEqual(['bar', 'bar']);
  // The data came back through the srcs, as the client sent it.
  expect(back.data[0].y).toEqual([3, 1, 2]);
  expect(back.data[1].y).toEqual([2, 2, 1]);
  expect(back.data[0].marker.color).toEqual([1, 2, 3]);
});

test('"Edit a copy" of someone else\'s public plot: a copy with source_fid, opened in its editor, saved as mine', async ({ page, request }) => {
  const theirs = await createPlot(request, { user: OTHER_USER, title: `Theirs ${unique()}` });
  await signIn(page);
  await page.goto(plotPath(theirs.fid));
  await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit a copy' }).click();
  await page.waitForURL(/\/~e2e\/\d+\/edit$/);
  // Their chart draws no title (the file's own title is not drawn): the field shows none either.
  await expect(byLabel(page, 'Chart title')).toHaveValue('');
  await byLabel(page, 'Chart title').fill('My version');
  await previewDrawn(page);
  const fid = await save(page);
  const copy = await apiGet(request, fid);
  expect(copy.title).toBe('My version');
  expect((copy as unknown as { source_fid: string }).source_fid).toBe(theirs.fid);
  for (const trace of copy.figure.data) expect(String(trace.xsrc)).toMatch(/^e2e:\d+:/);
});

test('expert view: bad JSON and a bad attribute show the error and change nothing; a good edit applies and undoes', async ({ page, request }) => {
  const grid = await dataGrid(request);
  await signIn(page);
  await page.goto(newChartPath(grid.fid));
  await byLabel(page, 'Chart title').fill('Before');
  await page.getByRole('button', { name: 'Show figure JSON' }).click();
  const json = byLabel(page, 'Figure JSON');
  const text = await json.inputValue();
  expect(JSON.parse(text).layout.title.text).toBe('Before');

  await json.fill('{"data": [');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('#figure-json-errors')).toContainText('not valid JSON');
  await expect(json).toHaveAttribute('aria-invalid', 'true');
  await expect(byLabel(page, 'Chart title')).toHaveValue('Before');

  for (const [change, message] of [
    [(f: { data: Record<string, unknown>[] }) => (f.data[0].x = [1, 2, 3]), 'raw data arrays are not allowed'],
    [(f: { data: Record<string, unknown>[] }) => (f.data[0].ysrc = 'e2e:999999:nope'), 'does not exist or which you cannot read'],
  ] as const) {
    const bad = JSON.parse(text);
    change(bad);
    await json.fill(JSON.stringify(bad));
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.locator('#figure-json-errors')).toContainText(message);
    await expect(byLabel(page, 'Chart title')).toHaveValue('Before');
  }

  const good = JSON.parse(text);
  good.layout.title.text = 'From JSON';
  good.data[0].line = { dash: 'dot' };
  await json.fill(JSON.stringify(good, null, 1));
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(byLabel(page, 'Chart title')).toHaveValue('From JSON');
  await expect(page.locator('#figure-json-errors')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(byLabel(page, 'Chart title')).toHaveValue('Before');
  expect(JSON.parse(await json.inputValue()).data[0].line).toBeUndefined();
});

test('undo and redo: buttons and Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y; typing a title is one step', async ({ page, request }) => {
  const grid = await dataGrid(request);
  await signIn(page);
  await page.goto(newChartPath(grid.fid));
  const type = byLabel(page, 'Chart type');
  const title = byLabel(page, 'Chart title');
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
  await type.selectOption({ label: 'Pie' });
  await title.pressSequentially('Hello');
  await expect(title).toHaveValue('Hello');
  await title.press('Control+z');
  await expect(title).toHaveValue('');
  await expect(type).toHaveValue('pie');
  await title.press('Control+z');
  await expect(type).toHaveValue('line');
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
  await title.press('Control+Shift+z');
  await expect(type).toHaveValue('pie');
  await title.press('Control+y');
  await expect(title).toHaveValue('Hello');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(title).toHaveValue('');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(title).toHaveValue('Hello');
  await expect(page.getByRole('button', { name: 'Redo' })).toBeDisabled();
});

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, back = false) {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error('never reached by the keyboard');
}

test('keyboard only: chart type, columns, title, sharing and Save', async ({ page, request }) => {
  const grid = await dataGrid(request);
  await signIn(page);
  await page.goto(newChartPath(grid.fid));
  await previewDrawn(page);
  await tabTo(page, byLabel(page, 'Chart type'));
  // The first option after Line: Scatter.
  await page.keyboard.press('ArrowDown');
  await expect(byLabel(page, 'Chart type')).toHaveValue('scatter');
  await tabTo(page, byLabel(page, 'Chart title'));
  await page.keyboard.type('Typed title');
  await tabTo(page, byLabel(page, 'Sharing'));
  await page.keyboard.press('ArrowUp');
  await expect(byLabel(page, 'Sharing')).toHaveValue('public');
  // The first trace draws sales over day; the next column down is costs.
  await tabTo(page, byLabel(page, 'Y'));
  await expect(byLabel(page, 'Y')).toHaveValue(grid.src('sales'));
  await page.keyboard.press('ArrowDown');
  await expect(byLabel(page, 'Y')).toHaveValue(grid.src('costs'));
  await tabTo(page, page.getByRole('button', { name: 'Save', exact: true }), true);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  await expect(page.locator('h1')).toHaveText('Typed title');
  await trashPlot(request, `e2e:${new URL(page.url()).pathname.split('/')[2]}`);
});

test('accessibility and screenshots of every editor view, desktop and phone', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const grid = await dataGrid(request);
  const plot = await createPlot(request, { title: `Editor a11y ${unique()}`, visibility: 'private' });
  await signIn(page);
  for (const [size, viewport] of Object.entries({ desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } })) {
    await page.setViewportSize(viewport);
    await page.goto('/create/chart');
    await expect(page.getByRole('link', { name: grid.filename })).toBeVisible();
    await axe(page, testInfo, `editor grid list (${size})`);
    await page.goto(newChartPath(grid.fid));
    await previewDrawn(page);
    await axe(page, testInfo, `editor new (${size})`);
    await page.goto(editorPath(plot.fid));
    await previewDrawn(page);
    await axe(page, testInfo, `editor edit (${size})`);
    await page.getByRole('button', { name: 'Show figure JSON' }).click();
    await byLabel(page, 'Figure JSON').fill('{');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.locator('#figure-json-errors')).toBeVisible();
    await axe(page, testInfo, `editor expert view (${size})`);
  }
});

test("others' editors: a private or public plot of someone else's is the 404 of a missing file; signed out, sign in first", async ({ page, request }) => {
  const privateOne = await createPlot(request, { user: OTHER_USER, visibility: 'private', title: `Private ${unique()}` });
  const publicOne = await createPlot(request, { user: OTHER_USER, title: `Public ${unique()}` });
  const signedOut = await page.goto(editorPath(privateOne.fid));
  expect(new URL(page.url()).pathname).toBe('/signin');
  expect(signedOut?.status()).toBe(200);
  await signIn(page);
  const seen = async (path: string) => {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    return page.locator('main').innerText();
  };
  const missing = await seen(editorPath('e2eother:999999'));
  expect(await seen(editorPath(privateOne.fid))).toBe(missing);
  expect(await seen(editorPath(publicOne.fid))).toBe(missing);
  expect(await page.content()).not.toContain(privateOne.title!);
  const grid = await createGrid(request, { a: [1] }, { user: OTHER_USER, worldReadable: false, filename: `Hidden grid ${unique()}` });
  const missingGrid = await seen(newChartPath('e2eother:999999'));
  expect(await seen(newChartPath(grid.fid))).toBe(missingGrid);
});

test('pasted data to a public line chart, without code: imported, charted, saved, drawn for anyone signed out', async ({ page, request, browser }) => {
  const name = `pasted ${unique()}`;
  await signIn(page);
  await page.goto('/settings');
  await page.getByRole('banner').getByRole('link', { name: 'New chart' }).click();
  await page.getByLabel('Paste data').fill('month\tvisitors\nJan\t120\nFeb\t340\nMar\t290');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Import and make a chart' }).click();
  await page.waitForURL(/\/create\/chart\?grid=/);
  // Words and one number: bars first (issue 37 point 2); a line keeps both columns.
  await expect(byLabel(page, 'Chart type')).toHaveValue('bar');
  await byLabel(page, 'Chart type').selectOption({ label: 'Line' });
  await expect(byLabel(page, 'X').locator('option:checked')).toHaveText('month');
  await expect(byLabel(page, 'Y').locator('option:checked')).toHaveText('visitors');
  await byLabel(page, 'Chart title').fill('Visitors');
  await byLabel(page, 'Sharing').selectOption({ label: 'Public' });
  const fid = await save(page);
  const anonymous = await browser.newPage();
  await anonymous.goto(plotPath(fid));
  await expect(anonymous.locator('h1')).toHaveText('Visitors');
  await expectChartDrawn(anonymous.locator('.plot-chart .plot-figure'));
  await anonymous.close();
  await trashPlot(request, fid);
});

test('a save the API refuses shows its message at the control and in the list, and loses nothing', async ({ page, request }) => {
  const grid = await dataGrid(request);
  await signIn(page);
  await page.goto(newChartPath(grid.fid));
  await byLabel(page, 'Chart title').fill('Kept');
  // The grid goes to the trash while the editor is open: its srcs no longer resolve.
  const trashed = await request.post(`/v2/grids/${grid.fid}/trash`, { headers: { Authorization: basicAuth(E2E_USER) } });
  expect(trashed.ok()).toBe(true);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const list = page.locator('.editor-problems');
  // In words about the chart, never the src or the grid's fid (issue 37 point 5).
  await expect(list).toContainText('Trace 1: This column’s grid was deleted or is not shared with you; choose another column.');
  await expect(list).not.toContainText(grid.fid);
  await expect(list).toBeFocused();
  await expect(byLabel(page, 'Y')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#role-ysrc-error')).toContainText('grid was deleted or is not shared with you');
  await expect(byLabel(page, 'Chart title')).toHaveValue('Kept');
  expect(new URL(page.url()).pathname).toBe('/create/chart');
});

test('a long line is previewed from a reduced copy, and other data beyond the live-drawing limits by its first part; each said', async ({ page, request }) => {
  const n = 150_000;
  const grid = await createGrid(
    request,
    { x: Array.from({ length: n }, (_, i) => i), y: Array.from({ length: n }, (_, i) => i % 97) },
    { worldReadable: false },
  );
  await signIn(page);
  await page.goto(newChartPath(grid.fid));
  await previewDrawn(page);
  // A scatter of 150,000 rows: each stretch's lowest and highest row, 2,000 points, whatever the rows.
  await expect(page.getByRole('status').filter({ hasText: 'The preview draws a reduced copy' })).toContainText('2,000 points of 150,000 rows');
  const drawn = () =>
    page.locator('.editor-preview-chart .js-plotly-plot').evaluate((el) => (el as unknown as { _fullData: { x: unknown[] }[] })._fullData[0].x.length);
  expect(await drawn()).toBe(2_000);
  // A histogram counts every row (never reduced): 300,000 values named, the first 200,000 drawn (the pages' live limit).
  await byLabel(page, 'Chart type').selectOption({ label: 'Histogram' });
  await expect(page.getByRole('status').filter({ hasText: 'The preview draws the first part of the data' })).toContainText('200,000 of 300,000 values');
});
