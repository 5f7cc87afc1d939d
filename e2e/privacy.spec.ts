// Who sees what: private plots, secret (share key) plots, and the one friendly 404 page for missing,
// deleted and private-to-others plots.
import { E2E_USER, OTHER_USER, createPlot, embedPath, expect, expectChartDrawn, pathOf, signIn, signOut, test, trashPlot } from './support';
import type { Page } from '@playwright/test';

async function expectNotFound(page: Page, path: string): Promise<{ title: string; main: string }> {
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers 404`).toBe(404);
  await expect(page.locator('h1')).toHaveText('Not found');
  return { title: await page.title(), main: (await page.locator('main').innerText()).trim() };
}

test('a private plot is a 404 for an anonymous browser and visible after signing in', async ({ page, request }) => {
  const title = `Private e2e ${Date.now()}`;
  const plot = await createPlot(request, { title, visibility: 'private' });
  const path = pathOf(plot.web_url);

  await expectNotFound(page, path);
  await expectNotFound(page, embedPath(plot.fid));
  // Not listed either.
  await page.goto('/~e2e/');
  await expect(page.locator(`article.plot-card[data-fid="${plot.fid}"]`)).toHaveCount(0);

  await signIn(page);
  const res = await page.goto(path);
  expect(res?.status()).toBe(200);
  await expect(page.locator('h1')).toHaveText(title);
  await expect(page.locator('.badge[data-visibility="private"]')).toBeVisible();
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));
  await page.goto(embedPath(plot.fid));
  await expectChartDrawn(page.locator('.plot-figure'));
  // The owner's profile, their workspace, lists it.
  await page.goto('/~e2e/');
  await expect(page.locator(`li.file-row[data-fid="${plot.fid}"]`)).toHaveCount(1);

  await page.goto(path);
  await signOut(page);
  await expectNotFound(page, path);
});

test('a secret plot is visible only with its share key', async ({ page, request }) => {
  const title = `Secret e2e ${Date.now()}`;
  const plot = await createPlot(request, { title, visibility: 'secret' });
  expect(plot.share_key, 'the API returns the share key to its owner').toBeTruthy();
  const path = pathOf(plot.web_url);

  await expectNotFound(page, path);
  await expectNotFound(page, `${path}?share_key=not-the-key-${plot.share_key}`);

  const res = await page.goto(`${path}?share_key=${plot.share_key}`);
  expect(res?.status()).toBe(200);
  await expect(page.locator('h1')).toHaveText(title);
  await expect(page.locator('.badge[data-visibility="secret"]')).toBeVisible();
  await expectChartDrawn(page.locator('section.plot-chart .plot-figure'));

  await expectNotFound(page, embedPath(plot.fid));
  await page.goto(`${embedPath(plot.fid)}?share_key=${plot.share_key}`);
  await expectChartDrawn(page.locator('.plot-figure'));
});

test('missing, deleted and private-to-others plots all show the same 404 page', async ({ page, request }) => {
  const deleted = await createPlot(request, { title: `Deleted e2e ${Date.now()}` });
  await page.goto(pathOf(deleted.web_url));
  await expect(page.locator('h1')).toHaveText(deleted.title!);
  await trashPlot(request, deleted.fid);
  const privateOne = await createPlot(request, { title: `Not yours ${Date.now()}`, visibility: 'private' });

  const missing = await expectNotFound(page, '/~e2e/999999/');
  const missingUser = await expectNotFound(page, '/~nobody-e2e-missing/1/');
  const gone = await expectNotFound(page, pathOf(deleted.web_url));
  const anonymous = await expectNotFound(page, pathOf(privateOne.web_url));
  // Signed in as someone else, it is still not there.
  await signIn(page, OTHER_USER);
  const others = await expectNotFound(page, pathOf(privateOne.web_url));
  await expectNotFound(page, embedPath(privateOne.fid));

  for (const [what, seen] of Object.entries({ missingUser, gone, anonymous })) {
    expect(seen, `${what} looks like a missing plot`).toEqual(missing);
  }
  // (Signed in, the header differs; the page itself does not.)
  expect(others.main).toEqual(missing.main);
  expect(others.title).toEqual(missing.title);
  expect(missing.main).not.toContain(privateOne.title!);
});

test('signing in goes back only to a path on this site, however `next` is spelled', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const cases: { next: string; to: RegExp }[] = [
    { next: '/\t/evil.example/phish', to: /\/~e2e\/$/ },
    { next: '/\\evil.example', to: /\/~e2e\/$/ },
    { next: '//evil.example/', to: /\/~e2e\/$/ },
    { next: 'https://evil.example/', to: /\/~e2e\/$/ },
    { next: '/feed\r\nSet-Cookie: x=1', to: /\/feed/ },
    { next: '/feed?order_by=-views', to: /\/feed\?order_by=-views$/ },
  ];
  // The form each link brings, sent as the page sends it: where the sign-in goes is its redirect.
  for (const { next, to } of cases) {
    await page.context().clearCookies();
    const res = await page.goto(`/signin?next=${encodeURIComponent(next)}`);
    expect(res?.status()).toBe(200);
    const sent = await page.request.post('/signin/submit', {
      form: { username: E2E_USER.username, password: E2E_USER.apiKey, next: await page.locator('input[name="next"]').inputValue() },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(sent.status(), `next=${JSON.stringify(next)}`).toBe(303);
    const landed = new URL(sent.headers().location, origin);
    expect(landed.host, `next=${JSON.stringify(next)} stays on the site`).not.toContain('evil');
    expect(landed.href, `next=${JSON.stringify(next)}`).toMatch(to);
  }
  // And once through the page itself, to the page it lands on, signed in.
  await page.context().clearCookies();
  await page.goto(`/signin?next=${encodeURIComponent('/feed?order_by=-views')}`);
  await page.locator('input[name="username"]').fill(E2E_USER.username);
  await page.locator('input[name="password"]').fill(E2E_USER.apiKey);
  await page.locator('form:has(input[name="password"])').locator('button[type="submit"]').first().click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(page.url()).toMatch(/\/feed\?order_by=-views$/);
});

test("a plot's history is its owner's alone: a 404 for anyone else, with the plot's share key too", async ({ page, request }) => {
  // Two history pages for each of several callers, signing in and out between them.
  test.slow();
  const plot = await createPlot(request, { title: `History e2e ${Date.now()}`, visibility: 'secret' });
  const path = pathOf(plot.web_url);
  for (const at of [`${path}history`, `${path}history/1`, `${path}history?share_key=${plot.share_key}`]) await expectNotFound(page, at);
  await signIn(page, OTHER_USER);
  for (const at of [`${path}history`, `${path}history/1`]) await expectNotFound(page, at);
  await signOut(page);
  await signIn(page);
  expect((await page.goto(`${path}history`))?.status()).toBe(200);
  expect((await page.goto(`${path}history/1`))?.status()).toBe(200);
  await expectNotFound(page, `${path}history/2`);
});
