// Accounts in the browser, with and without JavaScript: sign up by invitation, settings (profile,
// password, a new API key shown once with the clients' lines), password sign-in, and the throttling
// of wrong passwords. Each project uses its own invitation (e2e/server.sh made them).
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

    // A new API key: shown once with the clients' lines for this server; this browser stays signed in.
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Make a new API key' }).click();
    const keyField = page.getByRole('textbox', { name: 'Your new API key' });
    await expect(keyField).toBeVisible();
    const apiKey = await keyField.inputValue();
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const origin = new URL(baseURL!).origin;
    await expect(page.locator('pre').first()).toContainText(`tls.set_credentials_file(username="${username}", api_key="${apiKey}")`);
    await expect(page.locator('pre').first()).toContainText(`tls.set_config_file(plotly_domain="${origin}", plotly_api_domain="${origin}")`);
    await expect(page.locator('pre').nth(1)).toContainText(`"plotly_api_key" = "${apiKey}"`);
    if (js) await expect(page.getByRole('button', { name: 'Copy your new api key' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(username);
    const me = await request.get('/v2/users/current', { headers: { Authorization: basicAuth({ username, apiKey }) } });
    expect(me.status()).toBe(200);
    expect((await me.json()).has_password).toBe(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your new API key' })).toHaveCount(0);

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
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password or API key').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('banner')).toContainText(username);
  });
}

test('wrong passwords are throttled: after ten, a 429 page says when to try again', async ({ page }) => {
  const tryOnce = async (password: string) => {
    await page.goto('/signin');
    await page.getByLabel('Username or email').fill('throttle@e2e.example');
    await page.getByLabel('Password or API key').fill(password);
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/signin/submit')), page.getByRole('button', { name: 'Sign in' }).click()]);
    return response;
  };
  for (let i = 0; i < 10; i++) expect((await tryOnce(`wrong password ${i}`)).status()).toBe(303);
  const throttled = await tryOnce('e2e-throttled-password');
  expect(throttled.status()).toBe(429);
  expect(Number(await throttled.headerValue('retry-after'))).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Too many attempts' })).toBeVisible();
  await expect(page.locator('main')).toContainText(/Try again in \d+ (seconds?|minutes?|hours?|days?) \(at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)/);
  await expect(page.getByRole('banner')).toHaveCount(0);
});
