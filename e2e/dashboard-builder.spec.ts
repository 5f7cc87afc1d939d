// The dashboard builder: "New dashboard" from the workspace, plots and a text box added, arranged by
// keyboard and by drag, a pane resized, saved as the content Python's dashboard_ops reads back; edits
// undone and redone; a dashboard the client made edited without losing what the builder does not
// touch; a plot no longer readable refused at its box; the builder closed to others; axe and
// screenshots at desktop and phone.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import { E2E_USER, OTHER_USER, basicAuth, createPlot, expect, signIn, signOut, test, trashPlot, unique } from './support';

const auth = { Authorization: basicAuth(E2E_USER) };

interface DashboardFile {
  fid: string;
  filename: string;
  web_url: string;
  world_readable: boolean;
  content: string;
}

async function getDashboard(request: APIRequestContext, fid: string): Promise<DashboardFile> {
  const res = await request.get(`/v2/dashboards/${fid}`, { headers: auth });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as DashboardFile;
}

async function postDashboard(request: APIRequestContext, content: unknown, filename: string): Promise<DashboardFile> {
  const res = await request.post('/v2/dashboards', { headers: auth, data: { content: JSON.stringify(content), filename, world_readable: false } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { file: DashboardFile }).file;
}

/** The boxes in the builder, in reading order, by their titles (from each box's title field). */
const boxTitles = (page: Page) =>
  page.locator('.dashboard-box .dashboard-box-title input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
const box = (page: Page, title: string) => page.locator(`.dashboard-box[data-title="${title}"]`);

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  if (summary.length) await testInfo.attach(`${name} axe violations`, { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });
  expect(summary, `axe violations on the ${name}`).toEqual([]);
}

async function screenshots(page: Page, testInfo: TestInfo, name: string) {
  for (const [width, height, label] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    const file = testInfo.outputPath(`${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name} ${label}`, { path: file, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function addPlot(page: Page, title: string) {
  const picker = page.locator('#dashboard-plot-picker');
  await picker.getByLabel('Search your plots').fill(title);
  await picker.getByRole('button', { name: 'Search' }).click();
  // Each choice's button names its title and file name.
  await picker.getByRole('button', { name: new RegExp(`^Add ${title} \\(`) }).click();
}

/** Drags `from`'s handle onto `to`, at a point given as fractions of its box. */
async function drag(from: Locator, to: Locator, at: { x: number; y: number }) {
  const target = await to.boundingBox();
  await from.locator('.dashboard-drag').dragTo(to, { targetPosition: { x: target!.width * at.x, y: target!.height * at.y } });
}

test.describe('dashboard builder', () => {
  // Each walks the builder through many steps, with axe and screenshots.
  test.describe.configure({ timeout: 180_000 });

  test('a new dashboard from the workspace: plots and text added, arranged by keyboard and drag, resized, saved', async ({ page, request }, testInfo) => {
    const tag = unique();
    const [a, b] = [`Revenue ${tag}`, `Costs ${tag}`];
    const plotA = await createPlot(request, { title: a, visibility: 'private' });
    const plotB = await createPlot(request, { title: b });
    await signIn(page);
    await page.goto('/~e2e/');
    await page.getByRole('link', { name: 'New dashboard', exact: true }).click();
    await expect(page).toHaveURL(/\/create\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'New dashboard' })).toBeVisible();
    await expect(page.getByText('No boxes yet')).toBeVisible();

    await page.getByLabel('Title', { exact: true }).fill(`Board ${tag}`);
    await page.getByRole('button', { name: 'Add plot' }).click();
    await addPlot(page, a);
    // Side by side in one row rather than the grid's next place.
    await page.getByLabel('Place new boxes').selectOption('right');
    await addPlot(page, b);
    await page.locator('#dashboard-plot-picker').getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Add text' }).click();
    // The new text box's title takes the focus.
    await expect(page.locator('.dashboard-box[data-box-type="text"] .dashboard-box-title input')).toBeFocused();
    await page.keyboard.type('Notes');
    await page.getByLabel(/^Text of Box 3/).fill('Read me first.');
    expect(await boxTitles(page)).toEqual([a, b, 'Notes']);

    // Keyboard: the text box one place left (Enter on its button), then the focus stays on that button in its new place.
    const left = page.getByRole('button', { name: 'Move Box 3 (Notes) left' });
    await left.focus();
    await page.keyboard.press('Enter');
    expect(await boxTitles(page)).toEqual([a, 'Notes', b]);
    await expect(page.getByRole('status').filter({ hasText: 'moved left' })).toHaveText('Box 3 (Notes) moved left.');
    await expect(page.getByRole('button', { name: 'Move Box 2 (Notes) left' })).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await boxTitles(page)).toEqual(['Notes', a, b]);
    await expect(page.getByRole('button', { name: 'Move Box 1 (Notes) left' })).toBeDisabled();

    // Drag: the middle of a box swaps; its bottom edge puts the dragged box below it.
    await drag(box(page, b), box(page, 'Notes'), { x: 0.5, y: 0.5 });
    expect(await boxTitles(page)).toEqual([b, a, 'Notes']);
    await drag(box(page, 'Notes'), box(page, b), { x: 0.5, y: 0.95 });
    expect(await boxTitles(page)).toEqual([b, 'Notes', a]);
    await expect(page.getByRole('status').filter({ hasText: 'placed' })).toContainText('placed below');

    // Resize: the split of the left column and the plot on the right.
    const width = page.getByLabel(`Width of Box 1 (${b}), Box 2 (Notes)`);
    await width.fill('70');
    await expect(page.locator(`output[for="${await width.getAttribute('id')}"]`)).toHaveText('70%');
    await page.getByLabel('Sharing').selectOption('public');

    await axe(page, testInfo, 'dashboard builder');
    await screenshots(page, testInfo, 'dashboard-builder');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page).toHaveURL(/\/~e2e\/\d+\/$/);
    const n = Number(new URL(page.url()).pathname.split('/')[2]);
    const saved = await getDashboard(request, `e2e:${n}`);
    expect(saved.filename).toBe(`Board ${tag}`);
    expect(saved.world_readable).toBe(true);
    const content = JSON.parse(saved.content);
    // The client's format: a px-high top pane over its empty filler, the rows and columns as splits.
    expect(content).toMatchObject({ version: 2, settings: { title: `Board ${tag}` } });
    expect(content.layout).toMatchObject({ type: 'split', direction: 'vertical', sizeUnit: 'px', second: { type: 'box', boxType: 'empty' } });
    expect(content.layout.first).toEqual({
      type: 'split',
      direction: 'horizontal',
      size: 70,
      sizeUnit: '%',
      first: {
        type: 'split',
        direction: 'vertical',
        size: 50,
        sizeUnit: '%',
        first: { type: 'box', boxType: 'plot', fileId: plotB.fid, shareKey: null, title: b },
        second: { type: 'box', boxType: 'text', title: 'Notes', text: 'Read me first.' },
      },
      second: { type: 'box', boxType: 'plot', fileId: plotA.fid, shareKey: null, title: a },
    });

    // Its page shows what was made, with Edit dashboard to its owner; the private plot only to its owner.
    await expect(page.getByRole('main')).toContainText('Read me first.');
    await expect(page.getByRole('link', { name: 'Edit dashboard' })).toHaveAttribute('href', `/~e2e/${n}/edit`);
    await expect(page.getByText('This plot is not shared with you')).toHaveCount(0);
    await signOut(page);
    await page.goto(`/~e2e/${n}/`);
    await expect(page.getByRole('main')).toContainText('Read me first.');
    await expect(page.getByRole('main')).toContainText('This plot is not shared with you');
    await expect(page.getByRole('main')).not.toContainText(a);
    await expect(page.getByRole('link', { name: 'Edit dashboard' })).toHaveCount(0);
    await signIn(page);

    // In the workspace, a kind of its own, with its Edit; opened again, the builder shows what was saved.
    await page.goto('/~e2e/?type=dashboard');
    const row = page.locator(`li.file-row[data-fid="e2e:${n}"]`);
    await expect(row).toHaveAttribute('data-filetype', 'dashboard');
    await expect(row.locator('.file-facts')).toContainText('Dashboard');
    await expect(page.locator('li.file-row[data-filetype="plot"]')).toHaveCount(0);
    await row.getByRole('link', { name: `Edit Board ${tag}` }).click();
    await expect(page).toHaveURL(new RegExp(`/~e2e/${n}/edit$`));
    expect(await boxTitles(page)).toEqual([b, 'Notes', a]);
    await expect(page.getByLabel('File name')).toHaveValue(`Board ${tag}`);
  });

  test('edits a dashboard the Python client made, keeping every box and setting it does not change; a plot gone is refused at its box', async ({
    page,
    request,
  }) => {
    const tag = unique();
    const plot = await createPlot(request, { title: `Kept ${tag}` });
    const other = await createPlot(request, { title: `Goes ${tag}` });
    // As dashboard_objs makes it: insert(a); insert(b, 'below', 1); plus a box of nothing and settings of the client's own.
    const made = {
      layout: {
        type: 'split',
        direction: 'vertical',
        size: 1500,
        sizeUnit: 'px',
        first: {
          type: 'split',
          direction: 'vertical',
          size: 50,
          sizeUnit: '%',
          first: { type: 'box', boxType: 'plot', fileId: plot.fid, shareKey: null, title: 'Top' },
          second: {
            type: 'split',
            direction: 'horizontal',
            size: 30,
            sizeUnit: '%',
            first: { type: 'box', boxType: 'empty' },
            second: { type: 'box', boxType: 'text', text: 'Hello\nthere', title: 'Words' },
          },
        },
        second: { type: 'box', boxType: 'empty' },
      },
      version: 2,
      settings: { foregroundColor: '#333', backgroundColor: '#fff', boxHeaderBackgroundColor: '#eee', logoUrl: null, title: 'From Python' },
    };
    const file = await postDashboard(request, made, `py ${tag}`);
    await signIn(page);
    await page.goto(`/~e2e/${file.fid.split(':')[1]}/edit`);
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('From Python');
    await expect(page.locator('.dashboard-box')).toHaveCount(3);
    await expect(page.locator('.dashboard-box[data-box-type="empty"]')).toContainText('Empty box');
    await page.getByLabel('Title of Box 1 (Top)').fill('Top, renamed');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/~e2e/${file.fid.split(':')[1]}/$`));
    const after = JSON.parse((await getDashboard(request, file.fid)).content);
    const expected = structuredClone(made);
    expected.layout.first.first.title = 'Top, renamed';
    expect(after).toEqual(expected);

    // A plot added, then trashed before the save: refused at its box, in words, nothing saved.
    await page.goto(`/~e2e/${file.fid.split(':')[1]}/edit`);
    await page.getByRole('button', { name: 'Add plot' }).click();
    await addPlot(page, `Goes ${tag}`);
    await trashPlot(request, other.fid);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await expect(alert).toContainText('Fix what is marked');
    await expect(alert).toContainText(`The plot ${other.fid} is not one you can see`);
    await expect(page.locator('.dashboard-box.has-error')).toHaveCount(1);
    expect(JSON.parse((await getDashboard(request, file.fid)).content)).toEqual(expected);
  });

  test('undo and redo: buttons and Ctrl+Z, Ctrl+Y; typing a title is one step; the file name is not undone', async ({ page }) => {
    await signIn(page);
    await page.goto('/create/dashboard');
    const undo = page.getByRole('button', { name: 'Undo', exact: true });
    const redo = page.getByRole('button', { name: 'Redo', exact: true });
    await expect(undo).toBeDisabled();
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.keyboard.type('Notes');
    const title = page.getByLabel('Title of Box 1 (Notes)');
    await expect(title).toHaveValue('Notes');
    await page.getByLabel('File name').fill('kept');
    await title.press('Control+z');
    await expect(page.getByLabel('Title of Box 1 (text)')).toHaveValue('');
    await page.getByLabel('Title of Box 1 (text)').press('Control+z');
    await expect(page.getByText('No boxes yet')).toBeVisible();
    await expect(undo).toBeDisabled();
    await redo.click();
    await expect(page.getByLabel('Title of Box 1 (text)')).toHaveValue('');
    await page.getByLabel('Title of Box 1 (text)').press('Control+y');
    await expect(page.getByLabel('Title of Box 1 (Notes)')).toHaveValue('Notes');
    await expect(redo).toBeDisabled();
    await expect(page.getByLabel('File name')).toHaveValue('kept');
  });

  test('a reader has no builder (the 404 of a missing file); a write collaborator edits the boxes, not the name or sharing', async ({ page, request }) => {
    const tag = unique();
    const plot = await createPlot(request, { title: `Shared ${tag}`, visibility: 'private' });
    const content = { layout: { type: 'box', boxType: 'plot', fileId: plot.fid, shareKey: null, title: 'Theirs' }, version: 2, settings: { title: 'Team' } };
    const file = await postDashboard(request, content, `team ${tag}`);
    const edit = `/~e2e/${file.fid.split(':')[1]}/edit`;
    await signIn(page, OTHER_USER);
    expect((await page.goto(edit))?.status()).toBe(404);
    const shared = await request.post(`/v2/files/${file.fid}/collaborators`, { headers: auth, data: { username: OTHER_USER.username, permission: 'read' } });
    expect(shared.status(), await shared.text()).toBeLessThan(300);
    expect((await page.goto(edit))?.status()).toBe(404);
    const writer = await request.patch(`/v2/files/${file.fid}/collaborators/${OTHER_USER.username}`, { headers: auth, data: { permission: 'write' } });
    expect(writer.status(), await writer.text()).toBeLessThan(300);
    expect((await page.goto(edit))?.status()).toBe(200);
    // Their plot is not shared with the writer: its box says so, without its title, and is kept as it is.
    await expect(page.locator('.dashboard-box[data-box-type="plot"]')).toContainText(`This plot (${plot.fid}) is not shared with you.`);
    await expect(page.locator('.dashboard-builder')).not.toContainText(`Shared ${tag}`);
    await expect(page.getByLabel('Sharing')).toHaveCount(0);
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.keyboard.type('From the writer');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/~e2e/${file.fid.split(':')[1]}/$`));
    const after = JSON.parse((await getDashboard(request, file.fid)).content);
    expect(after.layout.first).toEqual(content.layout);
    expect(after.layout.second).toMatchObject({ type: 'box', boxType: 'text', title: 'From the writer' });
    expect((await getDashboard(request, file.fid)).world_readable).toBe(false);
  });
});
