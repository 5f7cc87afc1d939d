// A plot's data table page (`/~owner/n/data-table?page=k`) over HTTP: a real table, a bounded page of
// rows and columns, Next/Previous links (carrying a secret link's key), any `page` value answered
// (never an error), and the plot page's permissions: a private plot's table is byte for byte the 404
// of a missing plot's, a secret one opens with its key alone, a grid has none.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { CELL_CHARS, TABLE_COLUMNS, TABLE_ROWS } from '@/lib/shared/figures/chart-table';
import { appDatabase, call as callRaw, canonical, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';

/** File numbers canonical() masks, apart from other suites' ranges. */
const BASE_N = 4_750_000;
const MISSING_N = 4_759_999;

const ROWS = TABLE_ROWS * 2 + 7;

/** A call whose page text reads as written: React's markers between adjacent texts taken out. */
async function call(...args: Parameters<typeof callRaw>) {
  const res = await callRaw(...args);
  return { ...res, text: res.text.replace(/<!-- -->/g, '') };
}

describe('the data table page', () => {
  let alice: TestUser;
  let bob: TestUser;
  let pub: { owner: string; n: number };
  let priv: { owner: string; n: number };
  let secret: { owner: string; n: number; key: string };
  let grid: { owner: string; n: number };
  let wide: { owner: string; n: number };

  const at = (fid: string) => ({ owner: fid.split(':')[0], n: Number(fid.split(':')[1]) });
  const path = (f: { owner: string; n: number }, query = '') => `/~${f.owner}/${f.n}/data-table${query}`;

  beforeAll(async () => {
    alice = await newUser('table');
    bob = await newUser('tablesnoop');
    const { db } = await appDatabase();
    await queryRows(db, sql`UPDATE users SET file_counter = ${BASE_N} WHERE username = ${alice.username}`);
    const g = await uploadGrid(alice, { day: Array.from({ length: ROWS }, (_, i) => `day ${i + 1}`), sold: Array.from({ length: ROWS }, (_, i) => i) });
    grid = at(g.fid);
    const hidden = await uploadGrid(alice, { a: ['PRIVATE-VALUE'], b: [1] }, { world_readable: false });
    const figure = { data: [{ type: 'bar', name: 'Sold', xsrc: g.src('day'), ysrc: g.src('sold') }] };
    pub = at((await createPlot(alice, { filename: 'table public', figure })).fid);
    priv = at(
      (await createPlot(alice, { filename: 'table private', world_readable: false, figure: { data: [{ xsrc: hidden.src('a'), ysrc: hidden.src('b') }] } })).fid,
    );
    const s = await createPlot(alice, { filename: 'table secret', world_readable: false, share_key_enabled: true, figure });
    secret = { ...at(s.fid), key: s.share_key };
    const notes = await uploadGrid(alice, { note: ['w'.repeat(CELL_CHARS * 5)] });
    const traces = Array.from({ length: TABLE_COLUMNS }, (_, i) => ({ name: `t${i}`, xsrc: g.src('day'), ysrc: g.src('sold'), textsrc: notes.src('note') }));
    wide = at((await createPlot(alice, { filename: 'table wide', figure: { data: traces } })).fid);
  });

  const rowsOf = (html: string) => [...html.matchAll(/<tr><th scope="row" class="row-number">([\d,]+)<\/th>/g)].map((m) => Number(m[1].replace(/,/g, '')));

  it('is a real table with a caption, column headers named by trace and field, and row headers', async () => {
    const res = await call('GET', path(pub));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<caption id="data-table-caption">');
    expect(res.text).toMatch(/<th scope="col">Sold <span class="field-name">x<\/span><\/th><th scope="col">Sold <span class="field-name">y<\/span><\/th>/);
    expect(rowsOf(res.text)).toEqual(Array.from({ length: TABLE_ROWS }, (_, i) => i + 1));
    expect(res.text).toContain('<td>day 1</td><td>0</td>');
    expect(res.text).toContain(`rel="next" href="${path(pub, '?page=2')}"`);
    expect(res.text).not.toContain('rel="prev"');
  });

  it('pages with Next and Previous links; any other page value shows a page, never an error', async () => {
    const second = await call('GET', path(pub, '?page=2'));
    expect(rowsOf(second.text)).toEqual(Array.from({ length: TABLE_ROWS }, (_, i) => TABLE_ROWS + i + 1));
    expect(second.text).toContain(`rel="prev" href="${path(pub)}"`);
    expect(second.text).toContain(`rel="next" href="${path(pub, '?page=3')}"`);
    const last = await call('GET', path(pub, '?page=3'));
    expect(rowsOf(last.text)).toEqual(Array.from({ length: 7 }, (_, i) => TABLE_ROWS * 2 + i + 1));
    expect(last.text).not.toContain('rel="next"');
    for (const [query, first] of [
      ['?page=99999', TABLE_ROWS * 2 + 1],
      ['?page=0', 1],
      ['?page=-4', 1],
      ['?page=abc', 1],
      ['?page=1e400', 1],
      ['?page=2&page=3', TABLE_ROWS + 1],
    ] as const) {
      const res = await call('GET', path(pub, query));
      expect(res.status, query).toBe(200);
      expect(rowsOf(res.text)[0], query).toBe(first);
    }
  });

  it('is bounded: columns capped with a note, long values cut short', async () => {
    const res = await call('GET', path(wide));
    expect(res.status).toBe(200);
    expect([...res.text.matchAll(/<th scope="col">/g)]).toHaveLength(TABLE_COLUMNS);
    expect(res.text).toContain(`Showing the first ${TABLE_COLUMNS} of ${TABLE_COLUMNS * 3} columns.`);
    expect(res.text).toContain(`<td>${'w'.repeat(CELL_CHARS - 1)}…</td>`);
    expect(res.text).not.toContain('w'.repeat(CELL_CHARS + 1));
  });

  it('has the plot page’s permissions: a private plot’s table is the 404 of a missing one, byte for byte', async () => {
    const missing = await call('GET', path({ owner: alice.username, n: MISSING_N }));
    expect(missing.status).toBe(404);
    for (const user of [null, bob]) {
      const refused = await call('GET', path(priv), { user });
      expect(refused.status).toBe(404);
      expect(refused.text).not.toContain('PRIVATE-VALUE');
      const twin = await call('GET', path({ owner: alice.username, n: MISSING_N }), { user });
      expect(canonical(refused.text)).toBe(canonical(twin.text));
    }
    const own = await call('GET', path(priv), { user: alice });
    expect(own.status).toBe(200);
    expect(own.text).toContain('<td>PRIVATE-VALUE</td>');
  });

  it('opens a secret plot with its key alone, and its links carry the key', async () => {
    expect((await call('GET', path(secret))).status).toBe(404);
    expect((await call('GET', path(secret, '?share_key=wrong'))).status).toBe(404);
    const res = await call('GET', path(secret, `?share_key=${secret.key}`));
    expect(res.status).toBe(200);
    expect(res.text).toContain(`rel="next" href="${path(secret, `?page=2&amp;share_key=${secret.key}`)}"`);
    expect(res.text).toContain(`href="/~${secret.owner}/${secret.n}/?share_key=${secret.key}"`);
  });

  it('a grid has no data table (its own page is its table)', async () => {
    expect((await call('GET', path(grid))).status).toBe(404);
  });

  it('the plot page and the embed link to it', async () => {
    for (const page of [`/~${pub.owner}/${pub.n}/`, `/~${pub.owner}/${pub.n}.embed`]) {
      const res = await call('GET', page);
      expect(res.text, page).toContain(`href="${path(pub)}"`);
      expect(res.text, page).toMatch(/id="chart-description"[^>]*>Bar chart: table public\./);
    }
  });
});
