// "My files" (`/~e2e/` to e2e) and a plot page's owner forms: every action with JavaScript (project
// js) and without it (project no-js: plain form posts and redirects), checked against the API; a
// forged post changing nothing; other people seeing only the public profile.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_USER, OTHER_USER, basicAuth, createPlot, expect, plotPath, signIn, test, unique, type FileRecord } from './support';

const auth = { Authorization: basicAuth(E2E_USER) };

async function api<T = Record<string, unknown>>(
  request: APIRequestContext,
  method: string,
  path: string,
  data?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await request.fetch(path, { method, headers: auth, data });
  const text = await res.text();
  return { status: res.status(), json: (text ? JSON.parse(text) : {}) as T };
}

/** A folder of e2e's at the top level, so each test works in a place of its own; its number. */
async function newFolder(request: APIRequestContext, name = `ws ${unique()}`): Promise<{ n: number; name: string }> {
  const res = await api<{ file: { fid: string } }>(request, 'POST', '/v2/folders', { path: name });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return { n: Number(res.json.file.fid.split(':')[1]), name };
}

/** A plot of e2e's (via the API), moved into folder `n`. */
async function plotIn(request: APIRequestContext, n: number, visibility: 'public' | 'private' | 'secret' = 'private', filename?: string): Promise<FileRecord> {
  const plot = await createPlot(request, { visibility, filename, title: filename ? undefined : `ws plot ${unique()}` });
  const moved = await api(request, 'PATCH', `/v2/files/${plot.fid}`, { parent: n });
  expect(moved.status, JSON.stringify(moved.json)).toBe(200);
  return plot;
}

const file = (request: APIRequestContext, fid: string) => api<Record<string, unknown> & { errors?: unknown }>(request, 'GET', `/v2/files/${fid}`);
const row = (page: Page, fid: string) => page.locator(`li.file-row[data-fid="${fid}"]`);
const folderUrl = (n: number) => `/~e2e/?folder=${n}`;

/** Submits a form by its button and waits for the page it leads to (a redirect with a notice, or the form's error). */
async function submit(scope: Locator, button: string): Promise<void> {
  await scope.getByRole('button', { name: button, exact: true }).click();
}

async function expectNotice(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.locator('p.notice[role="status"]').first()).toContainText(text);
}

/** Opens a row's "Manage" disclosure (native <details>: no JavaScript needed). */
async function manage(page: Page, fid: string): Promise<Locator> {
  const r = row(page, fid);
  await r.locator('summary').click();
  await expect(r.locator('details.file-manage')).toHaveAttribute('open', '');
  return r;
}

for (const js of [true, false]) {
  const mode = js ? 'with JavaScript' : 'without JavaScript';
  const tag = js ? {} : { tag: '@no-js' };

  test.describe(`workspace ${mode}`, () => {
    test.beforeEach(async ({ page }) => {
      expect(test.info().project.use.javaScriptEnabled, 'the project runs this mode').toBe(js);
      await signIn(page);
    });

    test(`lists every own file (private, secret, folders) with thumbnails, and sharing changes ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const sub = await newFolder(request, `${folder.name}/inner`);
      const priv = await plotIn(request, folder.n, 'private');
      const secret = await plotIn(request, folder.n, 'secret');
      const pub = await plotIn(request, folder.n, 'public');
      await page.goto(folderUrl(folder.n));
      await expect(page.locator('.breadcrumbs')).toContainText(folder.name);
      for (const p of [priv, secret, pub]) await expect(row(page, p.fid)).toHaveCount(1);
      await expect(row(page, `e2e:${sub.n}`)).toHaveAttribute('data-filetype', 'fold');
      // Folders first, then newest first.
      const fids = await page.locator('li.file-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-fid')));
      expect(fids).toEqual([`e2e:${sub.n}`, pub.fid, secret.fid, priv.fid]);
      await expect(row(page, priv.fid).locator('.badge')).toHaveText('Private');
      await expect(row(page, secret.fid).locator('.badge')).toHaveText('Secret link');
      // Thumbnails are the plots' own image URLs.
      const thumb = row(page, pub.fid).locator('.file-thumb img');
      await expect(thumb).toHaveAttribute('src', new RegExp(`^/~e2e/${pub.fid.split(':')[1]}\\.png\\?size=list-thumb&v=`));
      // The secret link is shown to copy, and it is the API's.
      const link = row(page, secret.fid).locator('.copy-field input');
      await expect(link).toHaveValue(new RegExp(`/~e2e/${secret.fid.split(':')[1]}/\\?share_key=${secret.share_key}$`));

      // Private -> secret: the link appears; the API agrees.
      let r = await manage(page, priv.fid);
      await r.locator('input[name="sharing"][value="secret"]').check();
      await submit(r, 'Save sharing');
      await expectNotice(page, 'Sharing changed.');
      let rec = (await file(request, priv.fid)).json;
      expect(rec.world_readable).toBe(false);
      expect(rec.share_key).toEqual(expect.any(String));
      await expect(row(page, priv.fid).locator('.copy-field input')).toHaveValue(new RegExp(`share_key=${rec.share_key}$`));
      // -> public.
      r = await manage(page, priv.fid);
      await r.locator('input[name="sharing"][value="public"]').check();
      await submit(r, 'Save sharing');
      await expectNotice(page, 'Sharing changed.');
      await expect(row(page, priv.fid).locator('.badge')).toHaveText('Public');
      rec = (await file(request, priv.fid)).json;
      expect([rec.world_readable, rec.share_key_enabled]).toEqual([true, false]);
      // -> private again.
      r = await manage(page, priv.fid);
      await r.locator('input[name="sharing"][value="private"]').check();
      await submit(r, 'Save sharing');
      await expectNotice(page, 'Sharing changed.');
      await expect(row(page, priv.fid).locator('.badge')).toHaveText('Private');
      rec = (await file(request, priv.fid)).json;
      expect([rec.world_readable, rec.share_key_enabled]).toEqual([false, false]);
    });

    test(`rename, with the API's refusal of a taken name ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const a = await plotIn(request, folder.n, 'private', `alpha ${unique()}`);
      const b = await plotIn(request, folder.n, 'public', `beta ${unique()}`);
      await page.goto(folderUrl(folder.n));
      let r = await manage(page, a.fid);
      await r.locator('input[name="filename"]').fill(b.filename);
      await submit(r, 'Rename');
      // The API's own words, and nothing changed.
      // (Shown, not only there: a refused form's disclosure is open, also after a post without JavaScript.)
      await expect(row(page, a.fid).locator('.form-error')).toBeVisible();
      await expect(row(page, a.fid).locator('.form-error')).toHaveText(`Sorry, a file named '${b.filename}' already exists.`);
      expect((await file(request, a.fid)).json.filename).toBe(a.filename);
      if (js) {
        // Changing the field: the refusal no longer describes it, so it goes.
        await row(page, a.fid).locator('input[name="filename"]').fill(`${b.filename} 2`);
        await expect(row(page, a.fid).locator('.form-error')).toHaveCount(0);
      }

      // From a view of one kind in one order: the page after the form is that view still.
      await page.goto(`${folderUrl(folder.n)}&type=plot&sort=name`);
      r = await manage(page, a.fid);
      const fresh = `renamed ${unique()}`;
      await r.locator('input[name="filename"]').fill(fresh);
      await submit(r, 'Rename');
      await expectNotice(page, 'Renamed.');
      await expect(page).toHaveURL(new RegExp(`\\?folder=${folder.n}&type=plot&sort=name&notice=renamed$`));
      await expect(page.getByLabel('Show')).toHaveValue('plot');
      await expect(page.getByLabel('Sort by')).toHaveValue('name');
      // The new name is the row's name, where the eye looks.
      await expect(row(page, a.fid).locator('h3.file-name')).toHaveText(fresh);
      expect((await file(request, a.fid)).json.filename).toBe(fresh);
      if (js) {
        // The notice said what the last action did: it goes when the next action starts.
        r = await manage(page, b.fid);
        await r.locator('input[name="filename"]').fill(fresh);
        await submit(r, 'Rename');
        await expect(row(page, b.fid).locator('.form-error')).toBeVisible();
        await expect(page.getByText('Renamed.')).toHaveCount(0);
      }
      await expect(row(page, a.fid).locator('h3')).toHaveText(fresh);
    });

    test(`create a folder, move files into it and browse it, and a folder never into itself ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const plot = await plotIn(request, folder.n, 'private');
      await page.goto(folderUrl(folder.n));
      const name = `made ${unique()}`;
      await page.locator('form.new-folder input[name="name"]').fill(name);
      await submit(page.locator('form.new-folder'), 'Create folder');
      await expectNotice(page, 'Folder created.');
      const made = page.locator('li.file-row[data-filetype="fold"]', { hasText: name });
      await expect(made).toHaveCount(1);
      const madeFid = (await made.getAttribute('data-fid'))!;
      const looked = await api<{ fid: string; parent: number }>(request, 'GET', `/v2/folders/lookup?path=${encodeURIComponent(`${folder.name}/${name}`)}`);
      expect(looked.json.fid).toBe(madeFid);

      // Move the plot into it.
      const r = await manage(page, plot.fid);
      await r.locator('select[name="parent"]').selectOption({ label: `${folder.name} / ${name}` });
      await submit(r, 'Move');
      await expectNotice(page, 'Moved.');
      await expect(row(page, plot.fid)).toHaveCount(0);
      expect((await file(request, plot.fid)).json.parent).toBe(Number(madeFid.split(':')[1]));
      // Browse into it: the plot is there, with breadcrumbs back.
      await row(page, madeFid).locator('h3 a').click();
      await expect(page).toHaveURL(new RegExp(`folder=${madeFid.split(':')[1]}`));
      await expect(row(page, plot.fid)).toHaveCount(1);
      const crumbs = page.locator('.breadcrumbs');
      await expect(crumbs.locator('[aria-current="page"]')).toHaveText(name);
      await crumbs.getByRole('link', { name: folder.name }).click();
      await expect(page).toHaveURL(new RegExp(`folder=${folder.n}$`));

      // A folder into a folder inside it: the API's refusal, shown; nothing moves.
      const outer = await newFolder(request, `${folder.name}/outer`);
      const inner = await newFolder(request, `${folder.name}/outer/inner`);
      await page.goto(folderUrl(folder.n));
      const r2 = await manage(page, `e2e:${outer.n}`);
      await r2.locator('select[name="parent"]').selectOption({ label: `${folder.name} / outer / inner` });
      await submit(r2, 'Move');
      await expect(row(page, `e2e:${outer.n}`).locator('.form-error')).toBeVisible();
      await expect(row(page, `e2e:${outer.n}`).locator('.form-error')).toHaveText('A folder cannot move into itself or into a folder inside it.');
      expect((await file(request, `e2e:${outer.n}`)).json.parent).toBe(folder.n);
      expect((await file(request, `e2e:${inner.n}`)).json.parent).toBe(outer.n);
    });

    test(`trash, restore, and delete for good after confirming ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const plot = await plotIn(request, folder.n, 'secret');
      await page.goto(folderUrl(folder.n));
      const r = await manage(page, plot.fid);
      await submit(r, 'Move to trash');
      await expectNotice(page, 'Moved to the trash.');
      await expect(row(page, plot.fid)).toHaveCount(0);
      expect((await file(request, plot.fid)).status).toBe(404);

      await page.getByRole('navigation', { name: 'Workspace views' }).getByRole('link', { name: 'Trash' }).click();
      await expect(page).toHaveURL(/view=trash/);
      await expect(row(page, plot.fid)).toHaveCount(1);
      await submit(row(page, plot.fid), 'Restore');
      await expectNotice(page, 'Restored.');
      await expect(row(page, plot.fid)).toHaveCount(0);
      expect((await file(request, plot.fid)).json.parent).toBe(folder.n);

      // Trash it again (API), then delete for good: first without ticking the box.
      expect((await api(request, 'POST', `/v2/files/${plot.fid}/trash`)).status).toBe(200);
      await page.goto('/~e2e/?view=trash');
      await submit(row(page, plot.fid), 'Delete for good');
      await expect(row(page, plot.fid).locator('.form-error')).toContainText('to confirm');
      await page.goto('/~e2e/?view=trash');
      await expect(row(page, plot.fid)).toHaveCount(1);
      await row(page, plot.fid).getByLabel('Yes, delete it for good').check();
      await submit(row(page, plot.fid), 'Delete for good');
      await expectNotice(page, 'Deleted for good.');
      await expect(row(page, plot.fid)).toHaveCount(0);
      // Gone for good: not even restorable.
      expect((await api(request, 'POST', `/v2/files/${plot.fid}/restore`)).status).toBe(404);
    });

    test(`plot page: edit title and caption, sharing, trash ${mode}`, tag, async ({ page, request }) => {
      const folder = await newFolder(request);
      const plot = await plotIn(request, folder.n, 'private');
      await page.goto(plotPath(plot.fid));
      const panel = page.locator('section.owner-actions');
      const title = `Edited ${unique()}`;
      await panel.getByLabel('Title').fill(title);
      await panel.getByLabel('Caption').fill('A caption written on the page');
      await submit(panel, 'Save title and caption');
      await expectNotice(page, 'Saved.');
      await expect(page.locator('h1')).toHaveText(title);
      await expect(page.locator('.file-caption')).toHaveText('A caption written on the page');
      let rec = (await file(request, plot.fid)).json;
      expect([rec.title, rec.caption]).toEqual([title, 'A caption written on the page']);
      // One title: the chart draws the title the page shows.
      expect((rec.figure as { layout: { title: { text: string } } }).layout.title.text).toBe(title);

      await panel.locator('input[name="sharing"][value="secret"]').check();
      await submit(panel, 'Save sharing');
      await expectNotice(page, 'Sharing changed.');
      rec = (await file(request, plot.fid)).json;
      expect(rec.share_key).toEqual(expect.any(String));
      await expect(page.locator('#share-url')).toHaveValue(new RegExp(`share_key=${rec.share_key}$`));
      await expect(page.locator('.file-title .badge')).toHaveAttribute('data-visibility', 'secret');

      await submit(panel, 'Move to trash');
      await expect(page).toHaveURL(/\/~e2e\/\?notice=trashed(&|$)/);
      await expectNotice(page, 'Moved to the trash.');
      expect((await file(request, plot.fid)).status).toBe(404);
    });
  });
}

test("a forged post (wrong anti-forgery token) changes nothing, nor does another user's own; the genuine post does", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  await signIn(page);
  const folder = await newFolder(request);
  const plot = await plotIn(request, folder.n, 'private');
  await page.goto(folderUrl(folder.n));
  const form = row(page, plot.fid).locator('form:has(input[name="sharing"])');
  await row(page, plot.fid).locator('summary').click();
  await form.locator('input[name="sharing"][value="public"]').check();
  // The form as the browser would send it without JavaScript (Next's action fields included).
  const fields: [string, string][] = await form.evaluate((f) => [...new FormData(f as HTMLFormElement)].map(([k, v]) => [k, String(v)]));
  expect(fields.find(([k]) => k === 'csrf')?.[1]).toBeTruthy();
  const post = (csrf: string, as: Page = page) => {
    const body = new FormData();
    for (const [k, v] of fields) body.append(k, k === 'csrf' ? csrf : v);
    return as.request.fetch(folderUrl(folder.n), { method: 'POST', multipart: body, headers: { Origin: baseURL! }, maxRedirects: 0 });
  };
  const forged = await post('forged-token');
  expect(forged.status()).toBe(200);
  expect(await forged.text()).toContain('This form has expired or came from another site');
  expect((await file(request, plot.fid)).json.world_readable).toBe(false);
  // Signed in as someone else, with their own valid token: the API's answer for a file one cannot read.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, OTHER_USER);
  await otherPage.goto('/~e2eother/');
  const otherToken = await otherPage.locator('input[name="csrf"]').first().getAttribute('value');
  expect(otherToken).toBeTruthy();
  const theirs = await post(otherToken!, otherPage);
  expect(theirs.status()).toBe(200);
  // (The action's answer travels in the page's serialized form state: that user's page has no such form.)
  expect(await theirs.text()).toContain('{"error":"Not found."}');
  expect((await file(request, plot.fid)).json.world_readable).toBe(false);
  await other.close();
  // And the genuine post does what the form says.
  const genuine = await post(fields.find(([k]) => k === 'csrf')![1]);
  expect(genuine.status()).toBe(303);
  expect((await file(request, plot.fid)).json.world_readable).toBe(true);
});

test("another user sees only the public profile at the owner's workspace URL, and no private or secret file", async ({ page, request }) => {
  const folder = await newFolder(request);
  const priv = await plotIn(request, folder.n, 'private', `hidden private ${unique()}`);
  const secret = await plotIn(request, folder.n, 'secret', `hidden secret ${unique()}`);
  const pub = await createPlot(request, { visibility: 'public' });
  for (const who of ['anonymous', 'e2eother'] as const) {
    if (who === 'e2eother') await signIn(page, OTHER_USER);
    for (const path of ['/~e2e/', folderUrl(folder.n), '/~e2e/?view=trash']) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      const html = await page.content();
      await expect(page.locator('section.workspace')).toHaveCount(0);
      await expect(page.locator('form')).toHaveCount(who === 'anonymous' ? 0 : 1); // only the header's sign-out
      for (const hidden of [priv, secret]) {
        expect(html, `${path} as ${who}`).not.toContain(hidden.fid);
        expect(html, `${path} as ${who}`).not.toContain(hidden.filename);
      }
      expect(html).not.toContain(secret.share_key!);
      expect(html).not.toContain(folder.name);
    }
    await page.goto('/~e2e/');
    await expect(page.locator(`article.plot-card[data-fid="${pub.fid}"]`)).toHaveCount(1);
  }
});
