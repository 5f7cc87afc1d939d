// "Copy to my files" on a plot page (with and without JavaScript), and the share link shown whole.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { E2E_USER, OTHER_USER, basicAuth, createPlot, expect, expectChartDrawn, pathOf, plotPath, signIn, test, type TestUser } from './support';

const noJs = { tag: '@no-js' };

/** Clicks the page's copy button and waits for the copy's page: answers its fid. */
async function copyFromPage(page: Page, user: TestUser, button: string): Promise<string> {
  const from = new URL(page.url()).pathname;
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((url) => url.pathname !== from && new RegExp(`^/~${user.username}/\\d+/$`).test(url.pathname), { waitUntil: 'load' });
  const [, n] = new URL(page.url()).pathname.match(/^\/~[^/]+\/(\d+)\/$/)!;
  return `${user.username}:${n}`;
}

/** The copy, as its owner and as anyone else sees it through the API: the copier's, private, on the original. */
async function expectPrivateCopy(page: Page, fid: string, owner: TestUser, source: string, filename: string): Promise<void> {
  const res = await page.request.get(`/v2/plots/${fid}`, { headers: { Authorization: basicAuth(owner) } });
  expect(res.status()).toBe(200);
  const record = await res.json();
  expect(record.owner).toBe(owner.username);
  expect(record.world_readable).toBe(false);
  expect(record.source_fid).toBe(source);
  expect(record.filename).toBe(filename);
  for (const src of (record.figure.data as Record<string, string>[]).flatMap((t) => [t.xsrc, t.ysrc])) {
    expect(src.startsWith(`${owner.username}:`), `${src} is a column of the copier's own`).toBe(true);
  }
  // Nobody else reads it, signed in or not.
  expect((await page.request.get(`/v2/plots/${fid}`, { headers: { Authorization: basicAuth(owner === E2E_USER ? OTHER_USER : E2E_USER) } })).status()).toBe(
    404,
  );
  await expect(page.locator('.badge[data-visibility="private"]')).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(owner.username);
}

test("a signed-in visitor copies someone's plot: the private copy's page, drawn from its own data", async ({ page, request }) => {
  const original = await createPlot(request, { title: `To copy ${Date.now()}` });
  await signIn(page, OTHER_USER);
  await page.goto(pathOf(original.web_url));
  await expect(page.locator('.plot-copy')).toContainText('private copy');
  const axe = await new AxeBuilder({ page }).include('.plot-copy').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(
    axe.violations.map((v) => v.id),
    'axe violations in the copy form',
  ).toEqual([]);
  await page.locator('.plot-copy').screenshot({ path: test.info().outputPath('copy-form.png') });
  const fid = await copyFromPage(page, OTHER_USER, 'Copy to my files');
  await expect(page.locator('h1')).toHaveText(original.title!);
  // Whose plot it came from, and which.
  await expect(page.locator('.file-meta')).toContainText(`Copied from ${original.fid.split(':')[0]}’s plot ${original.filename}`);
  await expect(page.locator(`.file-meta a[href="${plotPath(original.fid)}"]`)).toBeVisible();
  await expect(page.locator(`.file-meta a[href="/~${original.fid.split(':')[0]}/"]`)).toBeVisible();
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  await expectPrivateCopy(page, fid, OTHER_USER, original.fid, `Copy of ${original.filename}`);
  // On its own plot the same button duplicates.
  const again = await copyFromPage(page, OTHER_USER, 'Duplicate');
  await expectPrivateCopy(page, again, OTHER_USER, fid, `Copy of Copy of ${original.filename}`);
});

test('an anonymous visitor is offered to sign in first, and comes back to the plot', async ({ page, request }) => {
  const original = await createPlot(request);
  await page.goto(pathOf(original.web_url));
  const link = page.getByRole('link', { name: 'Sign in to copy' });
  await expect(link).toHaveAttribute('href', `/signin?next=${encodeURIComponent(plotPath(original.fid))}`);
  await expect(page.getByRole('button', { name: 'Copy to my files' })).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test("a secret link's holder copies the plot, twice: 'Copy of X', then 'Copy of X (2)'", noJs, async ({ page, request }) => {
    expect(test.info().project.use.javaScriptEnabled, 'JavaScript is off in this project').toBe(false);
    const original = await createPlot(request, { visibility: 'secret', title: `Secret to copy ${Date.now()}` });
    const shared = `${plotPath(original.fid)}?share_key=${encodeURIComponent(original.share_key!)}`;
    // Anonymous: the sign-in link brings the holder back to the secret page, key and all.
    await page.goto(shared);
    await expect(page.getByRole('link', { name: 'Sign in to copy' })).toHaveAttribute('href', `/signin?next=${encodeURIComponent(shared)}`);
    await signIn(page, OTHER_USER);
    await page.goto(shared);
    const first = await copyFromPage(page, OTHER_USER, 'Copy to my files');
    await expect(page.locator('h1')).toHaveText(original.title!);
    await expectPrivateCopy(page, first, OTHER_USER, original.fid, `Copy of ${original.filename}`);
    // The original stays out of reach without its key, the copy's lineage names no link to it.
    await expect(page.locator('.file-meta')).toContainText('Copied from another plot');
    await page.goto(shared);
    const second = await copyFromPage(page, OTHER_USER, 'Copy to my files');
    await expectPrivateCopy(page, second, OTHER_USER, original.fid, `Copy of ${original.filename} (2)`);
  });

  test('a forged copy (no anti-forgery token) is refused and makes nothing', noJs, async ({ page, request }) => {
    const original = await createPlot(request);
    await signIn(page, OTHER_USER);
    await page.goto(pathOf(original.web_url));
    await page.locator('.plot-copy input[name="csrf"]').evaluate((e) => ((e as HTMLInputElement).value = 'forged'));
    await page.getByRole('button', { name: 'Copy to my files' }).click();
    await expect(page.locator('.plot-copy [role="alert"]')).toContainText('expired');
    expect(new URL(page.url()).pathname).toBe(plotPath(original.fid));
  });
});

test('the share link shows whole: underscores are not clipped', async ({ page, request }) => {
  const plot = await createPlot(request, { visibility: 'secret', user: E2E_USER });
  await signIn(page, E2E_USER);
  await page.goto(pathOf(plot.web_url));
  const field = page.locator('#share-url');
  await expect(field).toHaveValue(new RegExp(`share_key=${plot.share_key}`));
  // Pixels: the field showing only underscores must differ from the field showing nothing.
  const shot = async (value: string) => {
    await field.evaluate((e, v) => ((e as HTMLInputElement).value = v), value);
    await page.mouse.click(1, 1);
    return field.screenshot({ animations: 'disabled', caret: 'hide' });
  };
  const empty = await shot('');
  const underscores = await shot('_'.repeat(40));
  expect(underscores.equals(empty), 'underscores are drawn in the field').toBe(false);
  // And room for them: an explicit line-height (with `normal`, the glyphs fall below the clipped line box).
  const box = await field.evaluate((e) => {
    const s = getComputedStyle(e);
    return { fontSize: parseFloat(s.fontSize), lineHeight: parseFloat(s.lineHeight), overflowY: e.scrollHeight - e.clientHeight };
  });
  expect(box.lineHeight, `line-height ${box.lineHeight}px for a ${box.fontSize}px font`).toBeGreaterThanOrEqual(box.fontSize * 1.2);
  expect(box.overflowY, 'no text below the field').toBe(0);
  await field.evaluate((e, v) => ((e as HTMLInputElement).value = v), `${plot.web_url}?share_key=ab_cd__ef_g`);
  await field.screenshot({ path: test.info().outputPath('share-url.png'), caret: 'hide' });
});
