// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// Plot trash, restore and permanent_delete.
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';
import { AUTH_REQUIRED, fileIdOf, findListed, mine, n, scatter, setPlot, status, walk, type Grid } from '../support/plots';

describe('trash, restore and permanent_delete', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  beforeAll(async () => {
    alice = await newUser('trash');
    bob = await newUser('trashb');
    grid = await uploadGrid(alice, { x: [1], y: [2] });
  });

  it('trash → 200; gone from detail, content, list and web page; restore → 200 and back everywhere', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'to trash' });
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
    const trash = await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice });
    expect(trash.status).toBe(200);
    expect(trash.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    for (const who of [null, alice, bob]) {
      expectError(await call('GET', `/v2/plots/${rec.fid}`, { user: who }), 404);
      expectError(await call('GET', `/v2/plots/${rec.fid}/content`, { user: who }), 404);
    }
    expect(mine(await walk('/v2/plots?page_size=100', { user: alice }), alice.username)).not.toContain(rec.fid);
    expect(await status(rec.web_url)).toBe(404);
    expectError(await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { title: 'x' } }), 404);
    expectError(await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice }), 404);

    const restore = await call('POST', `/v2/plots/${rec.fid}/restore`, { user: alice });
    expect(restore.status).toBe(200);
    const back = await call('GET', `/v2/plots/${rec.fid}`);
    expect(back.status).toBe(200);
    expect(back.json.fid).toBe(rec.fid);
    expect(back.json.filename).toBe('to trash');
    expect(back.json.figure).toEqual(rec.figure);
    expect(back.json.creation_time).toBe(rec.creation_time);
    expect(await findListed('/v2/plots?page_size=100', rec.fid)).toBeDefined();
    expect(await status(rec.web_url)).toBe(200);
  });

  it('a trashed handpicked plot leaves the feed; restored it returns', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    await setPlot(rec.fid, { handpicked: true });
    expect((await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid)).toContain(rec.fid);
    expect((await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice })).status).toBe(200);
    expect((await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid)).not.toContain(rec.fid);
    expect((await call('POST', `/v2/plots/${rec.fid}/restore`, { user: alice })).status).toBe(200);
    expect((await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid)).toContain(rec.fid);
  });

  it('restore into a name taken meanwhile → 400 "already exists", stays trashed', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'clash later' });
    expect((await call('POST', `/v2/plots/${rec.fid}/trash`, { user: alice })).status).toBe(200);
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'clash later' });
    expectError(await call('POST', `/v2/plots/${rec.fid}/restore`, { user: alice }), 400, 'already exists');
    expectError(await call('GET', `/v2/plots/${rec.fid}`, { user: alice }), 404);
  });

  it('permanent_delete → 204 with no body; 404 afterwards everywhere; its number is never reused', async () => {
    const carol = await newUser('perm');
    const g = await uploadGrid(carol, { x: [1], y: [2] });
    const a = await createPlot(carol, { figure: { data: [scatter(g)] } });
    const b = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(b.fid).toBe(`${carol.username}:3`);
    const del = await call('DELETE', `/v2/plots/${b.fid}/permanent_delete`, { user: carol });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const who of [null, carol]) {
      expectError(await call('GET', `/v2/plots/${b.fid}`, { user: who }), 404);
      expectError(await call('GET', `/v2/plots/${b.fid}/content`, { user: who }), 404);
    }
    expectError(await call('POST', `/v2/plots/${b.fid}/restore`, { user: carol }), 404);
    expectError(await call('DELETE', `/v2/plots/${b.fid}/permanent_delete`, { user: carol }), 404);
    expect(await status(b.web_url)).toBe(404);
    const c = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(c.fid).toBe(`${carol.username}:4`);
    expect(n(c.fid)).toBeGreaterThan(n(b.fid));
    expect((await call('GET', `/v2/plots/${a.fid}`)).status).toBe(200);
    expect((await call('GET', `/v2/plots/${b.fid}`)).status).toBe(404);
  });

  it('permanent_delete of a trashed plot → 204; the number stays retired', async () => {
    const dave = await newUser('permt');
    const p1 = await createPlot(dave, { figure: { data: [] } });
    expect((await call('POST', `/v2/plots/${p1.fid}/trash`, { user: dave })).status).toBe(200);
    expect((await call('DELETE', `/v2/plots/${p1.fid}/permanent_delete`, { user: dave })).status).toBe(204);
    expectError(await call('POST', `/v2/plots/${p1.fid}/restore`, { user: dave }), 404);
    const p2 = await createPlot(dave, { figure: { data: [] } });
    expect(p2.fid).toBe(`${dave.username}:2`);
  });

  const actions: { name: string; method: string; suffix: string; trashedFirst: boolean }[] = [
    { name: 'trash', method: 'POST', suffix: 'trash', trashedFirst: false },
    { name: 'permanent_delete', method: 'DELETE', suffix: 'permanent_delete', trashedFirst: false },
    { name: 'restore', method: 'POST', suffix: 'restore', trashedFirst: true },
  ];

  it.each(actions)('$name: anonymous → 401, other user on a private plot → 404; the plot is untouched', async ({ method, suffix, trashedFirst }) => {
    const priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    if (trashedFirst) expect((await call('POST', `/v2/plots/${priv.fid}/trash`, { user: alice })).status).toBe(200);
    expectError(await call(method, `/v2/plots/${priv.fid}/${suffix}`), 401, AUTH_REQUIRED);
    const hidden = await call(method, `/v2/plots/${priv.fid}/${suffix}`, { user: bob });
    expectError(hidden, 404);
    expectError(await call(method, `/v2/plots/${alice.username}:99999/${suffix}`, { user: bob }), 404);
    const state = await call('GET', `/v2/plots/${priv.fid}`, { user: alice });
    expect(state.status).toBe(trashedFirst ? 404 : 200);
    expect(await fileIdOf(priv.fid)).toBeGreaterThan(0);
    if (trashedFirst) {
      expect((await call('POST', `/v2/plots/${priv.fid}/restore`, { user: alice })).status).toBe(200);
      expect((await call('GET', `/v2/plots/${priv.fid}`, { user: alice })).status).toBe(200);
    }
  });

  it.each(actions.filter((a) => !a.trashedFirst))('$name: a reader of a public plot → 403; the plot is untouched', async ({ method, suffix }) => {
    const pub = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expectError(await call(method, `/v2/plots/${pub.fid}/${suffix}`, { user: bob }), 403);
    expect((await call('GET', `/v2/plots/${pub.fid}`)).status).toBe(200);
  });

  it.each([
    ['GET', 'trash'],
    ['DELETE', 'trash'],
    ['GET', 'restore'],
    ['POST', 'permanent_delete'],
    ['GET', 'permanent_delete'],
  ])('%s on .../%s → 405 with Allow', async (method, suffix) => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    const res = await call(method, `/v2/plots/${rec.fid}/${suffix}`, { user: alice });
    expectError(res, 405);
    expect(res.headers.get('allow')).toBeTruthy();
    expect((await call('GET', `/v2/plots/${rec.fid}`)).status).toBe(200);
  });
});
