// Trash, restore and permanent delete (docs/api.md "Trash") under /v2/{files|plots|grids|folders}/{fid}/...,
// on PostgreSQL and on PGlite: a folder carries its subtree, trashed files vanish everywhere, and
// their existence never leaks to others.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { servers, type Server } from '../support/servers';

type Rec = Record<string, any>;
type Grid = Awaited<ReturnType<Server['uploadGrid']>>;

const nOf = (fid: string) => Number(fid.split(':')[1]);
const unique = (stem: string) => `${stem} ${randomBytes(3).toString('hex')}`;

describe.each(servers())('the trash, on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  const plot = (body: Rec = {}) => s.createPlot(alice, { filename: unique('plot'), figure: { data: [{ type: 'bar', ysrc: grid.src('y') }] }, ...body });
  const folder = async (path: string) => {
    const res = await s.call('POST', '/v2/folders', { user: alice, body: { path } });
    if (res.status !== 201) throw new Error(`folder ${path}: ${res.status} ${res.text}`);
    return res.json.file as Rec;
  };
  const act = (action: 'trash' | 'restore' | 'permanent_delete', fid: string, typed = 'files', user: TestUser | null = alice) =>
    s.call(action === 'permanent_delete' ? 'DELETE' : 'POST', `/v2/${typed}/${fid}/${action}`, { user });
  const lookup = (path: string) => s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(path)}`, { user: alice });
  /** Whether the owner can see the file: its record, and its page for plots and grids. */
  const live = async (fid: string) => {
    const res = await s.call('GET', `/v2/files/${fid}`, { user: alice });
    if (res.status === 404) return false;
    expect(res.status, res.text).toBe(200);
    return true;
  };
  const pageStatus = async (fid: string) => {
    const res = await fetch(`${s.url}/~${alice.username}/${nOf(fid)}/`, { headers: { Authorization: alice.auth } });
    await res.arrayBuffer();
    return res.status;
  };
  /** Public plots of `fids` still in GET /v2/plots (other suites add plots meanwhile: walk until every page is seen). */
  const listedOf = async (fids: string[]) => {
    const found: string[] = [];
    for (let path: string | null = '/v2/plots?page_size=100', i = 0; path && i < 500; i++) {
      const page: Rec = (await s.call('GET', path)).json;
      found.push(...page.results.map((r: Rec) => r.fid).filter((fid: string) => fids.includes(fid)));
      path = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
    }
    return found.sort();
  };

  beforeAll(async () => {
    alice = await s.newUser('trash');
    bob = await s.newUser('trashb');
    grid = await s.uploadGrid(alice, { y: [1, 2, 3] });
  });

  it('a folder takes its live subtree to the trash and brings back exactly that; files trashed before stay trashed', async () => {
    const top = unique('tree');
    const topFolder = await folder(top);
    const sub = await folder(`${top}/sub`);
    const p1 = await plot({ parent_path: top });
    const p2 = await plot({ parent_path: `${top}/sub` });
    const g = (await s.uploadGrid(alice, { x: [1] }, { filename: unique('grid'), parent_path: `${top}/sub` })).file as Rec;
    const alone = await plot({ parent_path: `${top}/sub` });
    const outside = await plot();
    expect((await act('trash', alone.fid, 'plots')).json).toEqual({});
    expect(await listedOf([p1.fid, p2.fid, alone.fid, outside.fid])).toEqual([p1.fid, p2.fid, outside.fid].sort());

    const trashed = await act('trash', topFolder.fid, 'folders');
    expect(trashed.status, trashed.text).toBe(200);
    expect(trashed.json).toEqual({});
    for (const fid of [topFolder.fid, sub.fid, p1.fid, p2.fid, g.fid, alone.fid]) expect(await live(fid), fid).toBe(false);
    expect(await live(outside.fid)).toBe(true);
    // Gone from lookups, lists, pages, folder listings and every URL of the file.
    for (const path of [top, `${top}/sub`, `${top}/${p1.filename}`, `${top}/sub/${g.filename}`]) expectError(await lookup(path), 404);
    expect(await listedOf([p1.fid, p2.fid, outside.fid])).toEqual([outside.fid]);
    for (const fid of [p1.fid, p2.fid, g.fid]) expect(await pageStatus(fid)).toBe(404);
    for (const path of [`/v2/plots/${p1.fid}`, `/v2/plots/${p2.fid}/content`, `/v2/grids/${g.fid}`, `/v2/grids/${g.fid}/content`, `/v2/folders/${sub.fid}`]) {
      expectError(await s.call('GET', path, { user: alice }), 404);
    }
    const home = (await s.call('GET', '/v2/folders/home', { user: alice })).json.children.results.map((c: Rec) => c.fid);
    expect(home).not.toContain(topFolder.fid);
    expect(home).toContain(outside.fid);
    // A trashed file cannot be trashed again, nor updated.
    expectError(await act('trash', p1.fid), 404);
    expectError(await s.call('PATCH', `/v2/plots/${p1.fid}`, { user: alice, body: { title: 'x' } }), 404);

    const restored = await act('restore', topFolder.fid, 'folders');
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json).toEqual({});
    for (const fid of [topFolder.fid, sub.fid, p1.fid, p2.fid, g.fid]) expect(await live(fid), fid).toBe(true);
    expect(await live(alone.fid)).toBe(false);
    expect((await lookup(`${top}/sub/${g.filename}`)).json.fid).toBe(g.fid);
    expect(await listedOf([p1.fid, p2.fid, alone.fid])).toEqual([p1.fid, p2.fid].sort());
    expect(await pageStatus(p2.fid)).toBe(200);
    // The file trashed on its own comes back on its own, into its folder.
    expect((await act('restore', alone.fid, 'plots')).status).toBe(200);
    expect((await lookup(`${top}/sub/${alone.filename}`)).json.fid).toBe(alone.fid);
  });

  it('a subfolder trashed with its parent, restored alone, brings back its own contents and lands at the top level', async () => {
    const top = unique('nest');
    const topFolder = await folder(top);
    const sub = await folder(`${top}/inner`);
    const inside = await plot({ parent_path: `${top}/inner` });
    expect((await act('trash', topFolder.fid)).status).toBe(200);
    expect((await act('restore', sub.fid)).status).toBe(200);
    expect((await s.call('GET', `/v2/files/${sub.fid}`, { user: alice })).json.parent).toBe(-1);
    expect((await lookup(`inner/${inside.filename}`)).json.fid).toBe(inside.fid);
    expect(await live(topFolder.fid)).toBe(false);
    // Restoring the parent later brings back the rest; the subfolder stays where it now is.
    expect((await act('restore', topFolder.fid)).status).toBe(200);
    expect(await live(topFolder.fid)).toBe(true);
    expect((await s.call('GET', `/v2/files/${sub.fid}`, { user: alice })).json.parent).toBe(-1);
  });

  it('restore into a taken name: 400 "already exists", and the file stays in the trash', async () => {
    const first = await plot();
    expect((await act('trash', first.fid, 'plots')).status).toBe(200);
    const taker = await plot({ filename: first.filename });
    expectError(await act('restore', first.fid, 'plots'), 400, `Sorry, a file named '${first.filename}' already exists`);
    expect(await live(first.fid)).toBe(false);
    const name = unique('dup');
    const f1 = await folder(name);
    expect((await act('trash', f1.fid, 'folders')).status).toBe(200);
    await folder(name);
    expectError(await act('restore', f1.fid, 'folders'), 400, 'already exists');
    expect(await live(f1.fid)).toBe(false);
    // Once the name is free again, it comes back.
    expect((await act('trash', taker.fid)).status).toBe(200);
    expect((await act('restore', first.fid)).status).toBe(200);
    expect(await live(first.fid)).toBe(true);
  });

  it('permanent_delete answers 204 trashed or not; a folder takes everything below it; numbers are never reused', async () => {
    const loose = await plot();
    const res = await act('permanent_delete', loose.fid, 'plots');
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    const top = unique('gone');
    const topFolder = await folder(top);
    await folder(`${top}/deeper`);
    const inside = await plot({ parent_path: `${top}/deeper` });
    const trashedInside = await plot({ parent_path: top });
    expect((await act('trash', trashedInside.fid)).status).toBe(200);
    expect((await act('trash', topFolder.fid)).status).toBe(200);
    expect((await act('permanent_delete', topFolder.fid, 'folders')).status).toBe(204);
    // Gone for good: not restorable, not deletable again.
    for (const fid of [topFolder.fid, inside.fid, trashedInside.fid, loose.fid]) {
      expectError(await act('restore', fid), 404);
      expectError(await act('permanent_delete', fid), 404);
    }
    const next = await plot();
    expect(nOf(next.fid)).toBeGreaterThan(nOf(trashedInside.fid));
    // A live folder is deleted with its contents too.
    const other = unique('live');
    const otherFolder = await folder(other);
    const g = (await s.uploadGrid(alice, { x: [1] }, { filename: 'g', parent_path: other })).file as Rec;
    expect((await act('permanent_delete', otherFolder.fid, 'folders')).status).toBe(204);
    expectError(await s.call('GET', `/v2/grids/${g.fid}/content`, { user: alice }), 404);
    expectError(await act('restore', g.fid), 404);
  });

  it('grids and folders have their own trash paths; a typed path answers another type with the 404 of a missing file', async () => {
    const g = (await s.uploadGrid(alice, { x: [1] }, { filename: unique('grid') })).file as Rec;
    const p = await plot();
    const f = await folder(unique('typed'));
    for (const [typed, rec] of [
      ['grids', p],
      ['folders', g],
      ['plots', f],
    ] as const) {
      for (const action of ['trash', 'permanent_delete'] as const) expectError(await act(action, rec.fid, typed), 404);
    }
    for (const [typed, rec] of [
      ['grids', g],
      ['folders', f],
      ['plots', p],
    ] as const) {
      expect((await act('trash', rec.fid, typed)).status).toBe(200);
      expectError(await s.call('GET', `/v2/${typed}/${rec.fid}`, { user: alice }), 404);
      expectError(await act('restore', rec.fid, typed === 'grids' ? 'folders' : 'grids'), 404);
      expect((await act('restore', rec.fid, typed)).status).toBe(200);
      expect(await live(rec.fid)).toBe(true);
    }
  });

  it('others: 401 anonymous; a trashed file, public or not, is the 404 of a missing fid to restore and permanent_delete; a live public one is 403', async () => {
    const pub = await plot();
    const priv = await plot({ world_readable: false });
    const pubFolder = await folder(unique('pubf'));
    const missing = `${alice.username}:999999`;
    for (const action of ['trash', 'restore', 'permanent_delete'] as const)
      expectError(await act(action, pub.fid, 'plots', null), 401, 'Authentication credentials were not provided.');
    expectError(await act('trash', pub.fid, 'plots', bob), 403);
    expectError(await act('permanent_delete', pub.fid, 'files', bob), 403);
    expectError(await act('trash', pubFolder.fid, 'folders', bob), 403);
    for (const rec of [pub, priv]) expect((await act('trash', rec.fid, 'plots')).status).toBe(200);
    expect((await act('trash', pubFolder.fid, 'folders')).status).toBe(200);
    for (const [typed, fid] of [
      ['plots', pub.fid],
      ['plots', priv.fid],
      ['files', pub.fid],
      ['folders', pubFolder.fid],
    ]) {
      for (const action of ['restore', 'permanent_delete', 'trash'] as const) {
        const res = await act(action, fid, typed, bob);
        const none = await act(action, missing, typed, bob);
        expectError(res, 404);
        expect(res.text).toBe(none.text);
      }
    }
    // Nothing happened: the owner still finds them in the trash.
    for (const fid of [pub.fid, priv.fid, pubFolder.fid]) expect((await act('restore', fid)).status).toBe(200);
  });
});
