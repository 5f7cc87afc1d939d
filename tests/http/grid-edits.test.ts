// POST /v2/grids/{fid}/edits over HTTP (docs/api.md "Endpoints"): the grid editor's save, with bodies
// over 1 MiB checked off the event loop like the column verbs' (lib/http/grid-bodies.ts), the same
// 400s either way, the 409 of a stale base, and the owner alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { servers } from '../support/servers';

describe.each(servers())('grid edits on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await s.newUser('ge');
    bob = await s.newUser('geother');
  });

  const base = async (fid: string) => {
    const res = await s.call('GET', `/v2/grids/${fid}/edits`, { user: alice });
    expect(res.status).toBe(200);
    return res.json.base as string;
  };
  const columns = async (fid: string) => {
    const res = await s.call('GET', `/v2/grids/${fid}/content`, { user: alice });
    return Object.entries(res.json.cols as Record<string, { data: unknown[]; order: number }>)
      .sort((a, b) => a[1].order - b[1].order)
      .map(([name, c]) => [name, c.data.length > 5 ? c.data.length : c.data]);
  };

  it('saves small and large bodies alike (the large one in a body worker) and answers the new base and columns', async () => {
    const g = await s.uploadGrid(alice, { x: [1, 2], y: [3, 4] });
    const [x, y] = g.file.cols.map((c) => c.uid);
    const big = Array.from({ length: 300_000 }, (_, i) => i / 3);
    const first = await base(g.fid);
    const res = await s.call('POST', `/v2/grids/${g.fid}/edits`, {
      user: alice,
      body: {
        base: first,
        cols: [
          { uid: y, name: 'why' },
          { name: 'big', data: big },
          { uid: x, data: [9] },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.cols.map((c: { name: string }) => c.name)).toEqual(['why', 'big', 'x']);
    expect(res.json.base).toBe(await base(g.fid));
    expect(res.json.base).not.toBe(first);
    expect(await columns(g.fid)).toEqual([
      ['why', [3, 4]],
      ['big', 300_000],
      ['x', [9]],
    ]);
  });

  it('refuses a bad column with the same 400 small or large, and a stale base with 409, writing nothing', async () => {
    const g = await s.uploadGrid(alice, { x: [1, 2] });
    const [x] = g.file.cols.map((c) => c.uid);
    const b = await base(g.fid);
    const filler = Array.from({ length: 300_000 }, (_, i) => i);
    for (const data of [[1], filler]) {
      const raw = `{"base":"${b}","cols":[{"uid":"${x}","data":${JSON.stringify(data)}},{"name":"n","data":[1e400]}]}`;
      expectError(
        await s.call('POST', `/v2/grids/${g.fid}/edits`, { user: alice, raw, headers: { 'Content-Type': 'application/json' } }),
        400,
        'cols[1].data[0]',
      );
    }
    expectError(await s.call('POST', `/v2/grids/${g.fid}/edits`, { user: alice, body: { cols: [] } }), 400, 'base');
    await s.call('PUT', `/v2/grids/${g.fid}/col?uid=${x}`, { user: alice, body: { cols: [{ data: [5] }] } });
    const stale = await s.call('POST', `/v2/grids/${g.fid}/edits`, { user: alice, body: { base: b, cols: [] } });
    expectError(stale, 409, 'changed by someone else');
    expect(stale.json.errors[0].code).toBe('CONFLICT');
    expect(await columns(g.fid)).toEqual([['x', [5]]]);
  });

  it("is the owner's: 401 signed out, 404 to others for a private grid", async () => {
    const g = await s.uploadGrid(alice, { x: [1] }, { world_readable: false });
    const b = await base(g.fid);
    expectError(await s.call('POST', `/v2/grids/${g.fid}/edits`, { user: null, body: { base: b, cols: [] } }), 401);
    expectError(await s.call('POST', `/v2/grids/${g.fid}/edits`, { user: bob, body: { base: b, cols: [] } }), 404);
    expectError(await s.call('GET', `/v2/grids/${g.fid}/edits`, { user: bob }), 404);
    expect(await columns(g.fid)).toEqual([['x', [1]]]);
  });
});
