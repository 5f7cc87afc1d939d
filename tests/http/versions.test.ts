// Versions of every save (docs/api.md "Versions") over HTTP, on PostgreSQL and on PGlite: the list,
// one version, the restore, for plots and grids; writers alone (everyone else: the 404 of a missing
// file); missing versions 404; the bounds of docs/limits.md hold.
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSION_BOUNDS } from '@/lib/core/files/versions';
import { expectError, type TestUser } from '../support/api';
import { AUTH_REQUIRED, DATE_MODIFIED, keysOf } from '../support/plots';
import { servers, type Server } from '../support/servers';

type Rec = Record<string, any>;
type Grid = Awaited<ReturnType<Server['uploadGrid']>>;

const PYTHON = { 'Plotly-Client-Platform': 'python 5.24.1', 'User-Agent': 'python-requests/2.32.3' };
const R = { 'User-Agent': 'libcurl/8.5.0 r-curl/5.2.1 httr/1.4.7' };
const BROWSER = { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' };

describe.each(servers())('versions, on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  const figure = (name: string, title: string) => ({
    data: [{ type: 'bar', name, xsrc: grid.src('x'), ysrc: grid.src('y') }],
    layout: { title: { text: title } },
  });
  const newPlot = async (extra: Rec = {}) => {
    const res = await s.call('POST', '/v2/plots', { user: alice, headers: PYTHON, body: { figure: figure('first', 'First title'), ...extra } });
    expect(res.status, res.text).toBe(200);
    return res.json.file as Rec;
  };
  const versions = async (path: string, user: TestUser = alice) => {
    const out: Rec[] = [];
    for (let url: string | null = `${path}?page_size=3`; url; ) {
      const res: { status: number; text: string; json: Rec } = await s.call('GET', url, { user });
      expect(res.status, res.text).toBe(200);
      out.push(...res.json.results);
      url = res.json.next ? new URL(res.json.next).pathname + new URL(res.json.next).search : null;
    }
    return out;
  };

  beforeAll(async () => {
    alice = await s.newUser('ver');
    bob = await s.newUser('verb');
    grid = await s.uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6] });
  });

  it("a plot's saves from each client are its versions, newest first, paged; each version holds its figure", async () => {
    const plot = await newPlot();
    const patched = await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, headers: R, body: { figure: figure('second', 'Second title') } });
    expect(patched.status, patched.text).toBe(200);
    expect((await s.call('PUT', `/v2/plots/${plot.fid}`, { user: alice, headers: BROWSER, body: { title: 'Given' } })).status).toBe(200);
    expect((await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { caption: 'a caption is no version' } })).status).toBe(200);
    expect((await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { title: 'Fourth' } })).status).toBe(200);

    const first = await s.call('GET', `/v2/plots/${plot.fid}/versions?page_size=2`, { user: alice });
    expect(first.status).toBe(200);
    expect(keysOf(first.json)).toEqual(['next', 'previous', 'results']);
    expect(first.json.previous).toBeNull();
    expect(first.json.results.map((v: Rec) => keysOf(v))).toEqual(Array(2).fill(['author', 'client', 'date_modified', 'title', 'version']));
    const second = await s.call('GET', new URL(first.json.next).pathname + new URL(first.json.next).search, { user: alice });
    expect(second.json.results.map((v: Rec) => v.version)).toEqual([2, 1]);
    expect(second.json.next).toBeNull();
    expect(second.json.previous).toEqual(expect.stringContaining(`/v2/plots/${plot.fid}/versions?page_size=2&cursor=`));

    const all = await versions(`/v2/plots/${plot.fid}/versions`);
    expect(all.map((v) => [v.version, v.author, v.client, v.title])).toEqual([
      [4, alice.username, 'api', 'Fourth'],
      [3, alice.username, 'web', 'Given'],
      [2, alice.username, 'r', 'Second title'],
      [1, alice.username, 'python', 'First title'],
    ]);
    for (const v of all) expect(v.date_modified).toMatch(DATE_MODIFIED);

    const one = await s.call('GET', `/v2/plots/${plot.fid}/versions/1`, { user: alice });
    expect(one.status).toBe(200);
    expect(one.json).toEqual({ ...all[3], figure: figure('first', 'First title') });
    const current = await s.call('GET', `/v2/plots/${plot.fid}/versions/4`, { user: alice });
    expect(current.json.figure).toEqual((await s.call('GET', `/v2/plots/${plot.fid}`, { user: alice })).json.figure);
  });

  it('a restore makes a version current as a new version and answers the plot detail', async () => {
    const plot = await newPlot();
    await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { figure: figure('second', 'Second title') } });
    const res = await s.call('POST', `/v2/plots/${plot.fid}/versions/1/restore`, { user: alice, headers: R });
    expect(res.status, res.text).toBe(200);
    const detail = (await s.call('GET', `/v2/plots/${plot.fid}`, { user: alice })).json;
    expect(keysOf(res.json)).toEqual(keysOf(detail));
    expect(res.json.title).toBe('First title');
    expect(res.json.figure).toEqual(figure('first', 'First title'));
    expect(detail.figure).toEqual(figure('first', 'First title'));
    const all = await versions(`/v2/plots/${plot.fid}/versions`);
    expect(all.map((v) => [v.version, v.client, v.title])).toEqual([
      [3, 'r', 'First title'],
      [2, 'api', 'Second title'],
      [1, 'python', 'First title'],
    ]);
    // The version's content, drawn as the plot page draws the current one.
    const content = await s.call('GET', `/v2/plots/${plot.fid}/versions/2/content?inline_data=true`, { user: alice });
    expect(content.status).toBe(200);
    expect(content.json.data[0]).toMatchObject({ name: 'second', x: [1, 2, 3], y: [4, 5, 6] });
  });

  it('readers who are not writers, and everyone else, get the 404 of a missing plot; a missing version is 404', async () => {
    const plot = await newPlot();
    const missing = `${alice.username}:99999`;
    for (const [method, path] of [
      ['GET', 'versions'],
      ['GET', 'versions/1'],
      ['GET', 'versions/1/content'],
      ['POST', 'versions/1/restore'],
    ] as const) {
      const got = await s.call(method, `/v2/plots/${plot.fid}/${path}`, { user: bob });
      expectError(got, 404);
      expect(got.text).toBe((await s.call(method, `/v2/plots/${missing}/${path}`, { user: bob })).text);
      if (method === 'GET') expectError(await s.call(method, `/v2/plots/${plot.fid}/${path}`), 404);
      else expectError(await s.call(method, `/v2/plots/${plot.fid}/${path}`), 401, AUTH_REQUIRED);
    }
    for (const n of ['2', '0', 'abc', '99999999999']) {
      expectError(await s.call('GET', `/v2/plots/${plot.fid}/versions/${n}`, { user: alice }), 404);
      expectError(await s.call('POST', `/v2/plots/${plot.fid}/versions/${n}/restore`, { user: alice }), 404);
    }
    // Nothing changed.
    expect((await versions(`/v2/plots/${plot.fid}/versions`)).map((v) => v.version)).toEqual([1]);
    // A grid's fid under /v2/plots is no plot.
    expectError(await s.call('GET', `/v2/plots/${grid.fid}/versions`, { user: alice }), 404);
    expectError(await s.call('GET', `/v2/plots/${plot.fid}/versions?page_size=0`, { user: alice }), 400, 'page_size');
    expectError(await s.call('GET', `/v2/plots/${plot.fid}/versions?cursor=forged.cursor`, { user: alice }), 400, 'cursor');
  });

  it("a grid's column changes are its versions; a restore brings the columns back and the plots drawn from it follow", async () => {
    const g = await s.uploadGrid(alice, { a: [1, 2], b: [3, 4] });
    const [a, b] = g.file.cols;
    const plot = await s.createPlot(alice, { figure: { data: [{ type: 'scatter', xsrc: g.src('a'), ysrc: g.src('b') }] } });
    const put = await s.call('PUT', `/v2/grids/${g.fid}/col?uid=${b.uid}`, { user: alice, headers: PYTHON, body: { cols: [{ name: 'b', data: [30, 40] }] } });
    expect(put.status, put.text).toBe(200);
    expect((await s.call('POST', `/v2/grids/${g.fid}/row`, { user: alice, body: { rows: [[5, 50]] } })).status).toBe(200);
    const all = await versions(`/v2/grids/${g.fid}/versions`);
    expect(all.map((v) => [v.version, v.client])).toEqual([
      [3, 'api'],
      [2, 'python'],
      [1, 'api'],
    ]);
    expect(keysOf(all[0])).toEqual(['author', 'client', 'date_modified', 'version']);
    const one = await s.call('GET', `/v2/grids/${g.fid}/versions/1`, { user: alice });
    expect(one.status).toBe(200);
    expect(one.json.cols).toEqual([
      { name: 'a', uid: a.uid, order: 0, data: [1, 2] },
      { name: 'b', uid: b.uid, order: 1, data: [3, 4] },
    ]);
    const restored = await s.call('POST', `/v2/grids/${g.fid}/versions/1/restore`, { user: alice });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.cols).toEqual([
      { name: 'a', uid: a.uid },
      { name: 'b', uid: b.uid },
    ]);
    const content = await s.call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`, { user: alice });
    expect(content.json.data[0]).toMatchObject({ x: [1, 2], y: [3, 4] });
    expect((await versions(`/v2/grids/${g.fid}/versions`))[0].version).toBe(4);
    // Writers only; missing versions 404.
    const other = await s.call('GET', `/v2/grids/${g.fid}/versions`, { user: bob });
    expectError(other, 404);
    expect(other.text).toBe((await s.call('GET', `/v2/grids/${alice.username}:99999/versions`, { user: bob })).text);
    expectError(await s.call('POST', `/v2/grids/${g.fid}/versions/1/restore`, { user: bob }), 404);
    expectError(await s.call('GET', `/v2/grids/${g.fid}/versions/9`, { user: alice }), 404);
    expectError(await s.call('POST', `/v2/grids/${g.fid}/versions/9/restore`, { user: alice }), 404);
  });

  it(`the bounds hold: a grid keeps ${VERSION_BOUNDS.grid.versions} earlier versions, the oldest dropped first, never the current`, async () => {
    const g = await s.uploadGrid(alice, { a: [0] });
    const saves = VERSION_BOUNDS.grid.versions + 2;
    for (let i = 1; i <= saves; i++) {
      const res = await s.call('PUT', `/v2/grids/${g.fid}/col?uid=${g.file.cols[0].uid}`, { user: alice, body: { cols: [{ data: [i] }] } });
      expect(res.status, res.text).toBe(200);
    }
    const all = await versions(`/v2/grids/${g.fid}/versions`);
    expect(all).toHaveLength(VERSION_BOUNDS.grid.versions + 1);
    expect(all.map((v) => v.version)).toEqual(Array.from({ length: all.length }, (_, i) => saves + 1 - i));
    expectError(await s.call('GET', `/v2/grids/${g.fid}/versions/1`, { user: alice }), 404);
    expectError(await s.call('GET', `/v2/grids/${g.fid}/versions/2`, { user: alice }), 404);
    const oldest = await s.call('GET', `/v2/grids/${g.fid}/versions/3`, { user: alice });
    expect(oldest.json.cols[0].data).toEqual([2]);
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await s.call('GET', '/v2/openapi.json')).json;
    for (const path of [
      '/v2/plots/{fid}/versions',
      '/v2/plots/{fid}/versions/{n}',
      '/v2/plots/{fid}/versions/{n}/restore',
      '/v2/plots/{fid}/versions/{n}/content',
      '/v2/grids/{fid}/versions',
      '/v2/grids/{fid}/versions/{n}',
      '/v2/grids/{fid}/versions/{n}/restore',
    ])
      expect(doc.paths[path], path).toBeDefined();
  });
});
