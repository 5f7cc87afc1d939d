// People hear about what concerns them (issue 38 point 7), walked in two browsers: bob comments on
// alice's public plot and shares a private plot of his with her; alice sees the unread count in the
// header, opens the list (newest first, who did what on which file, when), follows a link (that one is
// read), then marks all as read and the count is gone, and turns mail about them off on /settings. Axe
// and screenshots of the list and the header at desktop and phone sizes, and of the settings on a phone.
import { createPlot, expect, lookAt, OTHER_USER, pathOf, plotPath, signIn, test, unique, type TestUser } from './support';

/** Seeded for this spec alone (e2e/seed.ts): nobody else comments on or shares with them. */
const ALICE: TestUser = { username: 'e2enotified', apiKey: 'e2e-notified-key-0123456789' };
const BOB = OTHER_USER;

test('a comment and a share reach the person: the header counts them, the list links to them, read once followed or marked; mail the person turns off', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const theirs = `Alice’s rainfall ${unique()}`;
  const his = `Bob’s budget ${unique()}`;
  const plot = await createPlot(page.request, { user: ALICE, title: theirs });
  const bobsPlot = await createPlot(page.request, { user: BOB, title: his, visibility: 'private' });

  // bob, in a browser of his own: a comment on alice's plot, then his private plot shared with her to view.
  const bobContext = await browser.newContext();
  const bob = await bobContext.newPage();
  await signIn(bob, BOB);
  await bob.goto(pathOf(plot.web_url));
  await bob.getByLabel('Add a comment').fill('Lovely chart, where is the data from?');
  await bob.getByRole('button', { name: 'Post comment' }).click();
  await expect(bob.locator('.comment-text').first()).toHaveText('Lovely chart, where is the data from?');
  await bob.goto(`${plotPath(bobsPlot.fid)}people`);
  await bob.getByLabel('Username', { exact: true }).fill(ALICE.username);
  await bob.getByLabel('Permission', { exact: true }).selectOption({ label: 'Can view' });
  await bob.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(bob.getByRole('status')).toContainText('Shared');
  await bobContext.close();

  // alice: the header says two unread on any page.
  await signIn(page, ALICE);
  await page.goto('/');
  const header = page.getByRole('banner');
  const unread = (n: number) => header.getByRole('link', { name: n ? `Notifications, ${n} unread` : 'Notifications', exact: true });
  await expect(unread(2)).toBeVisible();
  await unread(2).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const items = page.locator('.notification-list > li');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByRole('link')).toHaveText(`Unread: ${BOB.username} shared the plot “${his}” with you to view`);
  await expect(items.nth(1).getByRole('link')).toHaveText(`Unread: ${BOB.username} commented on your plot “${theirs}”`);
  await expect(items.nth(0).locator('time')).toHaveText(/now|seconds? ago|minutes? ago/);
  await lookAt(page, testInfo, 'notifications-desktop');

  // Following the comment's link opens the plot, and that one is read.
  await items.nth(1).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`${pathOf(plot.web_url)}$`));
  await expect(page.getByText('Lovely chart, where is the data from?')).toBeVisible();
  await expect(unread(1)).toBeVisible();

  // On a phone: the list, one still new; "Mark all as read" and the count is gone.
  await page.setViewportSize({ width: 390, height: 844 });
  await unread(1).click();
  await expect(items).toHaveCount(2);
  await expect(page.locator('.notification-list > li.unread')).toHaveCount(1);
  await lookAt(page, testInfo, 'notifications-phone');
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(unread(0)).toBeVisible();
  await expect(page.locator('.notification-list > li.unread')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  // The share's link still leads to bob's plot, which alice may read.
  await items.nth(0).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`${plotPath(bobsPlot.fid)}$`));
  await expect(unread(0)).toBeVisible();

  // Mail about them is the person's to turn off (on by default), on /settings.
  await header.getByRole('link', { name: 'Settings' }).click();
  const byEmail = page.getByLabel('Email me about comments and shares');
  await expect(byEmail).toBeChecked();
  await byEmail.uncheck();
  await page.getByRole('form', { name: 'Notifications' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No more mail about comments and shares.' })).toBeVisible();
  await page.locator('#notifications-heading').scrollIntoViewIfNeeded();
  await lookAt(page, testInfo, 'settings-phone');
  await page.reload();
  await expect(byEmail).not.toBeChecked();
});
