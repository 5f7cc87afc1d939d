// GET /v2/search over HTTP: the list's page shape and records, its parameters' 400s, paging, and
// privacy: private, secret and trashed plots never appear, whoever asks.
// Suites share one server and database: every test searches for words only its own plots carry.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';
import { expectedRecord, keysOf, LIST_KEYS, n, pathOf, scatter, walk, type Rec } from '../support/plots';

describe('GET /v2/search', () => {
  const word = `zq${randomBytes(5).toString('hex')}`;
  let alice: TestUser;
  let bob: TestUser;
  let pub: Rec[];
  let heat: Rec;
  let priv: Rec;
  let secret: Rec;
  let trashed: Rec;
  const q = (text: string) => `/v2/search?q=${encodeURIComponent(text)}`;

  beforeAll(async () => {
    alice = await newUser('srch');
    bob = await newUser('srchb');
    const grid = await uploadGrid(alice, { x: [1], y: [2] });
    pub = [];
    for (let i = 0; i < 5; i++)
      pub.push(
        await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: `${word} public ${i}`, title: i === 4 ? `${word} in the title` : `plot ${i}` }),
      );
    heat = await createPlot(alice, { figure: { data: [{ type: 'heatmap', zsrc: grid.src('y') }] }, filename: `${word} heat` });
    priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, title: `${word} private`, world_readable: false });
    secret = await createPlot(alice, { figure: { data: [scatter(grid)] }, title: `${word} secret`, world_readable: false, share_key_enabled: true });
    trashed = await createPlot(alice, { figure: { data: [scatter(grid)] }, title: `${word} trashed` });
    expect((await call('POST', `/v2/plots/${trashed.fid}/trash`, { user: alice })).status).toBe(200);
  });

  it('answers the list page shape with list records, title matches first, then newest', async () => {
    const res = await call('GET', `${q(word)}&page_size=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toMatch(/^public/);
    expect(keysOf(res.json)).toEqual(['next', 'previous', 'results']);
    expect(res.json.previous).toBeNull();
    expect(res.json.next).toMatch(new RegExp(`^${baseUrl()}/v2/search\\?`));
    expect(new URL(res.json.next).searchParams.get('q')).toBe(word);
    const [first] = res.json.results as Rec[];
    expect(keysOf(first)).toEqual(LIST_KEYS);
    expect(first).toEqual(
      expectedRecord(alice.username, n(pub[4].fid), { filename: `${word} public 4`, title: `${word} in the title`, figure: pub[4].figure, permission: 'read' }),
    );
    const all = (await walk(`${q(word)}&page_size=2`)).map((r) => r.fid);
    expect(all).toEqual([pub[4], heat, pub[3], pub[2], pub[1], pub[0]].map((r) => r.fid));
  });

  it('never shows private, secret or trashed plots, to anyone (their owner included)', async () => {
    for (const user of [null, alice, bob]) {
      const all = (await walk(`${q(word)}&page_size=100`, { user })).map((r) => r.fid);
      expect(all).toHaveLength(6);
      for (const hidden of [priv, secret, trashed]) expect(all).not.toContain(hidden.fid);
    }
    for (const hidden of ['private', 'secret', 'trashed']) expect((await call('GET', q(`${word} ${hidden}`), { user: alice })).json.results).toEqual([]);
  });

  it('the owner sees write permission, others read', async () => {
    expect((await call('GET', q(`${word} title`), { user: alice })).json.results[0].current_user_permission).toBe('write');
    expect((await call('GET', q(`${word} title`), { user: bob })).json.results[0].current_user_permission).toBe('read');
    expect((await call('GET', q(`${word} title`), { user: bob })).headers.get('cache-control')).toMatch(/private/);
  });

  it('type: filters by trace type', async () => {
    expect((await walk(q(`${word} type:heatmap`))).map((r) => r.fid)).toEqual([heat.fid]);
    expect((await walk(q(`type:heatmap ${alice.username}`))).map((r) => r.fid)).toEqual([heat.fid]);
    expect(await walk(q(`${word} type:pie`))).toEqual([]);
  });

  it('previous walks back to the page before', async () => {
    const page1 = await call('GET', `${q(word)}&page_size=2`);
    const page2 = await call('GET', pathOf(page1.json.next));
    const back = await call('GET', pathOf(page2.json.previous));
    expect(back.json.results.map((r: Rec) => r.fid)).toEqual(page1.json.results.map((r: Rec) => r.fid));
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=%20%20', 'q'],
    [`q=${'a'.repeat(201)}`, '200 characters'],
    [`q=${Array.from({ length: 13 }, (_, i) => `w${i}`).join('+')}`, '12 terms'],
    ['q=%3F%21', 'letter or a digit'],
    ['q=type%3A', 'type:'],
    ['q=x&page_size=0', 'page_size'],
    ['q=x&page_size=101', 'page_size'],
    ['q=x&cursor=garbage', 'cursor'],
  ])('?%s → 400 naming %s', async (query, needle) => {
    const res = await call('GET', `/v2/search?${query}`);
    expectError(res, 400, needle);
    expect(res.json.errors[0].field).toBe(needle === 'page_size' || needle === 'cursor' ? needle : 'q');
  });

  it('a list cursor, or one of another query, is not this search’s → 400', async () => {
    const list = await call('GET', '/v2/plots?page_size=1');
    const listCursor = new URL(list.json.next).searchParams.get('cursor')!;
    expectError(await call('GET', `${q(word)}&cursor=${encodeURIComponent(listCursor)}`), 400, 'cursor');
    const mine = await call('GET', `${q(word)}&page_size=1`);
    const cursor = new URL(mine.json.next).searchParams.get('cursor')!;
    expectError(await call('GET', `${q('other words')}&cursor=${encodeURIComponent(cursor)}`), 400, 'cursor');
  });

  it('POST /v2/search → 405', async () => {
    expectError(await call('POST', '/v2/search', { user: alice, body: {} }), 405);
  });
});
