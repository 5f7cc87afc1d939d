// Sharing with people (issue 27 point 1) in the browser: the owner shares a private chart by name
// from its page ("Share with people") to edit, with its private grid (offered, ticked, and said); the
// person finds it under "Shared with me", edits it in the chart editor (no sharing control there:
// that stays the owner's), and loses it at once when unshared. The sharing form works without
// JavaScript, and a viewer made an editor later is offered the grid then. Axe and phone sizes on the
// new pages. "Shared with me" declines one share and blocks a person (their shares go, new ones are
// refused) and unblocks them.
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { createGrid, E2E_USER, expect, OTHER_USER, plotPath, signIn, signOut, test, unique, basicAuth, expectChartDrawn } from './support';

const byLabel = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect(summary, `axe violations on ${name}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `no sideways scrolling on ${name}`).toBeLessThanOrEqual(0);
}

/** A private chart on a private grid of the e2e user's, made through the API. */
async function privateChart(request: Parameters<typeof createGrid>[0], title: string) {
  const grid = await createGrid(request, { fruit: ['apple', 'pear', 'fig'], sales: [3, 5, 2] }, { filename: `team data ${unique()}`, worldReadable: false });
  const res = await request.post('/v2/plots', {
    headers: { Authorization: basicAuth(E2E_USER) },
    data: {
      world_readable: false,
      filename: `team chart ${unique()}`,
      figure: { data: [{ type: 'bar', name: 'sales', xsrc: grid.src('fruit'), ysrc: grid.src('sales') }], layout: { title: { text: title } } },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return { grid, plot: (await res.json()).file as { fid: string; web_url: string } };
}

test('share a private chart with a person who edits it, then unshare it', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const title = `Team chart ${unique()}`;
  const { grid, plot } = await privateChart(request, title);
  await signIn(page);
  await page.goto(plotPath(plot.fid));
  await page.getByRole('link', { name: 'Share with people' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Share with people' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Not shared with anyone yet' })).toBeVisible();
  // A name that is no account: said at the form, nothing shared.
  await byLabel(page, 'Username').fill('nobody-of-that-name');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.locator('.form-error[role="alert"]')).toHaveText("There is no user named 'nobody-of-that-name'.");
  await byLabel(page, 'Username').fill(OTHER_USER.username);
  await byLabel(page, 'Permission').selectOption({ label: 'Can edit' });
  // Its grid is private: editing needs it, so sharing it too is offered, ticked, and said.
  const gridsToo = page.getByLabel(/If they can edit, share the data too/);
  await expect(gridsToo).toBeChecked();
  await expect(gridsToo).toHaveAccessibleName(new RegExp(grid.filename));
  await axe(page, testInfo, 'people (desktop)');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Shared, with the grids it draws from');
  const person = page.locator('li.people-item', { hasText: OTHER_USER.username }).last();
  await expect(person).toContainText('Can edit');
  await expect(page.getByRole('heading', { name: 'Grids they cannot open' })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page, testInfo, 'people (phone)');
  await page.setViewportSize({ width: 1280, height: 900 });
  await signOut(page);

  // The person: Shared with me, the chart, the editor without a sharing control, a saved edit.
  await signIn(page, OTHER_USER);
  await page.goto('/shared');
  await expect(page.getByRole('heading', { level: 1, name: 'Shared with me' })).toBeVisible();
  await expect(page.getByRole('link', { name: grid.filename })).toBeVisible();
  await axe(page, testInfo, 'shared with me (desktop)');
  await page.locator('li.file-row', { hasText: 'team chart' }).first().getByRole('link').first().click();
  await expect(page.locator('h1')).toHaveText(title);
  await expect(page.getByRole('link', { name: 'Shared with you: can edit' })).toBeVisible();
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(byLabel(page, 'Chart title')).toHaveValue(title);
  await expect(byLabel(page, 'Sharing')).toHaveCount(0);
  await byLabel(page, 'Chart title').fill(`${title} (edited)`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(new RegExp(`${plotPath(plot.fid)}$`));
  await expect(page.locator('h1')).toHaveText(`${title} (edited)`);
  const record = await request.get(`/v2/plots/${plot.fid}`, { headers: { Authorization: basicAuth(E2E_USER) } });
  expect(await record.json()).toMatchObject({ title: `${title} (edited)`, world_readable: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/shared');
  await axe(page, testInfo, 'shared with me (phone)');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Unshared by its owner: the person's next request is the 404 of a missing file.
  const removed = await request.delete(`/v2/files/${plot.fid}/collaborators/${OTHER_USER.username}`, { headers: { Authorization: basicAuth(E2E_USER) } });
  expect(removed.status()).toBe(204);
  const gone = await page.goto(plotPath(plot.fid));
  expect(gone?.status()).toBe(404);
});

test('the sharing form without JavaScript: share, change, remove', { tag: '@no-js' }, async ({ page, request }) => {
  expect(test.info().project.use.javaScriptEnabled).toBe(false);
  const { plot } = await privateChart(request, `No script ${unique()}`);
  await signIn(page);
  await page.goto(`${plotPath(plot.fid)}people`);
  await byLabel(page, 'Username').fill(OTHER_USER.username);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Shared.');
  const person = page.locator('li.people-item').filter({ has: page.getByRole('button', { name: `Remove ${OTHER_USER.username}` }) });
  await expect(person).toContainText('Can view');
  await byLabel(page, `Permission for ${OTHER_USER.username}`).selectOption({ label: 'Can edit' });
  await person.getByRole('button', { name: 'Change' }).click();
  await expect(page.getByRole('status')).toContainText('Permission changed.');
  await expect(page.locator('li.people-item').filter({ has: page.getByRole('button', { name: `Remove ${OTHER_USER.username}` }) })).toContainText('Can edit');
  // A viewer made an editor later: the owner is told they cannot open its private grid, and shares it.
  await expect(page.getByRole('heading', { name: 'Grids they cannot open' })).toBeVisible();
  await page.getByRole('button', { name: `Share the data with ${OTHER_USER.username} too` }).click();
  await expect(page.getByRole('status')).toContainText('Its grids are shared too');
  await expect(page.getByRole('heading', { name: 'Grids they cannot open' })).toHaveCount(0);
  await page.getByRole('button', { name: `Remove ${OTHER_USER.username}` }).click();
  await expect(page.getByRole('status')).toContainText('Unshared');
  await expect(page.getByRole('heading', { name: 'Not shared with anyone yet' })).toBeVisible();
});

test('Shared with me: decline one share, block its owner, unblock', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const SHARES = { username: 'e2eshares', apiKey: 'e2e-shares-key-0123456789' };
  const shareWith = async (filename: string) => {
    const made = await request.post('/v2/plots', {
      headers: { Authorization: basicAuth(E2E_USER) },
      data: { world_readable: false, filename, figure: { data: [{ type: 'bar', name: 'n' }] } },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const { fid } = (await made.json()).file as { fid: string };
    return request.post(`/v2/files/${fid}/collaborators`, {
      headers: { Authorization: basicAuth(E2E_USER) },
      data: { username: SHARES.username, permission: 'read' },
    });
  };
  const phishing = `Your account is locked, click here ${unique()}`;
  const other = `Quarterly numbers ${unique()}`;
  for (const name of [phishing, other]) expect((await shareWith(name)).status()).toBe(201);

  await signIn(page, SHARES);
  await page.goto('/shared');
  const row = (name: string) => page.locator('li.file-row', { hasText: name });
  await expect(row(phishing)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await axe(page, testInfo, 'shared-with-me-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  await row(phishing).getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByRole('status')).toContainText('Declined');
  await expect(row(phishing)).toHaveCount(0);
  await expect(row(other)).toBeVisible();

  await row(other).getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('status')).toContainText('Blocked');
  await expect(row(other)).toHaveCount(0);
  const refused = await shareWith(`Another try ${unique()}`);
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('does not take shares from you');
  const blocked = page.getByRole('region', { name: 'People you blocked' });
  await expect(blocked).toContainText(E2E_USER.username);
  await axe(page, testInfo, 'shared-with-me-blocked');

  await blocked.getByRole('button', { name: `Unblock ${E2E_USER.username}` }).click();
  await expect(page.getByRole('status')).toContainText('Unblocked');
  expect((await shareWith(`Welcome back ${unique()}`)).status()).toBe(201);
});
