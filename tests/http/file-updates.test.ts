// PUT and PATCH on /v2/{plots|grids|folders|files}/{fid} (docs/api.md "Updates"), share_key_enabled
// and share_key in every record, and secret links that carry their data (docs/api.md "Endpoints"),
// on PostgreSQL and on PGlite. Each test makes its own files under the suite's users.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, users } from '@/db/schema';
import { appDatabase, expectError, type TestUser } from '../support/api';
import { servers, type Server } from '../support/servers';

type Rec = Record<string, any>;
type Grid = Awaited<ReturnType<Server['uploadGrid']>>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nOf = (fid: string) => Number(fid.split(':')[1]);
const unique = (stem: string) => `${stem} ${randomBytes(3).toString('hex')}`;
const clash = (filename: string) => `Sorry, a file named '${filename}' already exists`;
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

/** The fields that change only by what an update says, or never. */
const stable = (rec: Rec) => ({ fid: rec.fid, creation_time: rec.creation_time, filetype: rec.filetype, owner: rec.owner });

describe.each(servers())('PUT and PATCH on files, on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  const scatter = (g: Grid, extra: Rec = {}) => ({ type: 'scatter', xsrc: g.src('x'), ysrc: g.src('y'), ...extra });
  const plot = (body: Rec = {}) => s.createPlot(alice, { filename: unique('plot'), figure: { data: [scatter(grid)], layout: {} }, ...body });
  const folder = async (path: string, user = alice) => {
    const res = await s.call('POST', '/v2/folders', { user, body: { path } });
    if (res.status !== 201) throw new Error(`folder ${path}: ${res.status} ${res.text}`);
    return res.json.file as Rec;
  };
  /** Each file type: how to make one, its typed path, and what only its record has. */
  const kinds = {
    plot: { make: (body: Rec = {}) => plot(body), typed: 'plots', only: 'content_url' },
    grid: {
      make: async (body: Rec = {}) => (await s.uploadGrid(alice, { x: [1, 2] }, { filename: unique('grid'), ...body })).file as Rec,
      typed: 'grids',
      only: 'cols',
    },
    fold: {
      make: async (body: Rec = {}) => {
        const made = await folder(unique('folder'));
        return body.world_readable === false ? (await s.call('PATCH', `/v2/folders/${made.fid}`, { user: alice, body })).json : made;
      },
      typed: 'folders',
      only: null,
    },
  } as const;
  /** The list records of `fids` (public plots), walking GET /v2/plots as `viewer` (other suites add plots meanwhile). */
  const listed = async (viewer: TestUser | null, fids: string[]) => {
    const found: Rec[] = [];
    for (let path: string | null = '/v2/plots?page_size=100', i = 0; path && found.length < fids.length && i < 200; i++) {
      const page: Rec = (await s.call('GET', path, { user: viewer })).json;
      found.push(...page.results.filter((r: Rec) => fids.includes(r.fid)));
      path = page.next ? pathOf(page.next) : null;
    }
    expect(found.map((r) => r.fid).sort()).toEqual([...fids].sort());
    return found;
  };
  /** The record of a file as its owner reads it. */
  const read = async (fid: string, user: TestUser | null = alice) => (await s.call('GET', `/v2/files/${fid}`, { user })).json as Rec;

  beforeAll(async () => {
    alice = await s.newUser('upd');
    bob = await s.newUser('updb');
    grid = await s.uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6], z: [7, 8, 9] });
  });

  describe.each(['PUT', 'PATCH'])('%s', (method) => {
    const cases = (['plot', 'grid', 'fold'] as const).flatMap((type) => [
      { type, via: 'typed' as const },
      { type, via: 'files' as const },
    ]);

    it.each(cases)('$type via the $via path: filename, world_readable and share_key_enabled change; the rest keeps', async ({ type, via }) => {
      const kind = kinds[type];
      const before = await kind.make();
      await sleep(15);
      const path = `/v2/${via === 'files' ? 'files' : kind.typed}/${before.fid}`;
      const filename = unique('renamed');
      const res = await s.call(method, path, { user: alice, body: { filename, world_readable: false, share_key_enabled: true } });
      expect(res.status, res.text).toBe(200);
      expect(res.json).not.toHaveProperty('file');
      expect(res.json).toMatchObject({
        ...stable(before),
        filename,
        world_readable: false,
        share_key_enabled: true,
        parent: -1,
        current_user_permission: 'write',
      });
      expect(res.json.share_key).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{22,}$/));
      // Under /v2/files/ a grid's record has no cols: R merges it with a /col answer.
      if (type === 'grid' && via === 'files') expect(res.json).not.toHaveProperty('cols');
      else if (kind.only) expect(res.json).toHaveProperty(kind.only);
      expect(Date.parse(res.json.date_modified)).toBeGreaterThan(Date.parse(before.date_modified));
      // Read back: the same record, and its key opens it to anyone.
      const back = await read(before.fid);
      expect(back).toMatchObject({
        filename,
        world_readable: false,
        share_key_enabled: true,
        share_key: res.json.share_key,
        date_modified: res.json.date_modified,
      });
      expectError(await s.call('GET', `/v2/files/${before.fid}`), 404);
      if (type !== 'fold') expect((await s.call('GET', `/v2/files/${before.fid}?share_key=${res.json.share_key}`)).status).toBe(200);

      // Only what is given changes: a second update keeps the key, the name and the privacy.
      const again = await s.call(method, path, { user: alice, body: { share_key_enabled: true } });
      expect(again.json).toMatchObject({ filename, world_readable: false, share_key: res.json.share_key });
      const off = await s.call(method, path, { user: alice, body: { share_key_enabled: false, world_readable: true } });
      expect(off.status, off.text).toBe(200);
      expect(off.json).toMatchObject({ filename, world_readable: true, share_key_enabled: false });
      expect(off.json).not.toHaveProperty('share_key');
      // Enabling again issues a new key.
      const on = await s.call(method, path, { user: alice, body: { share_key_enabled: true } });
      expect(on.json.share_key).toEqual(expect.any(String));
      expect(on.json.share_key).not.toBe(res.json.share_key);
    });

    it.each(['plot', 'grid', 'fold'] as const)('%s: {} and unknown keys change nothing (date_modified too)', async (type) => {
      const before = await kinds[type].make();
      await sleep(15);
      for (const body of [{}, { nonsense: 1, deleted: true }]) {
        const res = await s.call(method, `/v2/files/${before.fid}`, { user: alice, body });
        expect(res.status, res.text).toBe(200);
        expect(res.json.date_modified).toBe(before.date_modified);
        expect(res.json.filename).toBe(before.filename);
      }
    });

    it("a plot's own fields: figure, title, caption, source_fid; views, fid and creation_time never move", async () => {
      const other = await s.uploadGrid(alice, { a: [10, 20], b: [30, 40] });
      const source = await plot();
      const before = await plot({ figure: { data: [scatter(grid)], layout: { title: { text: 'first' } } } });
      expect(before.title).toBe('first');
      // One served page view.
      const page = await fetch(`${s.url}/~${alice.username}/${nOf(before.fid)}/`);
      await page.text();
      expect(page.status).toBe(200);
      // The view is written after the page is sent (Next's `after`): the update comes once it is counted.
      await expect.poll(async () => (await s.call('GET', `/v2/plots/${before.fid}`)).json.views).toBe(1);
      const figure = { data: [{ type: 'bar', xsrc: other.src('a'), ysrc: other.src('b') }], layout: { title: { text: 'second' }, width: 640 } };
      await sleep(15);
      const res = await s.call(method, `/v2/plots/${before.fid}`, { user: alice, body: { figure, caption: 'cap', source_fid: source.fid } });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ ...stable(before), figure, title: 'second', caption: 'cap', source_fid: source.fid, width: 640, views: 1 });
      expect(Date.parse(res.json.date_modified)).toBeGreaterThan(Date.parse(before.date_modified));
      expect((await s.call('GET', `/v2/plots/${before.fid}/content?inline_data=true`)).json.data).toEqual([{ type: 'bar', x: [10, 20], y: [30, 40] }]);
      // An explicit title stays over later figures; source_fid null clears.
      const titled = await s.call(method, `/v2/plots/${before.fid}`, { user: alice, body: { title: 'mine', source_fid: null } });
      expect(titled.json).toMatchObject({ title: 'mine', source_fid: null, figure, views: 1 });
      const refigured = await s.call(method, `/v2/plots/${before.fid}`, { user: alice, body: { figure: { data: [], layout: { title: { text: 'third' } } } } });
      expect(refigured.json.title).toBe('mine');
      expect((await s.call('GET', `/v2/plots/${before.fid}`)).json).toEqual({ ...refigured.json, current_user_permission: 'read' });
    });
  });

  describe('the official clients', () => {
    it('Python plot() overwrite: lookup by path, PUT {figure, world_readable, filename, parent_path, share_key_enabled}, then the secret link from web_url and share_key', async () => {
      const dir = unique('py');
      await folder(dir);
      const first = await plot({ filename: 'report', parent_path: dir });
      const found = await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${dir}/report`)}`, { user: alice });
      expect(found.json).toMatchObject({ fid: first.fid, filetype: 'plot' });
      const figure = { data: [scatter(grid, { name: 'v2' })], layout: {} };
      const body = { figure, world_readable: false, filename: 'report', parent_path: dir, share_key_enabled: true };
      const res = await s.call('PUT', `/v2/plots/${found.json.fid}`, { user: alice, body });
      expect(res.status, res.text).toBe(200);
      const fileInfo = res.json.file ?? res.json;
      expect(fileInfo).toMatchObject({ fid: first.fid, filename: 'report', parent: first.parent, world_readable: false, share_key_enabled: true, figure });
      const secretUrl = `${fileInfo.web_url.slice(0, -1)}?share_key=${fileInfo.share_key}`;
      expect((await fetch(secretUrl)).status).toBe(200);
      expect(fileInfo.share_url).toBe(`${fileInfo.web_url}?share_key=${fileInfo.share_key}`);
      // Anonymous without the key: the 404 of a missing plot.
      expectError(await s.call('GET', `/v2/plots/${first.fid}`), 404);
      // A public re-run (no share_key_enabled sent) keeps the key but opens the plot.
      const pub = await s.call('PUT', `/v2/plots/${first.fid}`, { user: alice, body: { figure, world_readable: true, filename: 'report', parent_path: dir } });
      expect(pub.json).toMatchObject({ world_readable: true, share_key_enabled: true, share_key: fileInfo.share_key, share_url: pub.json.web_url });
    });

    it('Python add_share_key_to_url: PUT /v2/files/{fid} {share_key_enabled: true, world_readable: false}, then GET /v2/files/{fid} until share_key_enabled', async () => {
      const rec = await plot();
      const res = await s.call('PUT', `/v2/files/${rec.fid}`, { user: alice, body: { share_key_enabled: true, world_readable: false } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.share_key).toEqual(expect.any(String));
      expect((await s.call('GET', `/v2/files/${rec.fid}`, { user: alice })).json.share_key_enabled).toBe(true);
      const plotUrl = rec.web_url.slice(0, -1);
      expect((await fetch(`${plotUrl}?share_key=${res.json.share_key}`)).status).toBe(200);
      expect((await s.call('GET', `/v2/plots/${rec.fid}?share_key=${res.json.share_key}`)).status).toBe(200);
      expectError(await s.call('GET', `/v2/plots/${rec.fid}`), 404);
    });

    it.each([
      ['public', { world_readable: true, share_key_enabled: false }],
      ['private', { world_readable: false, share_key_enabled: false }],
      ['secret', { world_readable: false, share_key_enabled: true }],
    ])('R api_create overwrite (%s): PATCH /v2/plots/{fid} {figure, filename, parent_path, world_readable, share_key_enabled}', async (sharing, flags) => {
      const dir = unique('r');
      await folder(dir);
      const first = await plot({ filename: 'r plot', parent_path: dir, world_readable: false, share_key_enabled: true });
      const figure = { data: [scatter(grid, { mode: 'markers' })], layout: { title: { text: sharing } } };
      const res = await s.call('PATCH', `/v2/plots/${first.fid}`, { user: alice, body: { figure, filename: 'r plot', parent_path: dir, ...flags } });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ fid: first.fid, figure, title: sharing, ...flags, web_url: first.web_url });
      // R's print: web_url, plus ?share_key= when share_key_enabled.
      if (flags.share_key_enabled) {
        expect(res.json.share_key).toBe(first.share_key);
        expect((await fetch(`${res.json.web_url}?share_key=${res.json.share_key}`)).status).toBe(200);
        expect((await fetch(`${res.json.embed_url}?share_key=${res.json.share_key}`)).status).toBe(200);
      } else {
        expect(res.json).not.toHaveProperty('share_key');
        expect((await s.call('GET', `/v2/plots/${first.fid}?share_key=${first.share_key}`)).status).toBe(flags.world_readable ? 200 : 404);
      }
      expect((await s.call('GET', `/v2/plots/${first.fid}`)).status).toBe(flags.world_readable ? 200 : 404);
    });
  });

  describe('bad input: 400 naming the field, and nothing changes', () => {
    const bad: { name: string; type: 'plot' | 'grid' | 'fold'; body: () => unknown; field: string }[] = [
      { name: 'empty filename', type: 'plot', body: () => ({ filename: '  ' }), field: 'filename' },
      { name: 'filename with /', type: 'grid', body: () => ({ filename: 'a/b' }), field: 'filename' },
      { name: 'filename of 256 characters', type: 'fold', body: () => ({ filename: 'x'.repeat(256) }), field: 'filename' },
      { name: 'filename a number', type: 'plot', body: () => ({ filename: 5 }), field: 'filename' },
      { name: 'world_readable a string', type: 'plot', body: () => ({ world_readable: 'false', filename: 'never' }), field: 'world_readable' },
      { name: 'share_key_enabled 1', type: 'grid', body: () => ({ share_key_enabled: 1 }), field: 'share_key_enabled' },
      { name: 'parent a string', type: 'plot', body: () => ({ parent: '3' }), field: 'parent' },
      { name: 'parent fractional', type: 'fold', body: () => ({ parent: 1.5 }), field: 'parent' },
      { name: 'parent below -1', type: 'grid', body: () => ({ parent: -2 }), field: 'parent' },
      { name: 'parent_path a number', type: 'plot', body: () => ({ parent_path: 7 }), field: 'parent_path' },
      { name: 'parent_path with ..', type: 'plot', body: () => ({ parent_path: 'a/../b' }), field: 'parent_path' },
      { name: 'title a number', type: 'plot', body: () => ({ title: 5, caption: 'never' }), field: 'title' },
      { name: 'caption an array', type: 'plot', body: () => ({ caption: [] }), field: 'caption' },
      {
        name: 'raw data in the figure',
        type: 'plot',
        body: () => ({ figure: { data: [{ type: 'scatter', y: [1, 2] }] }, filename: 'never' }),
        field: 'figure.data[0].y',
      },
      { name: 'figure not an object', type: 'plot', body: () => ({ figure: 'x' }), field: 'figure' },
      {
        name: 'src into a missing grid',
        type: 'plot',
        body: () => ({ figure: { data: [{ ysrc: `${alice.username}:999999:abcdef` }] } }),
        field: 'figure.data[0].ysrc',
      },
      { name: 'source_fid of nothing', type: 'plot', body: () => ({ source_fid: `${bob.username}:999999`, filename: 'never' }), field: 'source_fid' },
      { name: 'metadata over 1 MiB', type: 'grid', body: () => ({ metadata: { blob: 'x'.repeat(1024 * 1024) } }), field: 'metadata' },
      { name: 'a JSON array body', type: 'plot', body: () => [], field: 'body' },
      { name: 'a JSON string body', type: 'grid', body: () => 'filename', field: 'body' },
    ];

    it.each(bad)('$type, $name', async ({ type, body, field }) => {
      const before = await kinds[type].make();
      for (const method of ['PUT', 'PATCH']) {
        for (const path of [`/v2/${kinds[type].typed}/${before.fid}`, `/v2/files/${before.fid}`]) {
          const res = await s.call(method, path, { user: alice, body: body() });
          expectError(res, 400, field === 'body' ? undefined : `${field}:`);
          if (field !== 'body') expect(res.json.errors.map((e: Rec) => e.path ?? e.field)).toContain(field);
        }
      }
      const after = await read(before.fid);
      const { cols: _c, ...rest } = before;
      expect(after).toMatchObject(rest);
    });

    it('malformed JSON is 400 and a body that is not JSON is 415', async () => {
      const rec = await plot();
      expectError(await s.call('PATCH', `/v2/plots/${rec.fid}`, { user: alice, raw: '{"filename": ', headers: { 'Content-Type': 'application/json' } }), 400);
      expectError(
        await s.call('PUT', `/v2/plots/${rec.fid}`, { user: alice, raw: 'filename=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
        415,
      );
      expect((await read(rec.fid)).filename).toBe(rec.filename);
    });

    const foreign: { name: string; type: 'plot' | 'grid' | 'fold'; body: Rec; field: string }[] = [
      { name: "a plot's figure on a grid", type: 'grid', body: { figure: { data: [] }, filename: 'never' }, field: 'figure' },
      { name: "a plot's title on a folder", type: 'fold', body: { title: 'x' }, field: 'title' },
      { name: "a grid's metadata on a plot", type: 'plot', body: { metadata: { a: 1 }, caption: 'never' }, field: 'metadata' },
      { name: "a grid's metadata (null) on a folder", type: 'fold', body: { metadata: null }, field: 'metadata' },
    ];

    it.each(foreign)("another type's field: $name", async ({ type, body, field }) => {
      const before = await kinds[type].make();
      for (const path of [`/v2/${kinds[type].typed}/${before.fid}`, `/v2/files/${before.fid}`]) {
        expectError(await s.call('PATCH', path, { user: alice, body }), 400, `${field}:`);
      }
      const { cols: _c, ...rest } = before;
      expect(await read(before.fid)).toMatchObject(rest);
    });

    it('a typed path answers a file of another type with the 404 of a missing file', async () => {
      const rec = await plot();
      const missing = await s.call('PATCH', `/v2/grids/${alice.username}:999999`, { user: alice, body: { filename: 'x' } });
      expectError(missing, 404);
      for (const typed of ['grids', 'folders']) {
        const res = await s.call('PATCH', `/v2/${typed}/${rec.fid}`, { user: alice, body: { filename: 'x' } });
        expectError(res, 404);
        expect(res.text).toBe(missing.text);
      }
      expect((await read(rec.fid)).filename).toBe(rec.filename);
    });
  });

  describe('renames and moves', () => {
    it('a clash is the 400 "already exists" and changes nothing; a file never clashes with itself', async () => {
      const taken = await plot();
      const rec = await kinds.grid.make();
      for (const path of [`/v2/grids/${rec.fid}`, `/v2/files/${rec.fid}`]) {
        expectError(await s.call('PATCH', path, { user: alice, body: { filename: taken.filename, world_readable: false } }), 400, clash(taken.filename));
      }
      expect(await read(rec.fid)).toMatchObject({ filename: rec.filename, world_readable: true });
      const self = await s.call('PUT', `/v2/plots/${taken.fid}`, { user: alice, body: { filename: taken.filename, parent: -1 } });
      expect(self.status, self.text).toBe(200);
      // Another owner's name is no clash; a trashed file's name is free.
      const bobsName = unique('bob');
      await s.uploadGrid(bob, { x: [1] }, { filename: bobsName });
      expect((await s.call('PATCH', `/v2/grids/${rec.fid}`, { user: alice, body: { filename: bobsName } })).status).toBe(200);
      expect((await s.call('POST', `/v2/plots/${taken.fid}/trash`, { user: alice })).status).toBe(200);
      expect((await s.call('PATCH', `/v2/grids/${rec.fid}`, { user: alice, body: { filename: taken.filename } })).json.filename).toBe(taken.filename);
    });

    it('parent and parent_path move a file; lookup finds it at its new path', async () => {
      const top = unique('mv');
      const b = await folder(`${top}/a/b`);
      const a = (await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${top}/a`)}`, { user: alice })).json;
      const rec = await plot();
      const intoA = await s.call('PATCH', `/v2/files/${rec.fid}`, { user: alice, body: { parent_path: `${top}/a` } });
      expect(intoA.status, intoA.text).toBe(200);
      expect(intoA.json).toMatchObject({ parent: nOf(a.fid), parented: true, filename: rec.filename });
      expect(pathOf(intoA.json.api_urls.parent)).toBe(`/v2/folders/${a.fid}`);
      expect((await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${top}/a/${rec.filename}`)}`, { user: alice })).json.fid).toBe(rec.fid);
      expectError(await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(rec.filename)}`, { user: alice }), 404);
      const intoB = await s.call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { parent: nOf(b.fid) } });
      expect(intoB.json).toMatchObject({ parent: nOf(b.fid) });
      const children = (await s.call('GET', `/v2/folders/${b.fid}`, { user: alice })).json.children.results.map((c: Rec) => c.fid);
      expect(children).toEqual([rec.fid]);
      const home = await s.call('PATCH', `/v2/plots/${rec.fid}`, { user: alice, body: { parent: -1 } });
      expect(home.json).toMatchObject({ parent: -1, parented: false });
      const homeDir = await s.call('PATCH', `/v2/plots/${rec.fid}`, { user: alice, body: { parent_path: `${top}/a` } });
      expect(homeDir.json.parent).toBe(nOf(a.fid));
      const back = await s.call('PATCH', `/v2/plots/${rec.fid}`, { user: alice, body: { parent_path: '' } });
      expect(back.json.parent).toBe(-1);
    });

    it('moving into a folder that holds the name: 400 "already exists"', async () => {
      const dir = unique('dir');
      const d = await folder(dir);
      const inside = await plot({ parent_path: dir });
      const outside = await plot({ filename: inside.filename.replace('plot', 'other') });
      expect((await s.call('PATCH', `/v2/plots/${outside.fid}`, { user: alice, body: { filename: inside.filename } })).status).toBe(200);
      expectError(await s.call('PATCH', `/v2/plots/${outside.fid}`, { user: alice, body: { parent: nOf(d.fid) } }), 400, clash(inside.filename));
      expect((await read(outside.fid)).parent).toBe(-1);
    });

    it('bad moves: missing folders, not a folder, both parent and parent_path, a folder into itself or below it', async () => {
      const top = unique('tree');
      const c = await folder(`${top}/b/c`);
      const topRec = (await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(top)}`, { user: alice })).json;
      const b = (await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${top}/b`)}`, { user: alice })).json;
      const rec = await plot();
      const bobsFolder = await folder(unique('bobs'), bob);
      const moves: [string, string, Rec, string][] = [
        ['a missing parent_path', rec.fid, { parent_path: `${top}/nope` }, 'parent_path:'],
        ['a missing parent', rec.fid, { parent: 999999 }, 'parent:'],
        ["a plot's number as parent", rec.fid, { parent: nOf(rec.fid) }, 'parent:'],
        ["another user's folder number", rec.fid, { parent: nOf(bobsFolder.fid) }, 'parent:'],
        ['parent and parent_path both', rec.fid, { parent: -1, parent_path: top }, 'parent_path:'],
        ['a folder into itself', topRec.fid, { parent: nOf(topRec.fid) }, 'parent:'],
        ['a folder into its child', topRec.fid, { parent: nOf(b.fid) }, 'parent:'],
        ['a folder into its grandchild by path', topRec.fid, { parent_path: `${top}/b/c` }, 'parent_path:'],
        ['a folder into itself by path', b.fid, { parent_path: `${top}/b` }, 'parent_path:'],
      ];
      for (const [name, fid, body, needle] of moves) {
        const res = await s.call('PATCH', `/v2/files/${fid}`, { user: alice, body: { ...body, world_readable: false } });
        expect(res.status, `${name}: ${res.text}`).toBe(400);
        expectError(res, 400, needle);
      }
      expect(await read(rec.fid)).toMatchObject({ parent: -1, world_readable: true });
      expect(await read(topRec.fid)).toMatchObject({ parent: -1, world_readable: true });
      expect(await read(b.fid)).toMatchObject({ parent: nOf(topRec.fid), world_readable: true });
      // A folder may move beside its parent, or to the top, with what it holds.
      const up = await s.call('PATCH', `/v2/folders/${c.fid}`, { user: alice, body: { parent: nOf(topRec.fid) } });
      expect(up.status, up.text).toBe(200);
      const moved = await s.call('PATCH', `/v2/folders/${b.fid}`, { user: alice, body: { parent: nOf(c.fid) } });
      expect(moved.status, moved.text).toBe(200);
      expect((await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${top}/c/b`)}`, { user: alice })).json.fid).toBe(b.fid);
    });
  });

  describe('permissions', () => {
    it('anonymous 401; a reader 403; who cannot read it gets the 404 of a missing file', async () => {
      const pub = await plot();
      const priv = await plot({ world_readable: false });
      const secret = await plot({ world_readable: false, share_key_enabled: true });
      const pubFolder = await kinds.fold.make();
      const privGrid = await kinds.grid.make({ world_readable: false });
      for (const method of ['PUT', 'PATCH']) {
        for (const path of [`/v2/plots/${pub.fid}`, `/v2/files/${pub.fid}`, `/v2/folders/${pubFolder.fid}`]) {
          expectError(await s.call(method, path, { body: { filename: 'mine' } }), 401, 'Authentication credentials were not provided.');
          expectError(await s.call(method, path, { user: bob, body: { filename: 'mine' } }), 403);
        }
        for (const [typed, rec] of [
          ['plots', priv],
          ['plots', secret],
          ['grids', privGrid],
        ] as const) {
          for (const path of [`/v2/${typed}/${rec.fid}`, `/v2/files/${rec.fid}`]) {
            const res = await s.call(method, path, { user: bob, body: { filename: 'mine' } });
            const missing = await s.call(method, path.replace(rec.fid, `${alice.username}:999999`), { user: bob, body: { filename: 'mine' } });
            expectError(res, 404);
            expect(res.text).toBe(missing.text);
          }
        }
        // A share key grants reading, never writing.
        expectError(await s.call(method, `/v2/plots/${secret.fid}?share_key=${secret.share_key}`, { user: bob, body: { filename: 'mine' } }), 404);
      }
      for (const rec of [pub, priv, secret, pubFolder]) expect((await read(rec.fid)).filename).toBe(rec.filename);
    });
  });

  describe('share_key_enabled and share_key in every record', () => {
    it('lists, details, folder children and lookups: share_key_enabled for everyone, share_key for the owner only', async () => {
      const dir = unique('keys');
      const d = await folder(dir);
      const secretPublic = await plot({ parent_path: dir, share_key_enabled: true });
      const plain = await plot({ parent_path: dir });
      const secretGrid = (await s.uploadGrid(alice, { x: [1] }, { filename: unique('g'), parent_path: dir, share_key_enabled: true })).file as Rec;
      expect(secretPublic.share_key).toEqual(expect.any(String));
      expect(secretPublic.share_url).toBe(secretPublic.web_url);
      const keyOf = { [secretPublic.fid]: secretPublic.share_key, [plain.fid]: undefined, [secretGrid.fid]: (await read(secretGrid.fid)).share_key };
      expect(keyOf[secretGrid.fid]).toEqual(expect.any(String));

      for (const viewer of [alice, bob, null]) {
        const owner = viewer === alice;
        const records: Rec[] = [];
        const list = await listed(viewer, [secretPublic.fid, plain.fid]);
        records.push(...list);
        records.push(...(await s.call('GET', `/v2/folders/${d.fid}`, { user: viewer })).json.children.results);
        for (const fid of Object.keys(keyOf)) {
          records.push((await s.call('GET', `/v2/files/${fid}`, { user: viewer })).json);
          records.push(
            (
              await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(`${dir}/${(await read(fid)).filename}`)}&user=${alice.username}`, {
                user: viewer,
              })
            ).json,
          );
        }
        records.push(
          (await s.call('GET', `/v2/plots/${secretPublic.fid}`, { user: viewer })).json,
          (await s.call('GET', `/v2/grids/${secretGrid.fid}`, { user: viewer })).json,
        );
        expect(records.length).toBeGreaterThanOrEqual(11);
        for (const rec of records) {
          expect(rec.share_key_enabled, `${rec.fid} share_key_enabled`).toBe(rec.fid in keyOf && keyOf[rec.fid] !== undefined);
          if (owner && keyOf[rec.fid]) expect(rec.share_key, rec.fid).toBe(keyOf[rec.fid]);
          else expect(rec, `${rec.fid} as ${viewer?.username ?? 'anonymous'}`).not.toHaveProperty('share_key');
        }
      }
    });

    it('share_url carries the key for the owner of a secret plot only', async () => {
      const secret = await plot({ world_readable: false, share_key_enabled: true });
      expect(secret.share_url).toBe(`${secret.web_url}?share_key=${secret.share_key}`);
      const asOther = await s.call('GET', `/v2/plots/${secret.fid}?share_key=${secret.share_key}`, { user: bob });
      expect(asOther.json.share_url).toBe(secret.web_url);
      expect(asOther.json).not.toHaveProperty('share_key');
      expect(asOther.json.share_key_enabled).toBe(true);
    });
  });

  describe('secret links carry their data', () => {
    let owner: TestUser;
    let privateGrid: Grid;
    let bobsGrid: Grid;
    let secret: Rec;

    beforeAll(async () => {
      owner = alice;
      privateGrid = await s.uploadGrid(owner, { x: [1, 2, 3], y: [30, 20, 10], unused: ['SECRET-NOT-REFERENCED', 'b', 'c'] }, { world_readable: false });
      // Bob's grid is public when the plot is made, then private: a src into another user's grid.
      bobsGrid = await s.uploadGrid(bob, { c: ['red', 'green', 'blue'] });
      secret = await s.createPlot(owner, {
        world_readable: false,
        share_key_enabled: true,
        figure: { data: [{ type: 'scatter', xsrc: privateGrid.src('x'), ysrc: privateGrid.src('y'), marker: { colorsrc: bobsGrid.src('c') } }], layout: {} },
      });
      expect((await s.call('PATCH', `/v2/grids/${bobsGrid.fid}`, { user: bob, body: { world_readable: false } })).status).toBe(200);
    });

    it("inline_data=true with the plot's key inlines its owner's private grid columns (only those referenced); others' private grids stay srcs", async () => {
      const res = await s.call('GET', `/v2/plots/${secret.fid}/content?inline_data=true&share_key=${secret.share_key}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data).toEqual([{ type: 'scatter', x: [1, 2, 3], y: [30, 20, 10], marker: { colorsrc: bobsGrid.src('c') } }]);
      expect(res.text).not.toContain('SECRET-NOT-REFERENCED');
      // map_data lists none of the owner's grids with the key (bob's grid is not the owner's to publish).
      const mapped = await s.call('GET', `/v2/plots/${secret.fid}/content?inline_data=true&map_data=unreadable&share_key=${secret.share_key}`);
      expect(mapped.json.data).toEqual(res.json.data);
      expect(mapped.json).not.toHaveProperty('map_data');
      // The key opens the plot, not the grid itself.
      expectError(await s.call('GET', `/v2/grids/${privateGrid.fid}/content?share_key=${secret.share_key}`), 404);
    });

    it('without the key: the 404 of a missing plot; a wrong key too; a disabled key no longer carries anything', async () => {
      for (const query of ['inline_data=true', `inline_data=true&share_key=${secret.share_key}x`]) {
        expectError(await s.call('GET', `/v2/plots/${secret.fid}/content?${query}`), 404);
      }
      const other = await s.createPlot(owner, {
        world_readable: false,
        share_key_enabled: true,
        figure: { data: [{ type: 'bar', ysrc: privateGrid.src('y') }] },
      });
      const key = other.share_key;
      expect((await s.call('GET', `/v2/plots/${other.fid}/content?inline_data=true&share_key=${key}`)).json.data).toEqual([{ type: 'bar', y: [30, 20, 10] }]);
      // A public plot opened with its (enabled) key also carries its owner's private data.
      const opened = await s.call('PATCH', `/v2/plots/${other.fid}`, { user: owner, body: { world_readable: true } });
      expect(opened.json.share_key).toBe(key);
      expect((await s.call('GET', `/v2/plots/${other.fid}/content?inline_data=true&share_key=${key}`)).json.data).toEqual([{ type: 'bar', y: [30, 20, 10] }]);
      // A public plot's readers get what it draws, key or not (lib/core/plots/srcs.ts plotSrcReader).
      expect((await s.call('GET', `/v2/plots/${other.fid}/content?inline_data=true`)).json.data).toEqual([{ type: 'bar', y: [30, 20, 10] }]);
      await s.call('PATCH', `/v2/plots/${other.fid}`, { user: owner, body: { share_key_enabled: false, world_readable: false } });
      expectError(await s.call('GET', `/v2/plots/${other.fid}/content?inline_data=true&share_key=${key}`), 404);
    });
  });
});

describe('grid metadata is stored in files.metadata (PostgreSQL)', () => {
  const [pg] = servers();

  it('PATCH {metadata} stores any JSON value, null clears, other fields keep it', async () => {
    const alice = await pg.newUser('meta');
    const grid = await pg.uploadGrid(alice, { x: [1] });
    const { db } = await appDatabase();
    const stored = async () => {
      const [row] = await db
        .select({ metadata: files.metadata })
        .from(files)
        .innerJoin(users, eq(users.id, files.ownerId))
        .where(and(eq(users.username, alice.username), eq(files.n, nOf(grid.fid))));
      return row.metadata;
    };
    for (const value of [{ units: 'cm', tags: ['a', 'b'] }, [1, 2], 'text', 3, true]) {
      const res = await pg.call('PATCH', `/v2/grids/${grid.fid}`, { user: alice, body: { metadata: value } });
      expect(res.status, res.text).toBe(200);
      expect(await stored()).toEqual(value);
    }
    expect((await pg.call('PUT', `/v2/files/${grid.fid}`, { user: alice, body: { filename: 'still has metadata' } })).status).toBe(200);
    expect(await stored()).toBe(true);
    expectError(await pg.call('PATCH', `/v2/grids/${grid.fid}`, { user: alice, body: { metadata: 'x'.repeat(1024 * 1024) } }), 400, 'metadata:');
    expect(await stored()).toBe(true);
    expect((await pg.call('PATCH', `/v2/grids/${grid.fid}`, { user: alice, body: { metadata: null } })).status).toBe(200);
    expect(await stored()).toBeNull();
  });
});
