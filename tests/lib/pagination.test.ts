// GET /v2/plots through the library: keyset pages in every order, walked forward and back, against
// an order computed independently here from the data the test wrote.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { files, plots as plotsTable } from '@/db/schema';
import type { Viewer } from '@/lib/core/accounts/auth';
import { restoreFile, trashFile } from '@/lib/core/files/file-changes';
import { parseWith } from '@/lib/core/json-text';
import { createPlot } from '@/lib/core/plots/plots';
import { listFeed, listPlots } from '@/lib/core/plots/plot-lists';
import { listQuerySchema } from '@/lib/http/request/queries';
import { parseFid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, fileIds, newViewer, ORIGIN, textOf } from './_helpers';
import { pageLinks } from '@/lib/http/responses';

interface Rec {
  fid: string;
  views: number;
  world_readable: boolean;
  creation_time: string;
  owner: string;
}
interface Body {
  next: string | null;
  previous: string | null;
  results: Rec[];
}
interface Plot {
  i: number;
  fid: string;
  id: number;
  owner: Viewer;
  /** Microseconds since the epoch. */
  created: bigint;
  views: number;
  stars: number;
  quality: number;
  isPrivate: boolean;
  trashed: boolean;
}

const N = 104;
const BASE = '2025-06-01T00:00:00.000Z';
const BASE_US = BigInt(Date.parse(BASE)) * 1000n;

const isPrivate = (i: number) => i % 9 === 4;
const isSecret = (i: number) => i % 18 === 4;
const isTrashed = (i: number) => i % 11 === 7;
const isRestored = (i: number) => i % 33 === 18; // trashed, then restored: listed again
const viewsOf = (i: number) => (i * i * 31 + i * 7) % 5; // 0..4: many ties
const starsOf = (i: number) => (i * 13 + 5) % 4; // 0..3, ties unrelated to views
const qualityOf = (i: number) => (i * 7 + 3) % 11; // 0..10
// Eleven distinct minutes (many identical timestamps, unrelated to creation order); a few plots
// get extra microseconds so that sub-millisecond differences matter too.
const offsetUs = (i: number) => BigInt(((i * 5) % 11) * 60_000_000) + (i % 6 === 0 ? BigInt((i % 4) + 1) : 0n);

const pad = (n: number | bigint, w = 2) => String(n).padStart(w, '0');
function isoMicros(us: bigint): string {
  const d = new Date(Number(us / 1000n));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(
    d.getUTCSeconds(),
  )}.${pad(us % 1_000_000n, 6)}Z`;
}

// The spec's orders: newest = created_at desc, then file id desc; views orders break ties by newest.
const cmpNewest = (a: Plot, b: Plot) => (a.created === b.created ? b.id - a.id : a.created > b.created ? -1 : 1);
const ORDERINGS: Record<string, (a: Plot, b: Plot) => number> = {
  newest: cmpNewest,
  '-views': (a, b) => b.views - a.views || cmpNewest(a, b),
  views: (a, b) => a.views - b.views || cmpNewest(a, b),
  '-stars': (a, b) => b.stars - a.stars || cmpNewest(a, b),
  stars: (a, b) => a.stars - b.stars || cmpNewest(a, b),
};
const ORDER_NAMES = Object.keys(ORDERINGS);
const orderParam = (name: string) => (name === 'newest' ? undefined : name);

interface Filter {
  min_quality?: number;
  max_quality?: number;
}

function expected(all: Plot[], order: string, filter: Filter = {}): Plot[] {
  return all
    .filter((p) => !p.isPrivate && !p.trashed)
    .filter(
      (p) => (filter.min_quality === undefined || p.quality >= filter.min_quality) && (filter.max_quality === undefined || p.quality <= filter.max_quality),
    )
    .sort(ORDERINGS[order]);
}

function startUrl(params: Record<string, string | number | undefined>): string {
  const url = new URL('/v2/plots', ORIGIN);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** One page, as the route would answer `url` (the query parsed from the URL itself). */
async function fetchPage(db: Db, url: string, viewer: Viewer | null = null): Promise<Body> {
  const u = new URL(url);
  const query = listQuerySchema.parse(Object.fromEntries(u.searchParams));
  const page = await listPlots(db, viewer, query, ORIGIN, pageLinks(ORIGIN, u));
  const body = JSON.parse(await textOf(page)) as Body;
  expect(Object.keys(body).sort()).toEqual(['next', 'previous', 'results']);
  return body;
}

const params = (url: string) =>
  [...new URL(url).searchParams]
    .filter(([k]) => k !== 'cursor')
    .map(([k, v]) => `${k}=${v}`)
    .sort();

const cursorOf = (url: string) => new URL(url).searchParams.get('cursor')!;

/** Follows `next` from the first page to the last, checking the links' shape on the way. */
async function walkForward(db: Db, first: string, viewer: Viewer | null = null): Promise<{ pages: Body[]; urls: string[] }> {
  const pages: Body[] = [];
  const urls: string[] = [];
  let url: string | null = first;
  while (url) {
    urls.push(url);
    const body = await fetchPage(db, url, viewer);
    pages.push(body);
    for (const link of [body.next, body.previous]) {
      if (!link) continue;
      // Absolute, same path, every other query parameter kept, plus a cursor.
      expect(link.startsWith(`${ORIGIN}/v2/plots?`)).toBe(true);
      expect(params(link)).toEqual(params(first));
      expect(cursorOf(link)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    }
    if (pages.length > 500) throw new Error('runaway walk');
    url = body.next;
  }
  return { pages, urls };
}

/** Follows `previous` from `last` back to the first page. */
async function walkBack(db: Db, last: Body, viewer: Viewer | null = null): Promise<Body[]> {
  const pages: Body[] = [last];
  let url = last.previous;
  while (url) {
    const body = await fetchPage(db, url, viewer);
    pages.push(body);
    if (pages.length > 500) throw new Error('runaway walk');
    url = body.previous;
  }
  return pages.reverse();
}

const fidsOf = (pages: Body[]) => pages.map((p) => p.results.map((r) => r.fid));

describe.each(SQL_DRIVER)('GET /v2/plots pagination (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  const all: Plot[] = [];

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'alice');
    bob = await newViewer(db, 'Bob');
    const fids: string[] = [];
    for (let i = 0; i < N; i++) {
      const owner = i % 4 === 3 ? bob : alice;
      const text = await createPlot(
        db,
        owner,
        {
          figure: { data: [{ type: 'scatter', name: `trace ${i}` }], layout: { title: { text: `plot ${i}` } } },
          ...(isPrivate(i) ? { world_readable: false, share_key_enabled: isSecret(i) } : {}),
        },
        ORIGIN,
      );
      fids.push((JSON.parse(text) as { file: { fid: string } }).file.fid);
    }
    const ids = await fileIds(db);
    for (let i = 0; i < N; i++) {
      const owner = i % 4 === 3 ? bob : alice;
      const fid = fids[i];
      const id = ids.get(fid)!;
      expect(id).toBeTypeOf('number');
      if (isTrashed(i)) await trashFile(db, owner, parseFid(fid)!, 'plot');
      if (isRestored(i)) await restoreFile(db, owner, parseFid(fid)!, 'plot');
      await db
        .update(plotsTable)
        .set({ views: viewsOf(i), stars: starsOf(i), quality: qualityOf(i), handpicked: i % 10 === 0 })
        .where(eq(plotsTable.fileId, id));
      await db
        .update(files)
        .set({ createdAt: sql`${BASE}::timestamptz - (${offsetUs(i).toString()}::bigint * interval '1 microsecond')` })
        .where(eq(files.id, id));
      all.push({
        i,
        fid,
        id,
        owner,
        created: BASE_US - offsetUs(i),
        views: viewsOf(i),
        stars: starsOf(i),
        quality: qualityOf(i),
        isPrivate: isPrivate(i),
        trashed: isTrashed(i) && !isRestored(i),
      });
    }
  });

  it('the data set has the mix the tests rely on', () => {
    const listed = expected(all, 'newest');
    expect(all.filter((p) => p.isPrivate).length).toBeGreaterThanOrEqual(10);
    expect(all.filter((p) => p.trashed).length).toBeGreaterThanOrEqual(5);
    // Trashed then restored, public: listed again.
    expect(all.filter((p) => isRestored(p.i) && !p.isPrivate && !p.trashed).length).toBeGreaterThanOrEqual(2);
    expect(listed.length).toBe(all.length - all.filter((p) => p.isPrivate || p.trashed).length);
    // Identical timestamps: the file id tie-breaker decides.
    const stamps = new Map<bigint, number>();
    for (const p of listed) stamps.set(p.created, (stamps.get(p.created) ?? 0) + 1);
    expect([...stamps.values()].filter((c) => c > 1).length).toBeGreaterThanOrEqual(5);
    // Identical (views, timestamp) pairs too.
    const pairs = new Set<string>();
    let dup = 0;
    for (const p of listed) {
      const k = `${p.views}/${p.created}`;
      if (pairs.has(k)) dup++;
      pairs.add(k);
    }
    expect(dup).toBeGreaterThanOrEqual(3);
  });

  const cases: { order: string; size: number | undefined }[] = [];
  for (const order of ORDER_NAMES) for (const size of [1, 7, 20, undefined]) cases.push({ order, size });

  it.each(cases)('order $order, page_size $size: every public live plot exactly once, in order, back and forth', async ({ order, size }) => {
    const want = expected(all, order);
    const first = startUrl({ order_by: orderParam(order), page_size: size, format: 'api' });
    const { pages } = await walkForward(db, first);
    const perPage = size ?? 20;

    // Pages: full except the last; links present exactly where pages exist.
    expect(pages.length).toBe(Math.ceil(want.length / perPage));
    pages.forEach((p, k) => {
      expect(p.results.length).toBe(k < pages.length - 1 ? perPage : want.length - perPage * (pages.length - 1));
      expect(p.previous === null).toBe(k === 0);
      expect(p.next === null).toBe(k === pages.length - 1);
    });

    // Exactly the expected sequence (so: no private, trashed, duplicate or missing plot).
    const got = pages.flatMap((p) => p.results);
    expect(got.map((r) => r.fid)).toEqual(want.map((p) => p.fid));
    // The records carry the values the order is about.
    expect(got.map((r) => r.views)).toEqual(want.map((p) => p.views));
    expect(got.map((r) => r.creation_time)).toEqual(want.map((p) => isoMicros(p.created)));
    expect(got.every((r) => r.world_readable)).toBe(true);

    // Walking back from the last page gives the same pages, the first with previous null again.
    const back = await walkBack(db, pages[pages.length - 1]);
    expect(fidsOf(back)).toEqual(fidsOf(pages));
    expect(back[0].previous).toBeNull();
    if (pages.length > 1) expect(back[0].next).not.toBeNull();
  });

  it.each(ORDER_NAMES)('order %s: next from a page reached by walking back is the page after it', async (order) => {
    const want = expected(all, order);
    const { pages } = await walkForward(db, startUrl({ order_by: orderParam(order), page_size: 7 }));
    const back = await walkBack(db, pages[pages.length - 1]);
    for (let k = 0; k < back.length - 1; k++) {
      const again = await fetchPage(db, back[k].next!);
      expect(again.results.map((r) => r.fid)).toEqual(pages[k + 1].results.map((r) => r.fid));
    }
    expect(fidsOf(back).flat()).toEqual(want.map((p) => p.fid));
  });

  const filters: { order: string; size: number; filter: Filter }[] = [];
  for (const order of ORDER_NAMES) {
    filters.push({ order, size: 7, filter: { min_quality: 3, max_quality: 7 } });
    filters.push({ order, size: 1, filter: { min_quality: 8 } });
    filters.push({ order, size: 20, filter: { max_quality: 2 } });
    filters.push({ order, size: 3, filter: { min_quality: 5, max_quality: 5 } });
  }

  it.each(filters)('order $order, page_size $size, quality $filter', async ({ order, size, filter }) => {
    const want = expected(all, order, filter);
    expect(want.length).toBeGreaterThan(size); // several pages
    const first = startUrl({ order_by: orderParam(order), page_size: size, ...filter, format: 'api' });
    const { pages } = await walkForward(db, first);
    expect(pages[0].previous).toBeNull();
    expect(pages[pages.length - 1].next).toBeNull();
    expect(pages.flatMap((p) => p.results.map((r) => r.fid))).toEqual(want.map((p) => p.fid));
    const back = await walkBack(db, pages[pages.length - 1]);
    expect(fidsOf(back)).toEqual(fidsOf(pages));
  });

  it('the query: only views/-views orders, integer qualities, page_size 1..100 (else 400)', async () => {
    const parse = (q: Record<string, string>) => parseWith(listQuerySchema, q);
    for (const bad of <Record<string, string>[]>[
      { order_by: '-creation_time' },
      { order_by: 'creation_time' },
      { order_by: 'VIEWS' },
      { order_by: '' },
      { min_quality: 'x' },
      { max_quality: '1.5' },
      { min_quality: '' },
      { page_size: '0' },
      { page_size: '101' },
      { page_size: '-1' },
      { page_size: 'ten' },
    ]) {
      await expectApiError(
        Promise.resolve().then(() => parse(bad)),
        400,
        new RegExp(Object.keys(bad)[0]),
      );
    }
    expect(parse({ order_by: 'views', min_quality: '-1', max_quality: '10', page_size: '100' })).toEqual({
      order_by: 'views',
      min_quality: -1,
      max_quality: 10,
      page_size: 100,
    });
  });

  it('a filter nothing matches gives one empty page without links', async () => {
    const body = await fetchPage(db, startUrl({ min_quality: 7, max_quality: 6 }));
    expect(body).toEqual({ next: null, previous: null, results: [] });
    const none = await fetchPage(db, startUrl({ min_quality: 11, order_by: '-views', page_size: 1 }));
    expect(none).toEqual({ next: null, previous: null, results: [] });
  });

  it('a page size equal to the number of plots is one page with both links null', async () => {
    const want = expected(all, 'newest');
    const body = await fetchPage(db, startUrl({ page_size: want.length }));
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    expect(body.results.map((r) => r.fid)).toEqual(want.map((p) => p.fid));
    // One fewer: two pages, the second holding the oldest plot alone.
    const first = await fetchPage(db, startUrl({ page_size: want.length - 1 }));
    expect(first.next).not.toBeNull();
    const second = await fetchPage(db, first.next!);
    expect(second.results.map((r) => r.fid)).toEqual([want[want.length - 1].fid]);
    expect(second.next).toBeNull();
  });

  it('the owner of private plots sees the same public list (lists are public plots only)', async () => {
    const anonymous = await walkForward(db, startUrl({ page_size: 20 }));
    const asAlice = await walkForward(db, startUrl({ page_size: 20 }), alice);
    expect(fidsOf(asAlice.pages)).toEqual(fidsOf(anonymous.pages));
    const privateFids = new Set(all.filter((p) => p.isPrivate || p.trashed).map((p) => p.fid));
    expect(asAlice.pages.flatMap((p) => p.results).filter((r) => privateFids.has(r.fid))).toEqual([]);
  });

  it('next/previous keep every other query parameter, in any combination', async () => {
    const first = startUrl({ format: 'api', page_size: 5, order_by: '-views', min_quality: 1, max_quality: 9 });
    const p1 = await fetchPage(db, first);
    const p2 = await fetchPage(db, p1.next!);
    for (const link of [p1.next!, p2.next!, p2.previous!]) {
      const u = new URL(link);
      expect(u.origin + u.pathname).toBe(`${ORIGIN}/v2/plots`);
      expect(Object.fromEntries([...u.searchParams].filter(([k]) => k !== 'cursor'))).toEqual({
        format: 'api',
        page_size: '5',
        order_by: '-views',
        min_quality: '1',
        max_quality: '9',
      });
      expect(u.searchParams.getAll('cursor')).toHaveLength(1);
    }
    // The trailing-slash path keeps its own path.
    const slash = new URL('/v2/plots/?page_size=2', ORIGIN);
    const page = await listPlots(db, null, listQuerySchema.parse({ page_size: '2' }), ORIGIN, pageLinks(ORIGIN, slash));
    const next = (JSON.parse(await textOf(page)) as Body).next!;
    expect(next.startsWith(`${ORIGIN}/v2/plots/?`)).toBe(true);
    expect(new URL(next).searchParams.get('page_size')).toBe('2');
  });

  it('a cursor issued for one order is refused (400) by another, and by the feed', async () => {
    const byOrder: Record<string, string> = {};
    for (const order of ORDER_NAMES) {
      const body = await fetchPage(db, startUrl({ order_by: orderParam(order), page_size: 3 }));
      byOrder[order] = cursorOf(body.next!);
    }
    for (const issued of Object.keys(byOrder)) {
      for (const used of Object.keys(byOrder)) {
        const url = startUrl({ order_by: orderParam(used), page_size: 3, cursor: byOrder[issued] });
        if (issued === used) {
          await expect(fetchPage(db, url)).resolves.toBeTruthy();
        } else {
          await expectApiError(fetchPage(db, url), 400, /cursor/i);
        }
      }
      await expectApiError(listFeed(db, null, { cursor: byOrder[issued] }, ORIGIN, pageLinks(ORIGIN, new URL('/v2/plots/feed', ORIGIN))), 400, /cursor/i);
    }
    // And a feed cursor is refused by every list order.
    const feed = JSON.parse(await textOf(await listFeed(db, null, { page_size: 1 }, ORIGIN, pageLinks(ORIGIN, new URL('/v2/plots/feed', ORIGIN))))) as Body;
    expect(feed.next).not.toBeNull();
    for (const order of ORDER_NAMES) {
      await expectApiError(fetchPage(db, startUrl({ order_by: orderParam(order), cursor: cursorOf(feed.next!) })), 400, /cursor/i);
    }
  });

  it('a tampered or made-up cursor is 400', async () => {
    const body = await fetchPage(db, startUrl({ order_by: '-views', page_size: 4 }));
    const cursor = cursorOf(body.next!);
    const [payload, mac] = cursor.split('.');
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    const bad = [
      `${flip(payload, 0)}.${mac}`,
      `${flip(payload, Math.floor(payload.length / 2))}.${mac}`,
      `${flip(payload, payload.length - 1)}.${mac}`,
      `${payload}.${flip(mac, 0)}`,
      `${payload}.${mac}.x`,
      payload,
      `${payload}.`,
      // A payload rewritten to point elsewhere, keeping the original signature.
      `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), k: [0, BASE, 1] })).toString('base64url')}.${mac}`,
      'not-a-cursor',
      '%%%',
    ];
    for (const c of bad) {
      await expectApiError(fetchPage(db, startUrl({ order_by: '-views', page_size: 4, cursor: c })), 400, /cursor/i);
    }
    // The untouched cursor still works.
    const ok = await fetchPage(db, startUrl({ order_by: '-views', page_size: 4, cursor }));
    expect(ok.results).toHaveLength(4);
  });

  it('the plot a cursor points at may go away: the walk continues from its position, both ways', async () => {
    for (const order of ORDER_NAMES) {
      const want = expected(all, order).map((p) => p.fid);
      const p1 = await fetchPage(db, startUrl({ order_by: orderParam(order), page_size: 6 }));
      const p2 = await fetchPage(db, p1.next!);
      // The keys of p2's links are its first and last plots: trash both.
      const gone = [p2.results[0].fid, p2.results[5].fid];
      for (const fid of gone) await trashFile(db, all.find((p) => p.fid === fid)!.owner, parseFid(fid)!, 'plot');
      const p3 = await fetchPage(db, p2.next!);
      expect(p3.results.map((r) => r.fid)).toEqual(want.slice(12, 18));
      const back = await fetchPage(db, p2.previous!);
      expect(back.results.map((r) => r.fid)).toEqual(want.slice(0, 6));
      expect(back.previous).toBeNull();
      for (const fid of gone) await restoreFile(db, all.find((p) => p.fid === fid)!.owner, parseFid(fid)!, 'plot');
    }
  });

  it('a plot created or viewed mid-walk neither duplicates nor skips the others', async () => {
    // Newest first: a new plot sorts before the walk's position and is simply not seen.
    const want = expected(all, 'newest').map((p) => p.fid);
    const p1 = await fetchPage(db, startUrl({ page_size: 7 }));
    const p2 = await fetchPage(db, p1.next!);
    const created: string[] = [];
    const newText = await createPlot(db, alice, { figure: { data: [{ type: 'scatter' }] } }, ORIGIN);
    created.push((JSON.parse(newText) as { file: { fid: string } }).file.fid);
    const rest: Body[] = [];
    let url = p2.next;
    while (url) {
      const b = await fetchPage(db, url);
      rest.push(b);
      url = b.next;
    }
    expect([p1, p2, ...rest].flatMap((p) => p.results.map((r) => r.fid))).toEqual(want);
    // A fresh walk does show it first (its created_at is now, after every seeded time).
    const fresh = await fetchPage(db, startUrl({ page_size: 1 }));
    expect(fresh.results.map((r) => r.fid)).toEqual(created);
    await trashFile(db, alice, parseFid(created[0])!, 'plot');

    // Fewest views first: a new plot with 4 views (and the newest timestamp) sorts ahead of every
    // other 4-view plot, i.e. after the position of page 2: it shows up exactly once, in place.
    const ids = await fileIds(db);
    const v1 = await fetchPage(db, startUrl({ order_by: 'views', page_size: 7 }));
    const v2 = await fetchPage(db, v1.next!);
    const t2 = await createPlot(db, alice, { figure: { data: [{ type: 'bar' }] } }, ORIGIN);
    const fid2 = (JSON.parse(t2) as { file: { fid: string } }).file.fid;
    created.push(fid2);
    const ids2 = await fileIds(db);
    await db
      .update(plotsTable)
      .set({ views: 4 })
      .where(eq(plotsTable.fileId, ids2.get(fid2)!));
    const vrest: Body[] = [];
    url = v2.next;
    while (url) {
      const b = await fetchPage(db, url);
      vrest.push(b);
      url = b.next;
    }
    const listed = expected(all, 'views').map((p) => p.fid);
    const firstFour = expected(all, 'views').findIndex((p) => p.views === 4);
    expect(firstFour).toBeGreaterThan(14); // beyond the two pages already shown
    const wantViews = [...listed.slice(0, firstFour), fid2, ...listed.slice(firstFour)];
    expect([v1, v2, ...vrest].flatMap((p) => p.results.map((r) => r.fid))).toEqual(wantViews);
    expect(ids.size).toBe(ids2.size - 1);

    // Trashing a plot the walk has not reached yet removes it without disturbing the others.
    const m1 = await fetchPage(db, startUrl({ order_by: '-views', page_size: 10 }));
    const wantMv = expected(all, '-views').map((p) => p.fid);
    const victim = all.find((p) => p.fid === wantMv[30])!;
    await trashFile(db, victim.owner, parseFid(victim.fid)!, 'plot');
    const mrest: Body[] = [];
    url = m1.next;
    while (url) {
      const b = await fetchPage(db, url);
      mrest.push(b);
      url = b.next;
    }
    // fid2 (4 views, the newest timestamp) now leads the most viewed plots.
    expect([m1, ...mrest].flatMap((p) => p.results.map((r) => r.fid))).toEqual([fid2, ...wantMv.filter((f) => f !== victim.fid)]);

    // Leave the data set as it was for any later test.
    await restoreFile(db, victim.owner, parseFid(victim.fid)!, 'plot');
    await trashFile(db, alice, parseFid(fid2)!, 'plot');
    const after = await walkForward(db, startUrl({ page_size: 50 }));
    expect(after.pages.flatMap((p) => p.results.map((r) => r.fid))).toEqual(want);
  });
});
