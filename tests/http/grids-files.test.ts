// Grids, files, folders and fids over HTTP (docs/api.md "Endpoints" and "Grids"; the OpenAPI document,
// /v2/openapi.json), and the official client's overwrite flow (look up, delete the grid, upload it again,
// update the plot in place).
import { describe, expect, it } from 'vitest';
import { baseUrl, call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';

const UID = /^[0-9a-f]{6}$/;
const b64 = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
const nOf = (fid: string) => Number(fid.split(':')[1]);
const clash = (filename: string) => `Sorry, a file named '${filename}' already exists`;

async function postGrid(user: TestUser, body: unknown) {
  return call('POST', '/v2/grids', { user, body });
}

describe('POST /v2/grids', () => {
  it('answers 201 with the file record and its columns ordered by `order`', async () => {
    const alice = await newUser('grid');
    const res = await postGrid(alice, {
      filename: 'measurements',
      data: { cols: { third: { data: ['a', 'b'], order: 2 }, first: { data: [1, 2], order: 0 }, second: { data: [true, null], order: 1 } } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const file = res.json.file;
    expect(file).toMatchObject({
      fid: `${alice.username}:1`,
      filename: 'measurements',
      filetype: 'grid',
      web_url: `${baseUrl()}/~${alice.username}/1/`,
      world_readable: true,
      owner: alice.username,
    });
    expect(file.cols.map((c: { name: string }) => c.name)).toEqual(['first', 'second', 'third']);
    for (const col of file.cols) {
      expect(Object.keys(col).sort()).toEqual(['name', 'uid']);
      expect(col.uid).toMatch(UID);
    }
    expect(new Set(file.cols.map((c: { uid: string }) => c.uid)).size).toBe(3);

    const content = await call('GET', `/v2/grids/${file.fid}/content`);
    expect(content.status).toBe(200);
    const uid = (name: string) => file.cols.find((c: { name: string }) => c.name === name).uid;
    expect(content.json).toEqual({
      cols: {
        first: { data: [1, 2], order: 0, uid: uid('first') },
        second: { data: [true, null], order: 1, uid: uid('second') },
        third: { data: ['a', 'b'], order: 2, uid: uid('third') },
      },
    });
  });

  it('gives each of many columns a distinct 6-hex uid', async () => {
    const alice = await newUser('grid');
    const cols = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`c${i}`, { data: [i], order: i }]));
    const res = await postGrid(alice, { data: { cols } });
    expect(res.status).toBe(201);
    const uids = res.json.file.cols.map((c: { uid: string }) => c.uid);
    expect(uids).toHaveLength(300);
    expect(new Set(uids).size).toBe(300);
    for (const u of uids) expect(u).toMatch(UID);
    expect(res.json.file.cols.map((c: { name: string }) => c.name)).toEqual(Array.from({ length: 300 }, (_, i) => `c${i}`));
  });

  it('accepts `data` sent as a JSON string', async () => {
    const alice = await newUser('grid');
    const data = JSON.stringify({ cols: { x: { data: [1, 2, 3], order: 0 }, label: { data: ['p', 'q', 'r'], order: 1 } } });
    const res = await postGrid(alice, { data, filename: 'as string' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.file.cols.map((c: { name: string }) => c.name)).toEqual(['x', 'label']);
    const content = await call('GET', `/v2/grids/${res.json.file.fid}/content`);
    expect(content.json.cols.x.data).toEqual([1, 2, 3]);
    expect(content.json.cols.label.data).toEqual(['p', 'q', 'r']);
    expect(content.json.cols.label.order).toBe(1);
  });

  it('decodes typed-array columns {dtype, bdata} and returns them as plain numbers', async () => {
    const alice = await newUser('grid');
    const f8 = [1.5, -2.25, 1e300, 0];
    const i4 = [1, -2, 2147483647, -2147483648];
    const res = await postGrid(alice, {
      data: {
        cols: {
          f8: { data: { dtype: 'f8', bdata: b64(new Float64Array(f8)) }, order: 0 },
          i4: { data: { dtype: 'i4', bdata: b64(new Int32Array(i4)) }, order: 1 },
          u1: { data: { dtype: 'u1', bdata: b64(new Uint8Array([0, 255, 7])) }, order: 2 },
          i2: { data: { dtype: 'i2', bdata: b64(new Int16Array([-32768, 32767])) }, order: 3 },
          f4: { data: { dtype: 'f4', bdata: b64(new Float32Array([0.5, -4])) }, order: 4 },
          plain: { data: [9, 8, 7, 6], order: 5 },
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    const content = await call('GET', `/v2/grids/${res.json.file.fid}/content`);
    expect(content.status).toBe(200);
    const data = Object.fromEntries(Object.entries(content.json.cols as Record<string, { data: unknown }>).map(([k, v]) => [k, v.data]));
    expect(data).toEqual({ f8, i4, u1: [0, 255, 7], i2: [-32768, 32767], f4: [0.5, -4], plain: [9, 8, 7, 6] });
    for (const values of Object.values(data) as unknown[][]) for (const v of values) expect(typeof v).toBe('number');
  });

  it('a plot on a typed-array grid inlines the decoded numbers', async () => {
    const alice = await newUser('grid');
    const grid = await uploadGrid(alice, { x: [1, 2, 3] });
    const typed = await postGrid(alice, { data: { cols: { y: { data: { dtype: 'i4', bdata: b64(new Int32Array([10, 20, 30])) }, order: 0 } } } });
    expect(typed.status).toBe(201);
    const ysrc = `${typed.json.file.fid}:${typed.json.file.cols[0].uid}`;
    const plot = await createPlot(alice, { figure: { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc }] } });
    const content = await call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`);
    expect(content.json.data).toEqual([{ type: 'bar', x: [1, 2, 3], y: [10, 20, 30] }]);
  });

  it('a filename already used in the folder is 400 "already exists", for any file type', async () => {
    const alice = await newUser('grid');
    const first = await postGrid(alice, { filename: 'dup', data: { cols: { a: { data: [1], order: 0 } } } });
    expect(first.status).toBe(201);
    const again = await postGrid(alice, { filename: 'dup', data: { cols: { a: { data: [2], order: 0 } } } });
    expectError(again, 400, clash('dup'));
    const plot = await call('POST', '/v2/plots', { user: alice, body: { filename: 'dup', figure: { data: [] } } });
    expectError(plot, 400, clash('dup'));
    // Another owner may use the name; so may the same owner in another folder.
    expect((await postGrid(await newUser('grid'), { filename: 'dup', data: { cols: { a: { data: [1], order: 0 } } } })).status).toBe(201);
    expect((await call('POST', '/v2/folders', { user: alice, body: { path: 'elsewhere' } })).status).toBe(201);
    expect((await postGrid(alice, { filename: 'dup', parent_path: 'elsewhere', data: { cols: { a: { data: [1], order: 0 } } } })).status).toBe(201);
  });
});

describe('GET and DELETE /v2/grids/{fid}', () => {
  it('GET answers the metadata with column names and uids', async () => {
    const alice = await newUser('grid');
    const grid = await uploadGrid(alice, { x: [1], y: [2] }, { filename: 'meta' });
    for (const user of [alice, null]) {
      const res = await call('GET', `/v2/grids/${grid.fid}`, { user });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        fid: grid.fid,
        filename: 'meta',
        filetype: 'grid',
        owner: alice.username,
        world_readable: true,
        web_url: `${baseUrl()}/~${alice.username}/1/`,
        cols: grid.file.cols,
      });
      expect(res.json.current_user_permission).toBe(user ? 'write' : 'read');
    }
  });

  it('DELETE by the owner answers 204, then every URL of the grid answers 404', async () => {
    const alice = await newUser('grid');
    const grid = await uploadGrid(alice, { x: [1] }, { filename: 'doomed' });
    const del = await call('DELETE', `/v2/grids/${grid.fid}`, { user: alice });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await call('GET', `/v2/grids/${grid.fid}`, { user: alice }), 404);
    expectError(await call('GET', `/v2/grids/${grid.fid}/content`, { user: alice }), 404);
    expectError(await call('GET', `/v2/files/${grid.fid}`, { user: alice }), 404);
    expectError(await call('GET', '/v2/files/lookup?path=doomed', { user: alice }), 404);
    expectError(await call('DELETE', `/v2/grids/${grid.fid}`, { user: alice }), 404);
    // Its columns no longer resolve as src references.
    const plot = await call('POST', '/v2/plots', { user: alice, body: { figure: { data: [{ type: 'bar', ysrc: grid.src('x') }] } } });
    expectError(plot, 400, 'figure.data[0].ysrc');
  });

  it('DELETE of a plot fid on the grids path is a 404', async () => {
    const alice = await newUser('grid');
    const grid = await uploadGrid(alice, { x: [1] });
    const plot = await createPlot(alice, { figure: { data: [{ type: 'bar', ysrc: grid.src('x') }] } });
    expectError(await call('DELETE', `/v2/grids/${plot.fid}`, { user: alice }), 404);
    expect((await call('GET', `/v2/plots/${plot.fid}`)).status).toBe(200);
  });
});

describe('folders and lookup', () => {
  it('POST /v2/folders {"path": "a/b"} answers 201 and creates the missing parents; an existing folder is 400', async () => {
    const alice = await newUser('fold');
    const res = await call('POST', '/v2/folders', { user: alice, body: { path: 'a/b' } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.file).toMatchObject({ fid: `${alice.username}:2`, filename: 'b', filetype: 'fold', owner: alice.username, parent: 1 });
    const a = await call('GET', '/v2/files/lookup?path=a', { user: alice });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ fid: `${alice.username}:1`, filename: 'a', filetype: 'fold', parent: -1 });
    const b = await call('GET', '/v2/files/lookup?path=a/b', { user: alice });
    expect(b.json).toMatchObject({ fid: `${alice.username}:2`, filetype: 'fold' });

    expectError(await call('POST', '/v2/folders', { user: alice, body: { path: 'a/b' } }), 400, 'already exists');
    expectError(await call('POST', '/v2/folders', { user: alice, body: { path: 'a' } }), 400, 'already exists');
    const c = await call('POST', '/v2/folders', { user: alice, body: { path: 'a/b/c' } });
    expect(c.status).toBe(201);
    expect(c.json.file).toMatchObject({ fid: `${alice.username}:3`, filename: 'c', parent: 2 });
  });

  it('finds plots, grids and folders by path, with their filetype; 404 when missing', async () => {
    const alice = await newUser('fold');
    expect((await call('POST', '/v2/folders', { user: alice, body: { path: 'dir/sub' } })).status).toBe(201);
    const grid = await uploadGrid(alice, { x: [1, 2] }, { filename: 'g', parent_path: 'dir/sub' });
    const plot = await createPlot(alice, { filename: 'p', parent_path: 'dir', figure: { data: [{ type: 'bar', ysrc: grid.src('x') }] } });
    expect(grid.fid).toBe(`${alice.username}:3`);
    expect(plot.fid).toBe(`${alice.username}:4`);
    expect(plot.parent).toBe(1);

    const lookup = (path: string, user: TestUser | null = alice, extra = '') =>
      call('GET', `/v2/files/lookup?path=${encodeURIComponent(path)}${extra}`, { user });
    const g = await lookup('dir/sub/g');
    expect(g.status).toBe(200);
    expect(g.json).toMatchObject({ fid: grid.fid, filetype: 'grid', filename: 'g', parent: 2 });
    const p = await lookup('dir/p');
    expect(p.json).toMatchObject({ fid: plot.fid, filetype: 'plot', filename: 'p', parent: 1 });
    expect((await lookup('dir')).json).toMatchObject({ fid: `${alice.username}:1`, filetype: 'fold' });
    expect((await lookup('/dir/sub/')).json).toMatchObject({ fid: `${alice.username}:2`, filetype: 'fold' });

    for (const missing of ['dir/nothing', 'nothing', 'dir/sub/p', 'g', 'dir/sub/g/deeper']) expectError(await lookup(missing), 404);
    // Another caller names the owner; anonymous too.
    const bob = await newUser('fold');
    expect((await lookup('dir/p', bob, `&user=${alice.username}`)).json.fid).toBe(plot.fid);
    expect((await lookup('dir/sub/g', null, `&user=${alice.username}`)).json.fid).toBe(grid.fid);
    // Without user=, the path is the caller's own.
    expectError(await lookup('dir/p', bob), 404);
    expectError(await lookup('dir/p', null), 404);
    expectError(await lookup('dir/p', bob, `&user=nosuchuser${Date.now()}`), 404);
  });

  it('GET /v2/files/{fid} answers each file type', async () => {
    const alice = await newUser('fold');
    const grid = await uploadGrid(alice, { x: [1] }, { filename: 'the grid' });
    const plot = await createPlot(alice, { filename: 'the plot', figure: { data: [{ type: 'bar', ysrc: grid.src('x') }] } });
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'the folder' } });
    for (const [fid, filetype, filename] of [
      [grid.fid, 'grid', 'the grid'],
      [plot.fid, 'plot', 'the plot'],
      [folder.json.file.fid, 'fold', 'the folder'],
    ]) {
      const res = await call('GET', `/v2/files/${fid}`);
      expect(res.status, `${fid} ${res.text}`).toBe(200);
      expect(res.json).toMatchObject({ fid, filetype, filename, owner: alice.username });
      // The spec's time formats, whichever code builds the record: microseconds, then milliseconds.
      expect(res.json.creation_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      expect(res.json.date_modified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expectError(await call('GET', `/v2/files/${alice.username}:99`), 404);
  });

  it('GET /v2/folders/{owner}:{n} and /v2/folders/home?user=owner answer 200 with the folder', async () => {
    const alice = await newUser('fold');
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'top' } });
    await uploadGrid(alice, { x: [1] }, { filename: 'inside', parent_path: 'top' });
    await uploadGrid(alice, { x: [1] }, { filename: 'outside' });
    const res = await call('GET', `/v2/folders/${folder.json.file.fid}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ fid: `${alice.username}:1`, filetype: 'fold', filename: 'top' });
    const home = await call('GET', `/v2/folders/home?user=${alice.username}`);
    expect(home.status, home.text).toBe(200);
    const own = await call('GET', '/v2/folders/home', { user: alice });
    expect(own.status).toBe(200);
    // The api_urls.parent of a top-level file is this URL: it must answer.
    const grid = await call('GET', `/v2/files/lookup?path=outside`, { user: alice });
    const parentUrl = new URL(grid.json.api_urls.parent);
    expect(parentUrl.pathname + parentUrl.search).toBe(`/v2/folders/home?user=${alice.username}`);
    expect((await call('GET', parentUrl.pathname + parentUrl.search)).status).toBe(200);
    const inner = await call('GET', `/v2/files/lookup?path=top/inside`, { user: alice });
    const innerParent = new URL(inner.json.api_urls.parent);
    expect(innerParent.pathname).toBe(`/v2/folders/${alice.username}:1`);
    expect((await call('GET', innerParent.pathname)).status).toBe(200);
  });
});

describe('fids', () => {
  it('count per owner across file types and are never reused after a delete', async () => {
    const alice = await newUser('fid');
    const bob = await newUser('fid');
    const g1 = await uploadGrid(alice, { x: [1] });
    expect(g1.fid).toBe(`${alice.username}:1`);
    const p2 = await createPlot(alice, { figure: { data: [{ type: 'bar', ysrc: g1.src('x') }] } });
    expect(p2.fid).toBe(`${alice.username}:2`);
    const f = await call('POST', '/v2/folders', { user: alice, body: { path: 'f1/f2' } });
    expect(f.json.file.fid).toBe(`${alice.username}:4`);
    // Bob's counter is his own.
    expect((await uploadGrid(bob, { x: [1] })).fid).toBe(`${bob.username}:1`);
    const g5 = await uploadGrid(alice, { x: [1] });
    expect(g5.fid).toBe(`${alice.username}:5`);
    expect((await call('DELETE', `/v2/grids/${g5.fid}`, { user: alice })).status).toBe(204);
    const g6 = await uploadGrid(alice, { x: [1] });
    expect(g6.fid).toBe(`${alice.username}:6`);
    expect((await call('DELETE', `/v2/plots/${p2.fid}/permanent_delete`, { user: alice })).status).toBe(204);
    const p7 = await createPlot(alice, { figure: { data: [{ type: 'bar', ysrc: g6.src('x') }] } });
    expect(p7.fid).toBe(`${alice.username}:7`);
    expectError(await call('GET', `/v2/plots/${p2.fid}`), 404);
    // A refused create takes no number.
    expectError(await call('POST', '/v2/plots', { user: alice, body: { figure: { data: [{ type: 'bar', y: [1] }] } } }), 400);
    expectError(await postGrid(alice, { data: { cols: { a: { data: {}, order: 0 } } } }), 400);
    expect(nOf((await uploadGrid(alice, { x: [1] })).fid)).toBeGreaterThan(7);
  });

  it('concurrent creates by one owner get distinct numbers', async () => {
    const alice = await newUser('fid');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 2
          ? call('POST', '/v2/folders', { user: alice, body: { path: `folder ${i}` } })
          : postGrid(alice, { filename: `g${i}`, data: { cols: { a: { data: [i], order: 0 } } } }),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(201);
    const numbers = results.map((r) => nOf(r.json.file.fid));
    expect(new Set(numbers).size).toBe(12);
    for (const n of numbers) expect(n).toBeGreaterThanOrEqual(1);
  });
});

describe("the official client's overwrite flow", () => {
  it('lookup name_grid, delete it, upload again under the same name, then update the plot found by path', async () => {
    const alice = await newUser('client');
    // First upload, as chart_studio.plotly.plot(fig, filename="report") does it.
    const grid1 = await uploadGrid(alice, { x: [1, 2, 3], y: [1, 4, 9] }, { filename: 'report_grid' });
    const plot = await createPlot(alice, {
      filename: 'report',
      figure: { data: [{ type: 'scatter', xsrc: grid1.src('x'), ysrc: grid1.src('y') }], layout: { title: { text: 'v1' } } },
    });
    const created = await call('GET', `/v2/plots/${plot.fid}`);

    // Second run with overwrite.
    const found = await call('GET', '/v2/files/lookup?path=report_grid', { user: alice });
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ fid: grid1.fid, filetype: 'grid' });
    expect((await call('DELETE', `/v2/grids/${found.json.fid}`, { user: alice })).status).toBe(204);
    const again = await postGrid(alice, {
      filename: 'report_grid',
      data: { cols: { x: { data: [1, 2, 3, 4], order: 0 }, y: { data: [2, 4, 6, 8], order: 1 } } },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.json.file.filename).toBe('report_grid');
    expect(nOf(again.json.file.fid)).toBeGreaterThan(nOf(plot.fid));
    const src = (name: string) => `${again.json.file.fid}:${again.json.file.cols.find((c: { name: string }) => c.name === name).uid}`;

    const plotFound = await call('GET', '/v2/files/lookup?path=report', { user: alice });
    expect(plotFound.status).toBe(200);
    expect(plotFound.json).toMatchObject({ fid: plot.fid, filetype: 'plot' });
    const figure = { data: [{ type: 'scatter', xsrc: src('x'), ysrc: src('y') }], layout: { title: { text: 'v2' } } };
    const put = await call('PUT', `/v2/plots/${plotFound.json.fid}`, { user: alice, body: { figure, world_readable: true } });
    expect(put.status, put.text).toBe(200);
    // Unwrapped: the record itself, not {"file": ...}.
    expect(put.json).not.toHaveProperty('file');
    expect(put.json).toMatchObject({
      fid: plot.fid,
      filename: 'report',
      title: 'v2',
      figure,
      creation_time: created.json.creation_time,
      views: created.json.views,
    });
    const content = await call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`);
    expect(content.json.data).toEqual([{ type: 'scatter', x: [1, 2, 3, 4], y: [2, 4, 6, 8] }]);
    expect(content.json.layout).toEqual({ title: { text: 'v2' } });
  });
});
