// Stars and comments on a plot page, as people use them: starring (the count, the profile's "Starred",
// the gallery's "Most starred"), comments whose hostile text stays text (no markup, no script, no
// javascript: links, a very long word that never widens a phone's page), editing and deleting, and the
// owner turning comments off. The no-JavaScript project posts the same forms as plain forms.
import type { Page } from '@playwright/test';
import { basicAuth, commentOn, createPlot, E2E_USER, expect, OTHER_USER, pathOf, signIn, starOf, test, unique } from './support';

const LONG_WORD = `Supercalifragilistic${'x'.repeat(600)}`;
const HOSTILE_COMMENTS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  'javascript:window.__pwned=1 and [a link](javascript:window.__pwned=1)',
  `first line\nsecond line with https://example.org/path?q=1. and ${LONG_WORD}`,
];

async function expectInert(page: Page, injected: string[]): Promise<void> {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), 'window.__pwned').toBeUndefined();
  expect(await page.locator('.plot-comments img').count(), 'an injected <img>').toBe(0);
  expect(await page.locator('.plot-comments script').count(), 'an injected <script>').toBe(0);
  expect(await page.locator('a[href^="javascript:" i]').count(), 'a javascript: link').toBe(0);
  expect(injected, 'requests or dialogs made by injected markup').toEqual([]);
}

test('stars: a signed-in reader stars and unstars; the count, the profile\'s "Starred" and the gallery\'s "Most starred" follow', async ({ page, request }) => {
  const plot = await createPlot(request, { title: `starred ${unique()}` });
  await starOf(request, plot.fid, E2E_USER);
  await signIn(page, OTHER_USER);
  await page.goto(pathOf(plot.web_url));
  const stars = page.locator('#star');
  await expect(stars.locator('.star-count')).toHaveText('☆ 1 star');
  await stars.getByRole('button', { name: 'Star' }).click();
  await expect(stars.locator('.star-count')).toHaveText('★ 2 stars');
  await expect(stars.getByRole('button', { name: 'Unstar' })).toBeVisible();

  await page.goto(`/~${OTHER_USER.username}/?tab=starred`);
  await expect(page.locator(`article.plot-card[data-fid="${plot.fid}"]`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Profile' }).getByRole('link', { name: 'Starred' })).toHaveAttribute('aria-current', 'page');

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sort order' }).getByRole('link', { name: 'Most starred' }).click();
  await expect(page).toHaveURL(/order_by=-stars/);
  await expect(page.locator('p.muted').first()).toContainText('most starred first');
  await expect(page.locator(`article.plot-card[data-fid="${plot.fid}"]`)).toBeVisible();

  await page.goto(pathOf(plot.web_url));
  await stars.getByRole('button', { name: 'Unstar' }).click();
  await expect(stars.locator('.star-count')).toHaveText('☆ 1 star');
  await page.goto(`/~${OTHER_USER.username}/?tab=starred`);
  await expect(page.locator(`article.plot-card[data-fid="${plot.fid}"]`)).toHaveCount(0);
});

test('comments with hostile text show as text, run nothing, link only http(s) addresses, keep line breaks and fit a phone', async ({ page, request }) => {
  const plot = await createPlot(request, { title: `hostile comments ${unique()}` });
  const injected: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/x') injected.push(r.url());
  });
  page.on('dialog', (d) => {
    injected.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await signIn(page, OTHER_USER);
  await page.goto(pathOf(plot.web_url));
  for (const text of HOSTILE_COMMENTS) {
    await page.getByLabel('Add a comment').fill(text);
    await page.getByRole('button', { name: 'Post comment' }).click();
    await expect(page.locator('.comment-text').first()).toHaveText(text);
  }
  await expect(page.locator('#comments-heading')).toContainText('(4)');
  await expectInert(page, injected);
  // Only the http(s) address is a link, without its sentence's full stop, and it passes nothing on.
  const links = page.locator('.comment-text a');
  await expect(links).toHaveCount(1);
  await expect(links).toHaveAttribute('href', 'https://example.org/path?q=1');
  await expect(links).toHaveAttribute('rel', 'nofollow ugc noopener noreferrer');
  // Line breaks are kept as written.
  expect(
    await page
      .locator('.comment-text')
      .first()
      .evaluate((e) => (e as HTMLElement).innerText),
  ).toContain('first line\nsecond line');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectInert(page, injected);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(wide, 'sideways scroll at 390 px').toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('hostile-comments-phone.png'), fullPage: true });
});

test("comments: the author edits and deletes their own, the owner deletes anyone's, others only read; empty text is refused at the field", async ({
  page,
  request,
}) => {
  const plot = await createPlot(request, { title: `comments ${unique()}` });
  const owners = await commentOn(request, plot.fid, 'from the owner', E2E_USER);
  await signIn(page, OTHER_USER);
  await page.goto(pathOf(plot.web_url));
  // Someone else's comment: no edit or delete.
  await expect(page.locator(`#comment-${owners.id} .comment-actions`)).toHaveCount(0);
  await page.getByLabel('Add a comment').fill('   \n  ');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('.comment-new [role="alert"]')).toHaveText('A comment cannot be empty.');
  await page.getByLabel('Add a comment').fill('a first try');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const mine = page.locator('.comment').first();
  await expect(mine.locator('.comment-text')).toHaveText('a first try');
  await mine.getByText('Edit', { exact: true }).click();
  await mine.getByLabel('Edit your comment').fill('a second thought');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.comment').first().locator('.comment-text')).toHaveText('a second thought');
  await expect(page.locator('.comment').first().locator('.comment-meta')).toContainText('edited');
  const mineId = await page.locator('.comment').first().getAttribute('id');
  await page.locator(`#${mineId}`).getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator(`#${mineId}`)).toHaveCount(0);

  const theirs = await commentOn(request, plot.fid, 'from someone else', OTHER_USER);
  await signIn(page, E2E_USER);
  await page.goto(pathOf(plot.web_url));
  await expect(page.locator(`#comment-${theirs.id} .comment-edit`)).toHaveCount(0);
  await page.locator(`#comment-${theirs.id}`).getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator(`#comment-${theirs.id}`)).toHaveCount(0);
  await expect(page.locator(`#comment-${owners.id}`)).toBeVisible();
});

test('a refused comment keeps what was typed, beside the reason; an accepted one clears the box', async ({ page, request }) => {
  const plot = await createPlot(request, { title: `refused ${unique()}` });
  await signIn(page, OTHER_USER);
  await page.goto(pathOf(plot.web_url));
  const box = page.getByLabel('Add a comment');
  await box.fill('a long thought\nover two lines');
  // The owner closes comments while it is being written.
  const closed = await request.patch(`/v2/plots/${plot.fid}`, { headers: { Authorization: basicAuth(E2E_USER) }, data: { comments_enabled: false } });
  expect(closed.status()).toBe(200);
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('.comment-new [role="alert"]')).toContainText(/turned off/i);
  await expect(box).toHaveValue('a long thought\nover two lines');

  await request.patch(`/v2/plots/${plot.fid}`, { headers: { Authorization: basicAuth(E2E_USER) }, data: { comments_enabled: true } });
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('.comment-text').first()).toContainText('a long thought');
  await expect(page.getByLabel('Add a comment')).toHaveValue('');
});

test('comments turned off by the owner: no form for anyone, earlier comments stay readable, the API refuses with 403; on again takes comments @no-js', async ({
  page,
  request,
}) => {
  const plot = await createPlot(request, { title: `closing ${unique()}` });
  await commentOn(request, plot.fid, 'said before closing', OTHER_USER);
  await signIn(page, E2E_USER);
  await page.goto(pathOf(plot.web_url));
  await page.getByRole('button', { name: 'Turn comments off' }).click();
  await expect(page.locator('.comments-off')).toContainText('Comments are turned off for this plot');
  await expect(page.getByLabel('Add a comment')).toHaveCount(0);
  await expect(page.locator('.comment-text')).toHaveText(['said before closing']);
  const refused = await request.post(`/v2/plots/${plot.fid}/comments`, { headers: { Authorization: basicAuth(OTHER_USER) }, data: { text: 'late' } });
  expect(refused.status()).toBe(403);

  await signIn(page, OTHER_USER);
  await page.goto(pathOf(plot.web_url));
  await expect(page.locator('.comments-off')).toBeVisible();
  await expect(page.getByLabel('Add a comment')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Turn comments on' })).toHaveCount(0);

  await signIn(page, E2E_USER);
  await page.goto(pathOf(plot.web_url));
  await page.getByRole('button', { name: 'Turn comments on' }).click();
  await page.getByLabel('Add a comment').fill('open again, without JavaScript');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('.comment-text').first()).toHaveText('open again, without JavaScript');
});

test('without JavaScript a reader stars and comments through plain forms @no-js', async ({ page, request }) => {
  const plot = await createPlot(request, { title: `no-js ${unique()}` });
  await signIn(page, OTHER_USER);
  await page.goto(pathOf(plot.web_url));
  await page.locator('#star').getByRole('button', { name: 'Star' }).click();
  await expect(page.locator('#star .star-count')).toHaveText('★ 1 star');
  await page.getByLabel('Add a comment').fill('<b>plain</b> text');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.locator('.comment-text').first()).toHaveText('<b>plain</b> text');
});
