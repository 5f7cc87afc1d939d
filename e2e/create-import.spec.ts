// The data import (/create): a CSV or TSV file, pasted spreadsheet cells or an .xlsx file become a
// private grid through the page (parsed in a worker, stored through the API), checked back through
// the API; every kind of bad input says where and why and stores nothing; the header and type
// choices reach the stored data; keyboard only; axe on each state.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { basicAuth, E2E_USER, expect, signIn, test, unique } from './support';
import { xlsxFile, xlsxWorkbook } from './xlsx';

const auth = { Authorization: basicAuth(E2E_USER) };

/** The grid the chart editor was opened on (`/create/chart?grid=owner:n`), as its API record and columns. */
async function storedGrid(page: Page, request: APIRequestContext) {
  await page.waitForURL(/\/create\/chart\?grid=/);
  const fid = new URL(page.url()).searchParams.get('grid')!;
  const record = await request.get(`/v2/grids/${fid}`, { headers: auth });
  expect(record.status()).toBe(200);
  const content = await request.get(`/v2/grids/${fid}/content`, { headers: auth });
  const { cols } = (await content.json()) as { cols: Record<string, { data: unknown[]; order: number }> };
  const data = Object.fromEntries(Object.entries(cols).map(([name, c]) => [name, c.data]));
  return { fid, record: (await record.json()) as { filename: string; world_readable: boolean }, data, names: Object.keys(cols) };
}

/** Whether the e2e user has a file of this name (none is written on bad input). */
async function exists(request: APIRequestContext, filename: string) {
  const res = await request.get(`/v2/grids/lookup?path=${encodeURIComponent(filename)}`, { headers: auth });
  return res.status() === 200;
}

const dataFile = (page: Page) => page.getByLabel('Data file');
const importButton = (page: Page) => page.getByRole('button', { name: 'Import and make a chart' });
const headers = (page: Page) => page.locator('.import-preview thead tr').first().locator('th');

test.describe('data import', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await page.goto('/settings');
    await page.getByRole('banner').getByRole('link', { name: 'New chart' }).click();
    await expect(page).toHaveURL(/\/create$/);
  });

  test('a CSV file becomes a private grid with typed columns', async ({ page, request }) => {
    const name = `prices ${unique()}`;
    const csv = 'day,price,city\n2024-01-01,1.5,Oslo\n2024-01-02,,"Rio, RJ"\n2024-01-03 12:30:00,-2e3,Lima\n';
    await dataFile(page).setInputFiles({ name: `${name}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(headers(page)).toHaveText(['day', 'price', 'city']);
    await expect(page.getByLabel('Type of day')).toHaveValue('date');
    await expect(page.getByLabel('Type of price')).toHaveValue('number');
    await expect(page.getByLabel('Type of city')).toHaveValue('text');
    await expect(page.getByLabel('First row is the header')).toBeChecked();
    await expect(page.getByLabel('Name')).toHaveValue(name);
    await expect(page.getByLabel('Sharing')).toHaveValue('private');
    await importButton(page).click();
    const grid = await storedGrid(page, request);
    expect(grid.record.world_readable).toBe(false);
    expect(grid.record.filename).toBe(name);
    expect(grid.names).toEqual(['day', 'price', 'city']);
    expect(grid.data).toEqual({
      day: ['2024-01-01', '2024-01-02', '2024-01-03 12:30:00'],
      price: [1.5, '', -2000],
      city: ['Oslo', 'Rio, RJ', 'Lima'],
    });
    // Signed out, the private grid is not there.
    expect((await request.get(`/v2/grids/${grid.fid}`)).status()).toBe(404);
  });

  test('a file chosen while the page is still loading is read once its scripts run', async ({ page }) => {
    // The page's scripts are held back, so the file is chosen on the server-rendered form before any
    // handler is attached (a slow connection, a busy machine): no change event reaches React.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/_next/static/**/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/create', { waitUntil: 'commit' });
    await dataFile(page).setInputFiles({ name: 'early.csv', mimeType: 'text/csv', buffer: Buffer.from('when,value\n2024-01-01,3\n2024-01-02,4\n') });
    release();
    await expect(headers(page)).toHaveText(['when', 'value']);
    await expect(page.getByLabel('Name')).toHaveValue('early');
  });

  test('cells pasted from a spreadsheet (tab-separated)', async ({ page, request }) => {
    await page.getByLabel('Paste data').fill('year\tsales\tregion\n2021\t10\tNorth\n2022\t12.5\tSouth');
    await expect(headers(page)).toHaveText(['year', 'sales', 'region']);
    const name = `pasted ${unique()}`;
    await page.getByLabel('Name').fill(name);
    await importButton(page).click();
    const grid = await storedGrid(page, request);
    expect(grid.record.filename).toBe(name);
    expect(grid.data).toEqual({ year: [2021, 2022], sales: [10, 12.5], region: ['North', 'South'] });
  });

  test('an .xlsx file: its first sheet, dates as dates, formulas by their saved values', async ({ page, request }) => {
    const name = `workbook ${unique()}`;
    const buffer = xlsxFile('Prices', [
      ['day', 'price', 'note'],
      [{ date: 45292 }, 1.5, 'a'],
      [{ date: 45293.5 }, { formula: 'B2*2', value: 3 }, null],
    ]);
    await dataFile(page).setInputFiles({ name: `${name}.xlsx`, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await expect(headers(page)).toHaveText(['day', 'price', 'note']);
    await expect(page.getByText("Sheet 'Prices'")).toBeVisible();
    await expect(page.getByLabel('Type of day')).toHaveValue('date');
    await importButton(page).click();
    const grid = await storedGrid(page, request);
    expect(grid.data).toEqual({ day: ['2024-01-01', '2024-01-02 12:00:00'], price: [1.5, 3], note: ['a', ''] });
  });

  test('an .xlsx workbook of several sheets: the first with data is read, another is chosen, an empty one cannot be', async ({ page, request }) => {
    const buffer = xlsxWorkbook([
      { name: 'Notes', rows: [] },
      {
        name: 'Q1',
        rows: [
          ['month', 'sales'],
          ['Jan', 10],
          ['Feb', 12],
        ],
      },
      {
        name: 'Q2',
        rows: [
          ['month', 'sales', 'costs'],
          ['Apr', 20, 5],
          ['May', 22, 6],
          ['Jun', 25, 7],
        ],
      },
    ]);
    await dataFile(page).setInputFiles({
      name: `quarters ${unique()}.xlsx`,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
    const sheet = page.getByLabel('Sheet', { exact: true });
    await expect(sheet).toHaveValue('Q1');
    await expect(headers(page)).toHaveText(['month', 'sales']);
    await expect(sheet.locator('option', { hasText: 'Notes' })).toBeDisabled();
    await expect(sheet.locator('option', { hasText: 'Notes' })).toHaveText('Notes (empty)');
    await sheet.selectOption('Q2');
    await expect(headers(page)).toHaveText(['month', 'sales', 'costs']);
    await expect(page.getByText("Sheet 'Q2': 3 rows")).toBeVisible();
    await importButton(page).click();
    const grid = await storedGrid(page, request);
    expect(grid.data).toEqual({ month: ['Apr', 'May', 'Jun'], sales: [20, 22, 25], costs: [5, 6, 7] });
  });

  test('the header choice and a changed type reach the stored data', async ({ page, request }) => {
    const csv = 'n,code\n1,007\n2,010\n';
    await dataFile(page).setInputFiles({ name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByLabel('Type of code')).toHaveValue('number');
    await page.getByLabel('Type of code').selectOption('text');
    // Text cannot be a number: said at the column, and nothing can be imported.
    await page.getByLabel('Type of n').selectOption('date');
    await expect(page.getByLabel('Type of n')).toHaveAccessibleDescription(/^Column ‘n’ cannot be date: Row 2: '1' is not a date/);
    await expect(importButton(page)).toBeDisabled();
    await page.getByLabel('Type of n').selectOption('number');
    await expect(importButton(page)).toBeEnabled();
    const name = `codes ${unique()}`;
    await page.getByLabel('Name').fill(name);
    await importButton(page).click();
    expect((await storedGrid(page, request)).data).toEqual({ n: [1, 2], code: ['007', '010'] });

    await page.goto('/create');
    await dataFile(page).setInputFiles({ name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('First row is the header').uncheck();
    await expect(headers(page)).toHaveText(['Column 1', 'Column 2']);
    await expect(page.getByLabel('Type of Column 1')).toHaveValue('text');
    await page.getByLabel('Name').fill(`${name} raw`);
    await importButton(page).click();
    expect((await storedGrid(page, request)).data).toEqual({ 'Column 1': ['n', '1', '2'], 'Column 2': ['code', '007', '010'] });
  });

  test('a name already taken is numbered, as a second copy is: "name (2)", then "name (3)"', async ({ page, request }) => {
    const name = `twice ${unique()}`;
    const stored: string[] = [];
    for (const round of [1, 2, 3]) {
      if (round > 1) await page.goto('/create');
      await page.getByLabel('Paste data').fill('a,b\n1,2');
      await expect(headers(page)).toHaveText(['a', 'b']);
      await page.getByLabel('Name').fill(name);
      await importButton(page).click();
      stored.push((await storedGrid(page, request)).record.filename);
    }
    expect(stored).toEqual([name, `${name} (2)`, `${name} (3)`]);
  });

  const BAD: { name: string; file: () => { name: string; buffer: Buffer } | string; message: RegExp }[] = [
    {
      name: 'ragged rows',
      file: () => ({ name: 'ragged.csv', buffer: Buffer.from('a,b,c\n1,2,3\n4,5\n') }),
      message: /Row 3 has 2 cells, but the first row has 3/,
    },
    {
      name: 'not UTF-8',
      file: () => ({ name: 'latin1.csv', buffer: Buffer.concat([Buffer.from('city,n\nOslo,1\nM'), Buffer.from([0xfc]), Buffer.from('nchen,2\n')]) }),
      message: /The file is not UTF-8 text \(byte 16, on line 3/,
    },
    { name: 'empty', file: () => ({ name: 'empty.csv', buffer: Buffer.alloc(0) }), message: /The file is empty/ },
    { name: 'blank lines only', file: () => ({ name: 'blank.csv', buffer: Buffer.from('\n\n\n') }), message: /The file is empty/ },
    {
      name: 'formula-only sheet',
      file: () => ({ name: 'sums.xlsx', buffer: xlsxFile('Sums', [[{ formula: '1+1' }, { formula: 'A1*2' }]]) }),
      message: /Sheet 'Sums' holds only formulas \(no computed values were saved\)/,
    },
    {
      name: 'formulas without values',
      file: () => ({
        name: 'half.xlsx',
        buffer: xlsxFile('Half', [
          ['a', 'b'],
          [1, { formula: 'A2*2' }],
        ]),
      }),
      message: /Sheet 'Half' has formulas whose values were not saved \(cell B2 is one\)/,
    },
    {
      name: 'over the limit',
      // A sparse file just over 500 MiB: the size is refused before anything is read.
      file: () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'pf-import-'));
        const file = path.join(dir, 'huge.csv');
        writeFileSync(file, '');
        truncateSync(file, 500 * 1024 * 1024 + 1);
        return file;
      },
      message: /The file is 500 MB; at most 500 MB can be imported/,
    },
  ];

  for (const bad of BAD) {
    test(`bad input (${bad.name}) says where and why, and stores nothing`, async ({ page, request }) => {
      const file = bad.file();
      const base = typeof file === 'string' ? path.basename(file) : file.name;
      try {
        await dataFile(page).setInputFiles(typeof file === 'string' ? file : { ...file, mimeType: 'application/octet-stream' });
        await expect(dataFile(page)).toHaveAccessibleDescription(bad.message);
        await expect(dataFile(page)).toHaveAttribute('aria-invalid', 'true');
        await expect(importButton(page)).toHaveCount(0);
        expect(await exists(request, base.replace(/\.[^.]*$/, ''))).toBe(false);
      } finally {
        if (typeof file === 'string') rmSync(path.dirname(file), { recursive: true, force: true });
      }
    });
  }

  test('keyboard only: paste, choose, import', async ({ page, request }) => {
    const paste = page.getByLabel('Paste data');
    // Tab from the file input to the text area.
    await dataFile(page).focus();
    await page.keyboard.press('Tab');
    await expect(paste).toBeFocused();
    await page.keyboard.insertText('when\tvalue\n2024-05-01\t3\n2024-05-02\t4');
    await expect(headers(page)).toHaveText(['when', 'value']);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('First row is the header')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Type of when')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Type of value')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Name')).toBeFocused();
    await page.keyboard.insertText(` ${unique()}`);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Sharing')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(importButton(page)).toBeFocused();
    await page.keyboard.press('Enter');
    expect((await storedGrid(page, request)).data).toEqual({ when: ['2024-05-01', '2024-05-02'], value: [3, 4] });
  });

  test('axe: empty, preview and error', async ({ page }) => {
    const check = async () => {
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    };
    await check();
    await page.getByLabel('Paste data').fill('a\tb\n1\t2');
    await expect(headers(page)).toHaveText(['a', 'b']);
    await check();
    await dataFile(page).setInputFiles({ name: 'ragged.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1\n') });
    await expect(dataFile(page)).toHaveAttribute('aria-invalid', 'true');
    await check();
  });
});

test('signed out, /create sends to sign-in and the header has no New chart link', async ({ page }) => {
  await page.goto('/create');
  await expect(page).toHaveURL(/\/signin\?next=%2Fcreate$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'New chart' })).toHaveCount(0);
});
