// Accounts in the browser, with and without JavaScript: sign up by invitation, settings (profile,
// password, a new API key shown once with the clients' lines), password sign-in, the slowing down of
// wrong passwords, and `next` values that would lead off the site. Each project uses its own
// invitation (e2e/server.sh made them).
import { basicAuth, expect, invitationLinks, signOut, test, unique } from './support';

const PASSWORD = 'a long e2e password';

for (const js of [true, false]) {
  test(`sign up by invitation, edit settings, make a new key, sign in with the password${js ? '' : ' @no-js'}`, async ({ page, request, baseURL }) => {
    const link = invitationLinks()[js ? 0 : 1];
    const username = `inv${unique()}`;
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
    await expect(page.locator('main')).toContainText(`${js ? 'js' : 'nojs'}@invited.example`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();

    // Signed in, on the settings page.
    await expect(page).toHaveURL(/\/settings\?welcome=1$/);
    await expect(page.getByRole('banner')).toContainText(username);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Settings' })).toBeVisible();

    // The link worked once.
    const again = await request.get(link);
    expect(await again.text()).toContain('This invitation no longer works');

    // Profile: shown on the profile page, the website as a link.
    await page.getByLabel('Nickname').fill(`Nick ${username}`);
    await page.getByLabel('Bio').fill('I plot rivers.');
    await page.getByLabel('Website').fill('https://rivers.example/me');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    await expect(page.getByLabel('Nickname')).toHaveValue(`Nick ${username}`);
    await page.goto(`/~${username}/`);
    await expect(page.getByRole('heading', { name: `Nick ${username}` })).toBeVisible();
    await expect(page.getByText('I plot rivers.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'rivers.example/me' })).toHaveAttribute('href', 'https://rivers.example/me');

    // The first API key (a web sign-up was given none): nothing stops working, so nothing to accept.
    // Shown once with the clients' lines for this server; this browser stays signed in.
    await page.goto('/settings');
    await expect(page.getByRole('form', { name: 'Make your API key' })).not.toContainText('stops working');
    await expect(page.getByLabel(/I understand/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Make my API key' }).click();
    const keyField = page.getByRole('textbox', { name: 'Your new API key' });
    await expect(keyField).toBeVisible();
    const apiKey = await keyField.inputValue();
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const origin = new URL(baseURL!).origin;
    await expect(page.locator('pre').first()).toContainText(`tls.set_credentials_file(username="${username}", api_key="${apiKey}")`);
    await expect(page.locator('pre').first()).toContainText(`tls.set_config_file(plotly_domain="${origin}", plotly_api_domain="${origin}")`);
    await expect(page.locator('pre').nth(1)).toContainText(`"plotly_api_key" = "${apiKey}"`);
    // plotly for R speaks only https: its lines name the https origin, and the page says why.
    const https = origin.replace(/^http:/, 'https:');
    await expect(page.locator('pre').nth(1)).toContainText(`"plotly_domain" = "${https}", "plotly_api_domain" = "${https}"`);
    await expect(page.locator('#r-https')).toContainText('plotly for R needs https');
    await expect(page.locator('#r-https')).toContainText(`This page came over plain http (${origin})`);
    if (js) await expect(page.getByRole('button', { name: 'Copy your new api key' })).toBeVisible();
    for (const size of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.locator('#key-heading').scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`settings-new-key-${size.width}${js ? '' : '-nojs'}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByRole('banner')).toContainText(username);
    const me = await request.get('/v2/users/current', { headers: { Authorization: basicAuth({ username, apiKey }) } });
    expect(me.status()).toBe(200);
    expect((await me.json()).has_password).toBe(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your new API key' })).toHaveCount(0);

    // Another key replaces one the person holds: asked first, by keyboard (the box takes Space).
    await expect(page.getByRole('form', { name: 'Make a new API key' })).toContainText('stops working');
    await page.getByLabel(/I understand/).focus();
    await page.keyboard.press('Space');
    await expect(page.getByLabel(/I understand/)).toBeChecked();
    await page.getByRole('button', { name: 'Make a new API key' }).click();
    await expect(page.getByRole('textbox', { name: 'Your new API key' })).not.toHaveValue(apiKey);
    const old = await request.get('/v2/users/current', { headers: { Authorization: basicAuth({ username, apiKey }) } });
    expect(old.status()).toBe(401);

    // Password sign-in, by email, back to where the person was going.
    await signOut(page);
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/signin\?next=%2Fsettings|\/signin\?next=\/settings/);
    await page.getByLabel('Username or email').fill(`${js ? 'js' : 'nojs'}@invited.example`);
    await page.getByLabel('Password or API key').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The form's own alert (Next's route announcer is an alert too, present once it has announced).
    await expect(page.locator('#signin-error')).toHaveRole('alert');
    await expect(page.locator('#signin-error')).toContainText('do not match');
    // What was typed as the name stays in its field; the secret never comes back.
    await expect(page.getByLabel('Username or email')).toHaveValue(`${js ? 'js' : 'nojs'}@invited.example`);
    await expect(page.getByLabel('Password or API key')).toHaveValue('');
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password or API key').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('banner')).toContainText(username);
  });
}

test('wrong passwords slow down, never lock: past a few, a 429 page says to wait seconds, and then the password works', async ({ page, request, baseURL }) => {
  // The form filled first, so that the browser's try follows the last failure at once (on a busy
  // machine a page load can outlast the wait it is meant to meet).
  await page.goto('/signin?next=%2Ffeed');
  await page.getByLabel('Username or email').fill('throttle@e2e.example');
  await page.getByLabel('Password or API key').fill('e2e-throttled-password');
  // Failures from this address (the browser's too) on the throttle account, waiting out each wait,
  // until the next wait is long enough for a person to meet it in the browser.
  let wait = 0;
  for (let failures = 0; wait < 4; ) {
    const res = await request.post('/signin/submit', {
      form: { username: 'e2ethrottle', password: `wrong password ${failures}` },
      headers: { Origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    if (res.status() === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers()['retry-after']) * 1000 + 100));
      continue;
    }
    expect(res.status()).toBe(303);
    failures++;
    // Only once past the free failures does a next try have to wait: 1 s, then twice as long each time.
    wait = failures < 5 ? 0 : 2 ** (failures - 5);
  }
  const [throttled] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/signin/submit')),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  expect(throttled.status()).toBe(429);
  const retryAfter = Number(await throttled.headerValue('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(4);
  await expect(page.getByRole('heading', { name: 'Too many attempts' })).toBeVisible();
  await expect(page.locator('main')).toContainText(/Try again in \d seconds? \(at \d\d:\d\d UTC\)/);
  await expect(page.getByRole('banner')).toHaveCount(0);
  // Back to the form, which says the attempt was not checked; once the wait is over, the password works.
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page.locator('#signin-error')).toContainText('the last one was not checked');
  await page.waitForTimeout(retryAfter * 1000 + 200);
  await page.getByLabel('Username or email').fill('throttle@e2e.example');
  await page.getByLabel('Password or API key').fill('e2e-throttled-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/feed$/);
  await expect(page.getByRole('banner')).toContainText('e2ethrottle');
});

// One of each class of the hostile corpus's redirect block (tests/hardening runs them all over HTTP).
const HOSTILE_NEXT_SAMPLE = [
  '/..//evil.example/phish',
  '/%2e%2e//evil.example/phish',
  '/a/../..//evil.example/phish',
  '/%252e%252e//evil.example/phish',
  '/\\/evil.example/phish',
  '/%5C%5Cevil.example/phish?',
  '/..%2f/evil.example/phish',
  '/\t/evil.example/phish',
  '//evil.example/phish',
  'https:evil.example/phish',
];

test('a sign-in never goes back to another site, whatever `next` says', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const left: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== origin) left.push(r.url());
  });
  // As a link would bring the person: the form carries no `next` it would not follow.
  for (const next of HOSTILE_NEXT_SAMPLE) {
    await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    await expect(page.locator('input[name="next"]'), next).toHaveValue('');
  }
  // As a forged form would post it: the server refuses it all the same. Once through the page, to
  // the profile it lands on; the others posted as the page posts its form (the page after it is the same).
  const [first, ...others] = HOSTILE_NEXT_SAMPLE;
  await page.locator('input[name="next"]').evaluate((input, value) => ((input as HTMLInputElement).value = value), first);
  await page.getByLabel('Username or email').fill('e2eother');
  await page.getByLabel('Password or API key').fill('e2e-other-user-key-9876543210');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page, first).toHaveURL(`${origin}/~e2eother/`);
  for (const next of others) {
    const res = await page.context().request.post('/signin/submit', {
      form: { username: 'e2eother', password: 'e2e-other-user-key-9876543210', next },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(res.status(), next).toBe(303);
    expect(new URL(res.headers().location, origin).href, next).toBe(`${origin}/~e2eother/`);
  }
  expect(left).toEqual([]);
});

for (const js of [true, false]) {
  test(`a refused sign-up keeps what was typed but the passwords and shows the error at its field${js ? '' : ' @no-js'}`, async ({ page }) => {
    // The a11y suite's invitation: a refused sign-up does not use it.
    await page.goto(invitationLinks()[2]);
    await page.getByLabel('Username').fill('E2E');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/error=username-taken/);
    const username = page.getByLabel('Username');
    await expect(username).toHaveValue('E2E');
    await expect(username).toHaveAttribute('aria-invalid', 'true');
    await expect(username).toHaveAccessibleDescription(/That username is taken/);
    await expect(page.locator('#username-error')).toHaveRole('alert');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Password again')).toHaveValue('');
    await expect(page.getByLabel('Password', { exact: true })).not.toHaveAttribute('aria-invalid');

    // The passwords differ: the error is at the second one, the name still there.
    await username.fill(`kept${unique()}`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(`${PASSWORD} but different`);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/error=mismatch/);
    await expect(page.getByLabel('Password again')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Password again')).toHaveAccessibleDescription('The two passwords differ.');
    await expect(username).toHaveValue(/^kept/);
    await expect(username).not.toHaveAttribute('aria-invalid');
    for (const size of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: test.info().outputPath(`signup-error-${size.width}${js ? '' : '-nojs'}.png`), fullPage: true });
    }
  });
}

test('the sign-in page offers "Sign up" only when sign-up is possible (closed here: invitations only)', async ({ page }) => {
  await page.goto('/signin');
  await expect(page.getByRole('link', { name: 'Sign up' })).toHaveCount(0);
  await expect(page.locator('main')).toContainText('Accounts are made by invitation');
});
