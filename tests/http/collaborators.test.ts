// Collaborators (docs/api.md "Collaborators") over HTTP, on PostgreSQL and on PGlite: every verb,
// what readers and writers may do through the API and the pages, a folder's share, removal taking
// effect at once, and the bad inputs, each a clear 4xx that changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { AUTH_REQUIRED } from '../support/plots';
import { servers } from '../support/servers';

type Rec = Record<string, any>;

describe.each(servers())('collaborators, on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let eve: TestUser;

  const collaborators = (fid: string) => `/v2/files/${fid}/collaborators`;
  const share = async (fid: string, who: TestUser, permission: 'read' | 'write') => {
    const res = await s.call('POST', collaborators(fid), { user: alice, body: { username: who.username, permission } });
    expect([200, 201], res.text).toContain(res.status);
    return res;
  };
  const pagePath = (fid: string) => `/~${fid.replace(':', '/')}/`;
  const privatePlot = async () => {
    const grid = await s.uploadGrid(alice, { x: [1, 2, 3], y: [40, 50, 60] }, { world_readable: false });
    const plot = await s.createPlot(alice, {
      figure: { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc: grid.src('y') }], layout: { title: { text: 'Team only' } } },
      world_readable: false,
    });
    return { grid, plot: plot as Rec };
  };
  const listed = async (fid: string, user: TestUser = alice) => {
    const res = await s.call('GET', collaborators(fid), { user });
    expect(res.status, res.text).toBe(200);
    return res.json as { results: Rec[]; count: number };
  };

  beforeAll(async () => {
    alice = await s.newUser('col');
    bob = await s.newUser('colb');
    carol = await s.newUser('colc');
    eve = await s.newUser('cole');
  });

  it('POST shares (201, the entry), again changes the permission (200), PATCH changes it, GET lists, DELETE unshares (204)', async () => {
    const { plot } = await privatePlot();
    const first = await share(plot.fid, bob, 'read');
    expect(first.status).toBe(201);
    expect(Object.keys(first.json).sort()).toEqual(['date_added', 'permission', 'username']);
    expect(first.json).toMatchObject({ username: bob.username, permission: 'read' });
    expect((await share(plot.fid, bob, 'write')).status).toBe(200);
    const patched = await s.call('PATCH', `${collaborators(plot.fid)}/${bob.username}`, { user: alice, body: { permission: 'read' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.permission).toBe('read');
    expect(await listed(plot.fid)).toMatchObject({ count: 1, results: [{ username: bob.username, permission: 'read' }] });
    expect((await listed(plot.fid, bob)).count).toBe(1);
    const record = await s.call('GET', `/v2/plots/${plot.fid}`, { user: alice });
    expect(record.json.collaborators).toMatchObject({ count: 1, results: [{ username: bob.username, permission: 'read' }] });
    const removed = await s.call('DELETE', `${collaborators(plot.fid)}/${bob.username}`, { user: alice });
    expect(removed.status, removed.text).toBe(204);
    expect((await listed(plot.fid)).count).toBe(0);
  });

  it('bad input and the wrong caller: a clear 4xx each, and nothing changes', async () => {
    const { plot } = await privatePlot();
    await share(plot.fid, bob, 'read');
    const post = (user: TestUser | undefined, body: unknown) => s.call('POST', collaborators(plot.fid), { user, body });
    expectError(await post(alice, { username: 'no-such-user-here', permission: 'read' }), 400, /no user named/);
    expect((await post(alice, { username: 'no-such-user-here', permission: 'read' })).json.errors[0].field).toBe('username');
    expectError(await post(alice, { username: alice.username, permission: 'write' }), 400, /you own this file/);
    const badPermission = await post(alice, { username: eve.username, permission: 'admin' });
    expectError(badPermission, 400);
    expect(badPermission.json.errors[0].field).toBe('permission');
    expectError(await post(alice, { username: eve.username }), 400);
    expectError(await s.call('POST', collaborators(plot.fid), { user: alice, raw: 'not json', headers: { 'Content-Type': 'application/json' } }), 400);
    expectError(await post(bob, { username: eve.username, permission: 'read' }), 403);
    expectError(await post(eve, { username: eve.username, permission: 'read' }), 404);
    expectError(await post(undefined, { username: eve.username, permission: 'read' }), 401, AUTH_REQUIRED);
    expectError(await s.call('GET', collaborators(plot.fid), { user: eve }), 404);
    expectError(await s.call('PATCH', `${collaborators(plot.fid)}/${eve.username}`, { user: alice, body: { permission: 'read' } }), 404);
    expectError(await s.call('PATCH', `${collaborators(plot.fid)}/${bob.username}`, { user: bob, body: { permission: 'write' } }), 403);
    expectError(await s.call('DELETE', `${collaborators(plot.fid)}/${bob.username}`, { user: eve }), 404);
    expectError(await s.call('DELETE', collaborators('nobody:1'), { user: alice }), 405);
    expect(await listed(plot.fid)).toMatchObject({ count: 1, results: [{ username: bob.username, permission: 'read' }] });
  });

  it('a reader reads the private plot everywhere (its grid once shared too); a writer changes the content, not the rest', async () => {
    const { grid, plot } = await privatePlot();
    expectError(await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob }), 404);
    await share(plot.fid, bob, 'read');
    await share(plot.fid, carol, 'write');
    const detail = await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.json.current_user_permission).toBe('read');
    expect((await s.call('GET', `/v2/plots/${plot.fid}`, { user: carol })).json.current_user_permission).toBe('write');
    // The plot's private grid is not shared: the reader gets what the chart draws, not the grid.
    const content = await s.call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`, { user: bob });
    expect(content.status).toBe(200);
    expect(content.json.data[0].y).toEqual([40, 50, 60]);
    expect(content.headers.get('cache-control')).toMatch(/private/);
    expect((await s.call('GET', `/v2/grids/${grid.fid}/content`, { user: bob })).status).toBe(404);
    await share(grid.fid, bob, 'read');
    expect((await s.call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`, { user: bob })).json.data[0].y).toEqual([40, 50, 60]);
    expect((await s.call('GET', `/v2/grids/${grid.fid}/content`, { user: bob })).status).toBe(200);
    // Pages and downloads with the reader's key.
    for (const path of [pagePath(plot.fid), `/~${plot.fid.replace(':', '/')}.json`, `/~${plot.fid.replace(':', '/')}.csv`]) {
      expect((await s.call('GET', path, { user: bob })).status, path).toBe(200);
      expect((await s.call('GET', path, { user: eve })).status, path).toBe(404);
    }
    // Readers write nothing.
    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: bob, body: { title: 'by bob' } }), 403);
    expectError(await s.call('POST', `/v2/grids/${grid.fid}/col`, { user: bob, body: { cols: JSON.stringify([{ name: 'z', data: [1] }]) } }), 403);
    // The writer edits the content; the rest stays the owner's.
    const edited = await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: carol, body: { title: 'Edited by carol' } });
    expect(edited.status, edited.text).toBe(200);
    for (const body of [{ world_readable: true }, { filename: 'mine now' }, { share_key_enabled: true }]) {
      expectError(await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: carol, body }), 403, /Only the owner/);
    }
    expectError(await s.call('POST', `/v2/plots/${plot.fid}/trash`, { user: carol }), 403);
    expectError(await s.call('DELETE', `/v2/plots/${plot.fid}/permanent_delete`, { user: carol }), 403);
    expectError(await s.call('POST', collaborators(plot.fid), { user: carol, body: { username: eve.username, permission: 'read' } }), 403);
    const now = await s.call('GET', `/v2/plots/${plot.fid}`, { user: alice });
    expect(now.json).toMatchObject({ title: 'Edited by carol', world_readable: false, share_key_enabled: false });
    expect((await s.call('GET', `/v2/plots/${plot.fid}/versions`, { user: carol })).status).toBe(200);
    expectError(await s.call('GET', `/v2/plots/${plot.fid}/versions`, { user: bob }), 404);
  });

  it("a folder's share reaches what is in it, and stops at once for what leaves it or when it is removed", async () => {
    const folder = await s.call('POST', '/v2/folders', { user: alice, body: { path: 'shared team' } });
    expect(folder.status, folder.text).toBe(201);
    const plot = (await s.createPlot(alice, {
      figure: { data: [{ type: 'bar', name: 'in folder' }] },
      world_readable: false,
      parent_path: 'shared team',
    })) as Rec;
    await share(folder.json.file.fid, bob, 'read');
    expect((await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob })).status).toBe(200);
    const children = await s.call('GET', `/v2/folders/${folder.json.file.fid}`, { user: bob });
    expect(children.json.children.results.map((c: Rec) => c.fid)).toContain(plot.fid);
    // The folder's collaborators are listed on the folder, not on what is in it.
    expect((await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob })).json.collaborators).toEqual({ results: [], count: 0 });
    expect((await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { parent: -1 } })).status).toBe(200);
    expectError(await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob }), 404);
    expect((await s.call('GET', pagePath(plot.fid), { user: bob })).status).toBe(404);
    expect((await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { parent_path: 'shared team' } })).status).toBe(200);
    expect((await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob })).status).toBe(200);
    expect((await s.call('DELETE', `${collaborators(folder.json.file.fid)}/${bob.username}`, { user: bob })).status).toBe(204);
    expectError(await s.call('GET', `/v2/plots/${plot.fid}`, { user: bob }), 404);
  });
});
