// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// GET /v2/plots/feed.
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, plots, users } from '@/db/schema';
import { appDatabase, baseUrl, call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';
import { expectedRecord, keysOf, LIST_KEYS, mine, n, pathOf, scatter, setPlot, walk, type Rec } from '../support/plots';

describe('GET /v2/plots/feed', () => {
  let alice: TestUser;
  let picked: Rec[];
  let notPicked: Rec;
  let privPicked: Rec;
  let trashedPicked: Rec;

  beforeAll(async () => {
    alice = await newUser('feed');
    const grid = await uploadGrid(alice, { x: [1], y: [2] });
    picked = [];
    for (let i = 0; i < 3; i++) picked.push(await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: `picked ${i}` }));
    notPicked = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    privPicked = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    trashedPicked = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    for (const r of [...picked, privPicked, trashedPicked]) await setPlot(r.fid, { handpicked: true });
    expect((await call('POST', `/v2/plots/${trashedPicked.fid}/trash`, { user: alice })).status).toBe(200);
  });

  it('only handpicked public live plots, each once', async () => {
    for (const who of [null, alice]) {
      const all = await walk('/v2/plots/feed?page_size=100', { user: who });
      expect(mine(all, alice.username).sort()).toEqual(picked.map((r) => r.fid).sort());
      const fids = all.map((r) => r.fid);
      expect(new Set(fids).size).toBe(fids.length);
      for (const r of all) expect(r.world_readable).toBe(true);
    }
    expect(notPicked.fid).toBeTruthy();
    expect(privPicked.fid).toBeTruthy();
  });

  it('every feed plot is a handpicked one', async () => {
    const { db } = await appDatabase();
    const all = await walk('/v2/plots/feed?page_size=100');
    const rows = await db
      .select({ owner: users.username, n: files.n, handpicked: plots.handpicked })
      .from(plots)
      .innerJoin(files, eq(files.id, plots.fileId))
      .innerJoin(users, eq(users.id, files.ownerId))
      .where(eq(plots.handpicked, true));
    const handpicked = new Set(rows.map((r) => `${r.owner}:${r.n}`));
    for (const r of all) expect(handpicked.has(r.fid), r.fid).toBe(true);
  });

  it('same page shape as the list: {next, previous, results}, list records, previous null on the first page', async () => {
    const res = await call('GET', '/v2/plots/feed?page_size=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(
      res.headers
        .get('vary')
        ?.split(',')
        .map((v) => v.trim().toLowerCase()),
    ).toContain('accept');
    expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
    expect(res.json.previous).toBeNull();
    expect(res.json.results).toHaveLength(1);
    expect(res.json.next).toMatch(new RegExp(`^${baseUrl()}/v2/plots/feed\\?`));
    const rec = (await walk('/v2/plots/feed?page_size=100')).find((r) => r.fid === picked[0].fid)!;
    expect(keysOf(rec)).toEqual(LIST_KEYS);
    expect(rec).toEqual(expectedRecord(alice.username, n(picked[0].fid), { filename: 'picked 0', figure: picked[0].figure, permission: 'read' }));
  });

  it('the owner sees write permission in the feed', async () => {
    const rec = (await walk('/v2/plots/feed?page_size=100', { user: alice })).find((r) => r.fid === picked[1].fid)!;
    expect(rec.current_user_permission).toBe('write');
  });

  it('walking the feed one plot a page shows each plot once, the same set as one big page', async () => {
    const big = (await walk('/v2/plots/feed?page_size=100')).map((r) => r.fid).sort();
    const small = (await walk('/v2/plots/feed?page_size=1')).map((r) => r.fid);
    expect(new Set(small).size).toBe(small.length);
    // Other suites may handpick plots meanwhile; ours are stable.
    for (const r of picked) expect(small).toContain(r.fid);
    expect(
      mine(
        small.map((fid) => ({ fid, owner: fid.split(':')[0] })),
        alice.username,
      ).sort(),
    ).toEqual(
      mine(
        big.map((fid) => ({ fid, owner: fid.split(':')[0] })),
        alice.username,
      ).sort(),
    );
  });

  it('previous walks back to the page before', async () => {
    const page1 = await call('GET', '/v2/plots/feed?page_size=1&format=api');
    const page2 = await call('GET', pathOf(page1.json.next));
    expect(new URL(page2.json.previous).searchParams.get('format')).toBe('api');
    const back = await call('GET', pathOf(page2.json.previous));
    expect(back.json.results.map((r: Rec) => r.fid)).toEqual(page1.json.results.map((r: Rec) => r.fid));
  });

  it.each(['cursor=garbage', 'page_size=0', 'page_size=101', 'page_size=x'])('?%s → 400', async (query) => {
    expectError(await call('GET', `/v2/plots/feed?${query}`), 400);
  });

  it('a list cursor is not a feed cursor → 400', async () => {
    const list = await call('GET', '/v2/plots?page_size=1');
    const cursor = new URL(list.json.next).searchParams.get('cursor')!;
    expectError(await call('GET', `/v2/plots/feed?cursor=${encodeURIComponent(cursor)}`), 400, 'cursor');
  });

  it('POST /v2/plots/feed → 405', async () => {
    expectError(await call('POST', '/v2/plots/feed', { user: alice, body: {} }), 405);
  });
});
