// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// PUT /v2/plots/{fid}.
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';
import {
  AUTH_REQUIRED,
  DETAIL_KEYS,
  expectedDetail,
  findListed,
  keysOf,
  mine,
  n,
  scatter,
  SECRET_DETAIL_KEYS,
  setPlot,
  typedF8,
  walk,
  type Grid,
  type Rec,
} from '../support/plots';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PUT /v2/plots/{fid}', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;
  let other: Grid;

  beforeAll(async () => {
    alice = await newUser('put');
    bob = await newUser('putb');
    grid = await uploadGrid(alice, { x: [1, 2], y: [3, 4], z: [5, 6] });
    other = await uploadGrid(alice, { a: [10, 20], b: [30, 40] });
  });

  it('anonymous → 401; a reader of a public plot → 403; another user on a private plot → 404; wrong key → 401', async () => {
    const pub = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    expectError(await call('PUT', `/v2/plots/${pub.fid}`, { body: { title: 'x' } }), 401, AUTH_REQUIRED);
    expectError(await call('PUT', `/v2/plots/${priv.fid}`, { body: { title: 'x' } }), 401, AUTH_REQUIRED);
    expectError(await call('PUT', `/v2/plots/${pub.fid}`, { user: bob, body: { title: 'x' } }), 403);
    const hidden = await call('PUT', `/v2/plots/${priv.fid}`, { user: bob, body: { title: 'x' } });
    expectError(hidden, 404);
    expect(hidden.json).toEqual((await call('PUT', `/v2/plots/${alice.username}:99999`, { user: bob, body: { title: 'x' } })).json);
    expectError(
      await call('PUT', `/v2/plots/${pub.fid}`, {
        headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:badbadbadbadbadbad`).toString('base64')}` },
        body: { title: 'x' },
      }),
      401,
      'Bad API key',
    );
    // Nothing changed.
    expect((await call('GET', `/v2/plots/${pub.fid}`)).json.title).toBe('');
    expect((await call('GET', `/v2/plots/${priv.fid}`, { user: alice })).json.title).toBe('');
  });

  it('owner: 404 for a missing plot', async () => {
    expectError(await call('PUT', `/v2/plots/${alice.username}:99999`, { user: alice, body: { title: 'x' } }), 404);
  });

  it('replaces the given fields; returns the unwrapped detail; date_modified moves, creation_time/fid/views do not', async () => {
    const fig = { data: [scatter(grid)], layout: { title: 'before' } };
    const rec = await createPlot(alice, { figure: fig, filename: 'put me', caption: 'old caption' });
    await setPlot(rec.fid, { views: 7 });
    await sleep(20);
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { filename: 'put renamed', caption: 'new caption' } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.file).toBeUndefined();
    expect(keysOf(res.json)).toEqual(DETAIL_KEYS);
    expect(res.json).toEqual(
      expectedDetail(alice.username, n(rec.fid), {
        filename: 'put renamed',
        caption: 'new caption',
        figure: fig,
        title: 'before',
        views: 7,
        permission: 'write',
      }),
    );
    expect(res.json.fid).toBe(rec.fid);
    expect(res.json.creation_time).toBe(rec.creation_time);
    expect(Date.parse(res.json.date_modified)).toBeGreaterThan(Date.parse(rec.date_modified));
    expect(res.json.views).toBe(7);
    const detail = await call('GET', `/v2/plots/${rec.fid}`, { user: alice });
    expect(detail.json).toEqual(res.json);
  });

  it('a new figure replaces the figure and the content; width/height follow its layout', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { width: 100 } } });
    const fig = { data: [{ type: 'bar', xsrc: other.src('a'), ysrc: other.src('b') }], layout: { width: 500, height: 400 } };
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: fig } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.figure).toEqual(fig);
    expect([res.json.width, res.json.height]).toEqual([500, 400]);
    const content = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
    expect(content.json).toEqual({ data: [{ type: 'bar', x: [10, 20], y: [30, 40] }], layout: { width: 500, height: 400 } });
  });

  it('a new figure with a layout title changes a derived title', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { title: 'L1' } } });
    expect(rec.title).toBe('L1');
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: { data: [scatter(grid)], layout: { title: { text: 'L2' } } } } });
    expect(res.json.title).toBe('L2');
  });

  it('a new figure does not replace a title given explicitly (title is not a given field of the PUT)', async () => {
    const rec = await createPlot(alice, { title: 'Mine', figure: { data: [scatter(grid)], layout: { title: 'L1' } } });
    expect(rec.title).toBe('Mine');
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: { data: [scatter(grid)], layout: { title: 'L2' } } } });
    expect(res.status).toBe(200);
    expect(res.json.title).toBe('Mine');
  });

  it("an explicit title in the PUT wins over the new figure's layout title", async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)], layout: { title: 'L1' } } });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { title: 'T', figure: { data: [scatter(grid)], layout: { title: 'L2' } } } });
    expect(res.json.title).toBe('T');
  });

  const invalidFigures: { name: string; body: () => Rec; needle: string }[] = [
    { name: 'raw y', needle: 'figure.data[0].y', body: () => ({ figure: { data: [{ type: 'scatter', y: [1, 2] }] } }) },
    { name: 'raw marker.color', needle: 'figure.data[0].marker.color', body: () => ({ figure: { data: [scatter(grid, { marker: { color: [1, 2] } })] } }) },
    { name: 'raw in frames', needle: 'figure.frames[0].data[0].y', body: () => ({ figure: { data: [scatter(grid)], frames: [{ data: [{ y: [1] }] }] } }) },
    { name: 'typed array', needle: 'figure.data[0].y', body: () => ({ figure: { data: [{ type: 'scatter', y: typedF8([1]) }] } }) },
    { name: 'figure not an object', needle: 'figure', body: () => ({ figure: 'x' }) },
    { name: 'data not an array', needle: 'figure.data', body: () => ({ figure: { data: {} } }) },
    { name: 'figure without data', needle: 'figure.data', body: () => ({ figure: {} }) },
    { name: 'missing grid', needle: 'figure.data[0].ysrc', body: () => ({ figure: { data: [{ type: 'scatter', ysrc: `${alice.username}:99999:abcdef` }] } }) },
    { name: 'missing column', needle: 'figure.data[0].ysrc', body: () => ({ figure: { data: [{ type: 'scatter', ysrc: `${grid.fid}:zzzzzz` }] } }) },
    { name: '1001 traces', needle: 'figure.data', body: () => ({ figure: { data: Array.from({ length: 1001 }, () => ({})) } }) },
    { name: 'unreadable source_fid', needle: 'source_fid', body: () => ({ source_fid: `${bob.username}:99999` }) },
  ];

  it.each(invalidFigures)('same validation as create: $name → 400 naming $needle, plot unchanged', async ({ body, needle }) => {
    const fig = { data: [scatter(grid)], layout: { title: 'keep' } };
    const rec = await createPlot(alice, { figure: fig });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: body() });
    expectError(res, 400, needle);
    const after = await call('GET', `/v2/plots/${rec.fid}`, { user: alice });
    expect(after.json).toEqual(rec);
    expect((await call('GET', `/v2/plots/${rec.fid}/content`)).json).toEqual(fig);
  });

  it('world_readable false removes it from the list (and anonymous detail); true brings it back', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { world_readable: false } });
    expect(res.status).toBe(200);
    expect(res.json.world_readable).toBe(false);
    expect(mine(await walk('/v2/plots?page_size=100'), alice.username)).not.toContain(rec.fid);
    expect(mine(await walk('/v2/plots?page_size=100', { user: alice }), alice.username)).not.toContain(rec.fid);
    expectError(await call('GET', `/v2/plots/${rec.fid}`), 404);
    expectError(await call('GET', `/v2/plots/${rec.fid}/content`), 404);
    const back = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { world_readable: true } });
    expect(back.json.world_readable).toBe(true);
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
  });

  it('share_key_enabled gives a private plot a share_key that opens it; false takes it away', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    expect(rec.share_key).toBeUndefined();
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { share_key_enabled: true } });
    expect(res.status).toBe(200);
    expect(keysOf(res.json)).toEqual(SECRET_DETAIL_KEYS);
    const key = res.json.share_key as string;
    expect(key.length).toBeGreaterThan(0);
    expect(res.json.share_url).toBe(`${res.json.web_url}?share_key=${key}`);
    expect((await call('GET', `/v2/plots/${rec.fid}?share_key=${encodeURIComponent(key)}`)).status).toBe(200);
    expect((await call('GET', `/v2/plots/${rec.fid}/content?share_key=${encodeURIComponent(key)}`)).status).toBe(200);
    expect(mine(await walk('/v2/plots?page_size=100'), alice.username)).not.toContain(rec.fid);
    const off = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { share_key_enabled: false } });
    expect(off.json.share_key).toBeUndefined();
    expectError(await call('GET', `/v2/plots/${rec.fid}?share_key=${encodeURIComponent(key)}`), 404);
  });

  it('renaming into a clash is 400 "already exists" and leaves the name', async () => {
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'taken name' });
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'free name' });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { filename: 'taken name' } });
    expectError(res, 400, "Sorry, a file named 'taken name' already exists");
    expect((await call('GET', `/v2/plots/${rec.fid}`)).json.filename).toBe('free name');
  });

  it('renaming to its own name is fine', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'same name' });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { filename: 'same name' } });
    expect(res.status).toBe(200);
  });

  it('source_fid can be set and is echoed canonically', async () => {
    const src = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const res = await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { source_fid: src.fid.toUpperCase() } });
    expect(res.json.source_fid).toBe(src.fid);
  });
});
