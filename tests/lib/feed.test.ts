// GET /v2/plots/feed through the library: handpicked public plots, a random order fixed by the seed in
// the cursor, every plot once per walk, back links consistent.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { plots as plotsTable } from '@/db/schema';
import type { Viewer } from '@/lib/core/accounts/auth';
import { curatePlot } from '@/lib/core/plots/curation';
import { trashFile } from '@/lib/core/files/file-changes';
import { createPlot } from '@/lib/core/plots/plots';
import { feedQuerySchema, listQuerySchema } from '@/lib/http/request/queries';
import { listFeed, listPlots } from '@/lib/core/plots/plot-lists';
import { parseFid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, fileIds, ORIGIN, people, textOf } from './_helpers';
import { pageLinks } from '@/lib/http/responses';

interface Body {
  next: string | null;
  previous: string | null;
  results: { fid: string; world_readable: boolean }[];
}

const PAGE = 4;

async function feedPage(db: Db, url: string, viewer: Viewer | null = null): Promise<Body> {
  const u = new URL(url);
  const page = await listFeed(db, viewer, feedQuerySchema.parse(Object.fromEntries(u.searchParams)), ORIGIN, pageLinks(ORIGIN, u));
  const body = JSON.parse(await textOf(page)) as Body;
  expect(Object.keys(body).sort()).toEqual(['next', 'previous', 'results']);
  return body;
}

const first = (extra = '') => `${ORIGIN}/v2/plots/feed?page_size=${PAGE}${extra}`;

async function walk(db: Db, start: string, viewer: Viewer | null = null): Promise<Body[]> {
  const pages: Body[] = [];
  let url: string | null = start;
  while (url) {
    const body = await feedPage(db, url, viewer);
    pages.push(body);
    if (pages.length > 100) throw new Error('runaway walk');
    url = body.next;
  }
  return pages;
}

async function walkBack(db: Db, last: Body): Promise<Body[]> {
  const pages = [last];
  let url = last.previous;
  while (url) {
    const body = await feedPage(db, url);
    pages.push(body);
    if (pages.length > 100) throw new Error('runaway walk');
    url = body.previous;
  }
  return pages.reverse();
}

const fids = (pages: Body[]) => pages.flatMap((p) => p.results.map((r) => r.fid));
const seedOf = (url: string) => {
  const [payload] = new URL(url).searchParams.get('cursor')!.split('.');
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: string }).s;
};

describe.each(SQL_DRIVER)('GET /v2/plots/feed (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  const picked: string[] = []; // public, live, handpicked: the feed
  const hidden: string[] = []; // handpicked but private or trashed
  const plain: string[] = []; // public, not handpicked

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
    const make = async (owner: Viewer, body: Record<string, unknown>) =>
      (JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'scatter' }] }, ...body }, ORIGIN)) as { file: { fid: string } }).file.fid;
    for (let i = 0; i < 25; i++) picked.push(await make(i % 3 ? alice : bob, {}));
    for (let i = 0; i < 6; i++) hidden.push(await make(i % 2 ? alice : bob, { world_readable: false, share_key_enabled: i % 3 === 0 }));
    for (let i = 0; i < 12; i++) plain.push(await make(alice, {}));
    const trashed: string[] = [];
    for (let i = 0; i < 3; i++) trashed.push(await make(bob, {}));
    // The operator command for most, a direct update for a few (the flag is what counts).
    const ids = await fileIds(db);
    for (const [k, fid] of [...picked, ...hidden, ...trashed].entries()) {
      if (k % 5 === 0)
        await db
          .update(plotsTable)
          .set({ handpicked: true })
          .where(eq(plotsTable.fileId, ids.get(fid)!));
      else {
        const out = await curatePlot(db, fid, { handpicked: 'true', quality: String(k % 11) });
        expect(out).toEqual({ fid, quality: k % 11, handpicked: true });
      }
    }
    for (const fid of trashed) await trashFile(db, bob, parseFid(fid)!, 'plot');
    hidden.push(...trashed);
  });

  it('a walk shows every public handpicked plot exactly once, and nothing else', async () => {
    const pages = await walk(db, first());
    expect(pages.length).toBe(Math.ceil(picked.length / PAGE));
    pages.forEach((p, k) => {
      expect(p.results.length).toBe(k < pages.length - 1 ? PAGE : picked.length - PAGE * (pages.length - 1));
      expect(p.previous === null).toBe(k === 0);
      expect(p.next === null).toBe(k === pages.length - 1);
      expect(p.results.every((r) => r.world_readable)).toBe(true);
    });
    const got = fids(pages);
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual([...picked].sort());
  });

  it('the owner of private handpicked plots does not see them in the feed either', async () => {
    const got = fids(await walk(db, first(), alice));
    expect([...got].sort()).toEqual([...picked].sort());
    for (const fid of hidden) expect(got).not.toContain(fid);
  });

  it('two walks are each complete and (with 25! orders) differ; one seed holds for a whole walk', async () => {
    const a = await walk(db, first());
    const b = await walk(db, first());
    expect([...fids(a)].sort()).toEqual([...picked].sort());
    expect([...fids(b)].sort()).toEqual([...picked].sort());
    expect(fids(a)).not.toEqual(fids(b));
    // Every link of one walk carries the same seed; the two walks' seeds differ.
    const seedsA = new Set(
      a
        .flatMap((p) => [p.next, p.previous])
        .filter((l): l is string => !!l)
        .map(seedOf),
    );
    expect(seedsA.size).toBe(1);
    expect([...seedsA][0]).toMatch(/^[0-9a-f]{8,}$/);
    expect(seedOf(b[0].next!)).not.toBe([...seedsA][0]);
  });

  it('a cursor always answers the same page (the order is fixed by its seed)', async () => {
    const p1 = await feedPage(db, first());
    const again = await feedPage(db, p1.next!);
    const twice = await feedPage(db, p1.next!);
    expect(twice).toEqual(again);
    // Pages of one walk never overlap.
    const inP1 = new Set(p1.results.map((r) => r.fid));
    expect(again.results.filter((r) => inP1.has(r.fid))).toEqual([]);
  });

  it('previous links walk back through the same pages', async () => {
    const pages = await walk(db, first());
    const back = await walkBack(db, pages[pages.length - 1]);
    expect(back.map((p) => p.results.map((r) => r.fid))).toEqual(pages.map((p) => p.results.map((r) => r.fid)));
    expect(back[0].previous).toBeNull();
    // From a page reached backwards, next is the page after it.
    for (let k = 0; k < back.length - 1; k++) {
      const nextPage = await feedPage(db, back[k].next!);
      expect(nextPage.results.map((r) => r.fid)).toEqual(pages[k + 1].results.map((r) => r.fid));
    }
  });

  it('links keep the other query parameters', async () => {
    const p1 = await feedPage(db, first('&format=api'));
    const p2 = await feedPage(db, p1.next!);
    for (const link of [p1.next!, p2.next!, p2.previous!]) {
      const u = new URL(link);
      expect(u.origin + u.pathname).toBe(`${ORIGIN}/v2/plots/feed`);
      expect(Object.fromEntries([...u.searchParams].filter(([k]) => k !== 'cursor'))).toEqual({ page_size: String(PAGE), format: 'api' });
    }
  });

  it('a page size that divides the feed exactly: the last page is full and has no next', async () => {
    const pages = await walk(db, `${ORIGIN}/v2/plots/feed?page_size=5`);
    expect(pages.map((p) => p.results.length)).toEqual([5, 5, 5, 5, 5]);
    expect(pages[4].next).toBeNull();
    expect([...fids(pages)].sort()).toEqual([...picked].sort());
  });

  it('a page size of 100 is one page of the whole feed', async () => {
    const body = await feedPage(db, `${ORIGIN}/v2/plots/feed?page_size=100`);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    expect(body.results.map((r) => r.fid).sort()).toEqual([...picked].sort());
  });

  it('a tampered feed cursor, or a list cursor, is 400', async () => {
    const p1 = await feedPage(db, first());
    const cursor = new URL(p1.next!).searchParams.get('cursor')!;
    const [payload, mac] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    // Same position, another seed (would reorder the walk): refused without the service's signature.
    const reseeded = `${Buffer.from(JSON.stringify({ ...decoded, s: '000000000000' })).toString('base64url')}.${mac}`;
    for (const bad of [reseeded, `${payload.slice(1)}.${mac}`, `${payload}.${mac.slice(0, -2)}`, 'x.y']) {
      await expectApiError(feedPage(db, `${first()}&cursor=${encodeURIComponent(bad)}`), 400, /cursor/i);
    }
    const listUrl = new URL(`${ORIGIN}/v2/plots?page_size=2`);
    const list = JSON.parse(await textOf(await listPlots(db, null, listQuerySchema.parse({ page_size: '2' }), ORIGIN, pageLinks(ORIGIN, listUrl)))) as Body;
    const listCursor = new URL(list.next!).searchParams.get('cursor')!;
    await expectApiError(feedPage(db, `${first()}&cursor=${encodeURIComponent(listCursor)}`), 400, /cursor/i);
  });

  it('un-picking and trashing take plots out of the feed at once', async () => {
    await curatePlot(db, picked[0], { handpicked: 'false' });
    await trashFile(db, alice, parseFid(picked[1])!, 'plot'); // i = 1: alice's
    const got = fids(await walk(db, first()));
    expect([...got].sort()).toEqual(picked.slice(2).sort());
  });
});
