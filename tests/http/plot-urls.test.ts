// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// Every URL a plot record emits.
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';
import { pathOf, scatter, status, type Rec } from '../support/plots';

describe('every URL a plot record emits answers 200', () => {
  let alice: TestUser;
  let pub: Rec;
  let foldered: Rec;
  let secret: Rec;

  beforeAll(async () => {
    alice = await newUser('urls');
    const grid = await uploadGrid(alice, { x: [1, 2], y: [3, 4] });
    pub = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, filename: 'urls public' });
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'dir/sub' } });
    expect(folder.status).toBe(201);
    foldered = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, filename: 'urls foldered', parent_path: 'dir/sub' });
    secret = await createPlot(alice, {
      figure: { data: [scatter(grid)], layout: {} },
      filename: 'urls secret',
      world_readable: false,
      share_key_enabled: true,
    });
  });

  const fields: [string, (r: Rec) => string][] = [
    ['web_url', (r) => r.web_url],
    ['web_url without its trailing slash', (r) => r.web_url.slice(0, -1)],
    ['embed_url', (r) => r.embed_url],
    ['img_url', (r) => r.img_url],
    ['image_urls.default', (r) => r.image_urls.default],
    ['image_urls.block-thumb', (r) => r.image_urls['block-thumb']],
    ['image_urls.list-thumb', (r) => r.image_urls['list-thumb']],
    ['api_urls.files', (r) => r.api_urls.files],
    ['api_urls.plots', (r) => r.api_urls.plots],
    ['api_urls.parent', (r) => r.api_urls.parent],
    ['organize_view_url', (r) => r.organize_view_url],
    ['user.profile_url', (r) => r.user.profile_url],
    ['user.avatar_url', (r) => r.user.avatar_url],
    ['user.background_url', (r) => r.user.background_url],
    ['content_url', (r) => r.content_url],
    ['share_url', (r) => r.share_url],
  ];

  it.each(fields)('public plot: %s answers 200 anonymously', async (_name, pick) => {
    const detail = (await call('GET', `/v2/plots/${pub.fid}`)).json;
    expect(await status(pick(detail))).toBe(200);
  });

  it.each(fields)('plot in a folder: %s answers 200 anonymously', async (_name, pick) => {
    const detail = (await call('GET', `/v2/plots/${foldered.fid}`)).json;
    expect(await status(pick(detail))).toBe(200);
  });

  it('the plot in a folder names the folder as parent, and api_urls.parent is that folder', async () => {
    const detail = (await call('GET', `/v2/plots/${foldered.fid}`)).json;
    expect(detail.parented).toBe(true);
    const folder = await call('GET', pathOf(detail.api_urls.parent));
    expect(folder.status).toBe(200);
    expect(folder.json.fid).toBe(`${alice.username}:${detail.parent}`);
    expect(folder.json.filename).toBe('sub');
  });

  it('api_urls.files and api_urls.plots describe the same plot', async () => {
    const detail = (await call('GET', `/v2/plots/${pub.fid}`)).json;
    const viaFiles = await call('GET', pathOf(detail.api_urls.files));
    expect(viaFiles.json.fid).toBe(pub.fid);
    expect(viaFiles.json.filetype).toBe('plot');
    const viaPlots = await call('GET', pathOf(detail.api_urls.plots));
    expect(viaPlots.json).toEqual(detail);
  });

  it('secret plot: the client-built secret link web_url[:-1] + "?share_key=" + key answers 200 anonymously', async () => {
    const key = secret.share_key as string;
    expect(await status(`${secret.web_url.slice(0, -1)}?share_key=${key}`)).toBe(200);
    expect(await status(secret.share_url)).toBe(200);
    expect(await status(`${secret.content_url}?share_key=${key}`)).toBe(200);
    expect(await status(`${secret.image_urls.default}?share_key=${key}`)).toBe(200);
    expect(await status(`${secret.embed_url}?share_key=${key}`)).toBe(200);
  });

  it('secret plot: without the key (or with a wrong one) its pages are the 404 of a missing file', async () => {
    const missingWeb = `${baseUrl()}/~${alice.username}/99999/`;
    expect(await status(missingWeb)).toBe(404);
    expect(await status(secret.web_url)).toBe(404);
    expect(await status(`${secret.web_url.slice(0, -1)}?share_key=wrong`)).toBe(404);
    expect(await status(secret.content_url)).toBe(404);
  });
});
