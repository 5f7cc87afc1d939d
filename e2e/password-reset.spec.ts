// "Forgot password?" in the browser, with and without JavaScript, on an app of its own: mail
// configured (SMTP_URL to a real SMTP server this file starts, PUBLIC_URL) and open sign-up, on a
// PostgreSQL database of its own. Sign up, confirm the address, forget, follow the mailed link, set a
// password, sign in with it; axe and screenshots (desktop and phone) of the pages on the way.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '../harness/postgres';
import { startServer } from '../harness/server';
import { startSmtpServer } from '../tests/support/smtp';
import { expect, test, unique } from './support';

const PASSWORD = 'my first e2e password';
const NEW_PASSWORD = 'my second e2e password';

test.describe.configure({ mode: 'serial' });

let app: Awaited<ReturnType<typeof startServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const dbName = createDatabaseName('e2ereset');

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await createDatabase(dbName);
  smtp = await startSmtpServer();
  app = await startServer((url) => ({
    DATABASE_URL: adminUrl(dbName),
    DEMO_SEED: 'false',
    IMAGE_WORKER: 'false',
    SIGNUP: 'open',
    SMTP_URL: smtp.url,
    PUBLIC_URL: url,
  }));
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
  await dropDatabase(dbName);
});

/** axe runs in the page, so only with JavaScript; the pages are the same server-rendered HTML without it. */
async function axeClean(page: Page) {
  if (!test.info().project.use.javaScriptEnabled) return;
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

async function shoot(page: Page, name: string) {
  for (const size of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: test.info().outputPath(`${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

for (const js of [true, false]) {
  test(`forgot password: a mailed one-time link sets a new password, then it signs in${js ? '' : ' @no-js'}`, async ({ page, context }) => {
    test.setTimeout(120_000);
    const username = `fp${unique()}`;
    const email = `${username}@mail.example`;
    const beforeSignUp = smtp.mails.length;
    await page.goto(`${app.url}/signup`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/settings\?welcome=1$/);
    await context.clearCookies();
    // An address given at open sign-up counts once confirmed (reset mail goes to confirmed addresses only).
    const confirmation = await smtp.mailTo(email, beforeSignUp);
    await page.goto(confirmation.text.match(/^(http\S+confirm-email\S+)$/m)![1]);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'Address confirmed' })).toBeVisible();

    await page.goto(`${app.url}/signin`);
    await expect(page.getByRole('link', { name: 'Sign up' }).first()).toBeVisible();
    // By keyboard: the link, then the form (Enter submits it).
    await page.getByRole('link', { name: 'Forgot password?' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
    await axeClean(page);
    await shoot(page, `forgot-password${js ? '' : '-nojs'}`);

    const seen = smtp.mails.length;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Email').press('Enter');
    await expect(page.getByRole('status')).toContainText('If an account uses that address, we sent a link to it.');
    await axeClean(page);
    await shoot(page, `forgot-password-sent${js ? '' : '-nojs'}`);

    const mail = await smtp.mailTo(email, seen);
    const link = mail.text.match(/^(http\S+)$/m)![1];
    expect(link.startsWith(`${app.url}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expect(page.locator('main')).toContainText(username);
    await axeClean(page);
    await shoot(page, `reset-password${js ? '' : '-nojs'}`);

    // Two different passwords: the error at the second, nothing spent.
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD}?`);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByLabel('New password again')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('New password again')).toHaveAccessibleDescription('The two passwords differ.');
    await axeClean(page);
    await shoot(page, `reset-password-error${js ? '' : '-nojs'}`);

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page).toHaveURL(/\/signin\?reset=1$/);
    await expect(page.getByRole('status')).toContainText('Your password is changed');
    await axeClean(page);
    await page.getByLabel('Username or email').fill(email);
    await page.getByLabel('Password or API key').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('banner')).toContainText(username);

    // The link worked once.
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  });
}
