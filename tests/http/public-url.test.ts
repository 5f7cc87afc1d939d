// Absolute URLs (docs/tls.md): every URL an answer holds is built from the public origin,
// PUBLIC_URL when set (a server of its own here), else the request's origin as a TLS front in front
// of the app reports it in X-Forwarded-Proto / X-Forwarded-Host. plotly.R builds every API URL with
// https, so behind a TLS front the records must say https too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgliteServer } from '../global-setup';
import { basic, callAt, type TestUser } from '../support/api';
import { servers } from '../support/servers';

/** Every string in a JSON value that is an absolute http(s) URL, with where it was found. */
function urlsIn(value: unknown, at = ''): [string, string][] {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? [[at, value]] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => urlsIn(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => urlsIn(v, at ? `${at}.${k}` : k));
  return [];
}

/**
 * Makes a grid, a folder and a secret plot in it as `user` and reads back every answer that holds
 * URLs: records (web_url, api_urls, image_urls, share_url, content_url, the user), a list page with
 * its next link, the API root, the OpenAPI document and the docs page.
 */
async function answersWithUrls(base: string, user: TestUser, headers: Record<string, string>) {
  const call = (method: string, p: string, body?: unknown) => callAt(base, method, p, { user, headers, body });
  const grid = await call('POST', '/v2/grids', {
    data: { cols: { x: { data: [1, 2, 3], order: 0 }, y: { data: [3, 1, 2], order: 1 } } },
  });
  expect(grid.status, grid.text).toBe(201);
  const [x, y] = grid.json.file.cols.map((c: { uid: string }) => `${grid.json.file.fid}:${c.uid}`);
  const folder = await call('POST', '/v2/folders', { path: `urls ${Date.now()}` });
  expect(folder.status, folder.text).toBe(201);
  const figure = { data: [{ type: 'scatter', xsrc: x, ysrc: y }] };
  for (const name of ['one', 'two']) {
    const made = await call('POST', '/v2/plots', { filename: name, figure, world_readable: true });
    expect(made.status, made.text).toBe(200);
  }
  const plot = await call('POST', '/v2/plots', {
    filename: 'secret',
    parent_path: folder.json.file.filename,
    figure,
    world_readable: false,
    share_key_enabled: true,
  });
  expect(plot.status, plot.text).toBe(200);
  const fid = plot.json.file.fid;
  const answers = {
    grid: grid.json,
    folder: folder.json,
    plot: plot.json,
    plotDetail: (await call('GET', `/v2/plots/${fid}`)).json,
    file: (await call('GET', `/v2/files/${grid.json.file.fid}`)).json,
    folderDetail: (await call('GET', `/v2/folders/${folder.json.file.fid}`)).json,
    home: (await call('GET', `/v2/folders/home?user=${user.username}`)).json,
    list: (await call('GET', '/v2/plots?page_size=1')).json,
    user: (await call('GET', '/v2/users/current')).json,
    root: (await call('GET', '/v2/')).json,
    openapi: (await call('GET', '/v2/openapi.json')).json,
  };
  const page = await callAt(base, 'GET', '/docs/api', { headers });
  return { answers, page: page.text };
}

/** Checks every URL found starts with `origin` (and that the important ones were there at all). */
function expectOrigin(found: { answers: Record<string, unknown>; page: string }, origin: string) {
  const urls = urlsIn(found.answers);
  const wrong = urls.filter(([, url]) => !url.startsWith(`${origin}/`) && url !== origin);
  expect(wrong, `URLs not under ${origin}`).toEqual([]);
  const at = new Set(urls.map(([where]) => where));
  for (const where of [
    'grid.file.web_url',
    'grid.file.api_urls.grids',
    'folder.file.api_urls.folders',
    'plot.file.web_url',
    'plot.file.share_url',
    'plot.file.content_url',
    'plot.file.embed_url',
    'plot.file.image_urls.default',
    'plot.file.image_urls.list-thumb',
    'plot.file.api_urls.plots',
    'plot.file.api_urls.files',
    'plot.file.api_urls.parent',
    'plotDetail.user.profile_url',
    'list.next',
    'list.results[0].web_url',
    'user.profile_url',
    'root.plots',
    'root.openapi',
    'openapi.servers[0].url',
  ]) {
    expect(at, where).toContain(where);
  }
  expect((found.answers.openapi as { servers: unknown }).servers).toEqual([{ url: origin }]);
  expect(found.page).toContain(`${origin}/v2/openapi.json`);
}

describe('with PUBLIC_URL set', () => {
  let app: Awaited<ReturnType<typeof startPgliteServer>>;
  let user: TestUser;

  beforeAll(async () => {
    // A trailing slash in the setting is not doubled in the URLs.
    app = await startPgliteServer(1, { PUBLIC_URL: 'https://plots.example.test/', IMAGE_WORKER: 'false' });
    user = { ...app.users[0], auth: basic(app.users[0].username, app.users[0].apiKey) };
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('every URL follows it, whatever the request says', async () => {
    const forwarded = { 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'elsewhere.example.test' };
    expectOrigin(await answersWithUrls(app.url, user, forwarded), 'https://plots.example.test');
  });
});

describe.each(servers())('without PUBLIC_URL, behind a proxy, on $name', (s) => {
  it.each([
    ['a TLS front', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'plots.example.test' }, 'https://plots.example.test'],
    [
      'a port and a chain of proxies (the first entry wins)',
      { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'plots.example.test:8443, inner:3000' },
      'https://plots.example.test:8443',
    ],
    ['an IPv6 host', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': '[2001:db8::1]:8443' }, 'https://[2001:db8::1]:8443'],
    ['only the scheme', { 'X-Forwarded-Proto': 'https' }, (base: string) => base.replace(/^http:/, 'https:')],
  ])('URLs follow %s', async (_, headers, origin) => {
    const user = await s.newUser('url');
    expectOrigin(await answersWithUrls(s.url, user, headers), typeof origin === 'function' ? origin(s.url) : origin);
  });

  it.each([
    ['a host with a path', { 'X-Forwarded-Host': 'evil.example.test/x?' }],
    ['a host with a space', { 'X-Forwarded-Host': 'evil example' }],
    ['a host with credentials', { 'X-Forwarded-Host': 'user@evil.example.test' }],
    ['a scheme other than http(s)', { 'X-Forwarded-Proto': 'javascript' }],
  ])('malformed forwarded values (%s) fall back to the request origin', async (_, headers) => {
    const user = await s.newUser('url');
    expectOrigin(await answersWithUrls(s.url, user, headers), s.url);
  });
});
