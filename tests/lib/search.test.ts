// Search through the library, on PostgreSQL and PGlite: what is found (title, filename, owner,
// caption, type:), what never is (private, secret, trashed plots of others), the ranking, the
// switch to newest-first past MAX_RANKED matches, and paging both ways through the cursors.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { trashFile } from '@/lib/core/files/file-changes';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { MAX_RANKED, parseSearch, SEARCH_WALK, searchPlotRows, searchPlots } from '@/lib/core/plots/search';
import { searchQuerySchema } from '@/lib/http/request/queries';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, newViewer, ORIGIN, textOf } from './_helpers';
import { pageLinks } from '@/lib/http/responses';

interface Body {
  next: string | null;
  previous: string | null;
  results: { fid: string; title: string; world_readable: boolean }[];
}

const FID = sql`u.username || ':' || f.n AS fid`;

describe.each(SQL_DRIVER)('search (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  const made: Record<string, string> = {};

  const make = async (name: string, owner: Viewer, body: Record<string, unknown>) => {
    const fid = (JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'scatter' }] }, ...body }, ORIGIN)) as { file: { fid: string } }).file.fid;
    made[name] = fid;
    return fid;
  };

  /** The fids a search finds, every page walked forward, in order. */
  const find = async (q: string, viewer: Viewer | null = null, scope: 'public' | 'own' = 'public', pageSize = 50) => {
    const out: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchPlotRows<{ fid: string }>(db, viewer, FID, { q, page_size: pageSize, cursor }, ORIGIN, { scope });
      out.push(...page.rows.map((r) => r.fid));
      cursor = page.next ?? undefined;
    } while (cursor);
    return out;
  };

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'alice');
    bob = await newViewer(db, 'bob.jones');
    await db.execute(sql`UPDATE users SET nickname = 'Robert Quux' WHERE id = ${bob.id}`);
    await make('rainTitle', alice, { title: 'Rainfall in Lisbon', filename: 'weather one' });
    await make('rainFile', alice, { title: 'Weather two', filename: 'rainfall_by-month.csv' });
    await make('rainCaption', bob, { title: 'Weather three', caption: 'Monthly rainfall, measured daily.' });
    await make('heat', bob, { title: 'Temperature grid', figure: { data: [{ type: 'heatmap' }, { type: 'bar' }] } });
    await make('private', alice, { title: 'Rainfall secret diary', world_readable: false });
    await make('secret', bob, { title: 'Rainfall shared link', world_readable: false, share_key_enabled: true });
    await make('trashed', bob, { title: 'Rainfall in the bin' });
    await trashFile(db, bob, parseFid(made.trashed)!, 'plot');
  });

  it('finds words in titles, filenames, owner names and captions, title matches first', async () => {
    expect(await find('rainfall')).toEqual([made.rainTitle, made.rainFile, made.rainCaption]);
    expect(await find('RAINFALL lisbon')).toEqual([made.rainTitle]);
    expect(await find('month')).toEqual([made.rainFile]);
    expect(await find('quux')).toEqual([made.heat, made.rainCaption]);
    expect(await find('bob.jones')).toEqual([made.heat, made.rainCaption]);
    expect(await find('jones')).toEqual([made.heat, made.rainCaption]);
    expect(await find('rainfall -lisbon')).toEqual([made.rainFile, made.rainCaption]);
    expect((await find('"in lisbon" or temperature')).sort()).toEqual([made.heat, made.rainTitle].sort());
    expect(await find('"lisbon in"')).toEqual([]);
    expect(await find('nothingmatcheshere')).toEqual([]);
  });

  it('type: filters by trace type (scatter when a trace names none), alone or with words', async () => {
    expect(await find('type:heatmap')).toEqual([made.heat]);
    expect(await find('TYPE:bar temperature')).toEqual([made.heat]);
    expect(await find('type:bar rainfall')).toEqual([]);
    expect(await find('type:scatter rainfall')).toEqual([made.rainTitle, made.rainFile, made.rainCaption]);
    expect(parseSearch('a type:Heatmap b type:bar')).toEqual({ words: 'a  b', types: ['heatmap', 'bar'] });
    await expectApiError(searchPlotRows(db, null, FID, { q: 'type:' }, ORIGIN, { scope: 'public' }), 400, /type:heatmap/);
    await expectApiError(searchPlotRows(db, null, FID, { q: "type:x'y" }, ORIGIN, { scope: 'public' }), 400, /type:/);
  });

  it('public scope: never private, secret or trashed plots, whoever asks; own scope: the viewer’s own, private and secret too, never trashed', async () => {
    for (const viewer of [null, alice, bob]) {
      const got = await find('rainfall', viewer);
      for (const hidden of [made.private, made.secret, made.trashed]) expect(got).not.toContain(hidden);
    }
    expect(await find('rainfall', alice, 'own')).toEqual([made.private, made.rainTitle, made.rainFile]);
    expect(await find('rainfall', bob, 'own')).toEqual([made.secret, made.rainCaption]);
    expect(await find('rainfall', null, 'own')).toEqual([]);
  });

  it('follows renames, title, caption and figure changes, and owner renames', async () => {
    await updateFileDetail(db, alice, parseFid(made.rainFile)!, { filename: 'drizzle totals' }, ORIGIN, 'plot');
    expect(await find('month')).toEqual([]);
    expect(await find('drizzle')).toEqual([made.rainFile]);
    await updateFileDetail(db, alice, parseFid(made.rainTitle)!, { caption: 'zanzibar', figure: { data: [{ type: 'pie' }] } }, ORIGIN, 'plot');
    expect(await find('zanzibar type:pie')).toEqual([made.rainTitle]);
    expect(await find('type:scatter rainfall')).toEqual([made.rainCaption]);
    await db.execute(sql`UPDATE users SET nickname = 'Bobby' WHERE id = ${bob.id}`);
    expect(await find('quux')).toEqual([]);
    expect(await find('bobby')).toEqual([made.heat, made.rainCaption]);
  });

  it('checks q: required, at most 200 characters and 12 terms, something to search for', () => {
    const issue = (q: unknown) => searchQuerySchema.safeParse(q === undefined ? {} : { q }).error?.issues[0];
    expect(issue(undefined)?.path).toEqual(['q']);
    expect(issue('   ')?.message).toMatch(/required/);
    expect(issue('x'.repeat(201))?.message).toMatch(/200/);
    expect(issue(Array.from({ length: 13 }, (_, i) => `w${i}`).join(' '))?.message).toMatch(/12 terms/);
    expect(issue('?! --')?.message).toMatch(/letter or a digit/);
    expect(issue('a'.repeat(200))).toBeUndefined();
  });

  it('searchPlotRows itself keeps to the limits (server actions call it with any text)', async () => {
    const err = await expectApiError(searchPlotRows(db, null, FID, { q: 'x'.repeat(201) }, ORIGIN, { scope: 'public' }), 400, /200 characters/);
    expect(err.errors[0].field).toBe('q');
    await expectApiError(searchPlotRows(db, null, FID, { q: '' }, ORIGIN, { scope: 'own' }), 400, /q is required/);
  });

  it('ranks, then pages by (rank, created_at, id) both ways; past MAX_RANKED matches, newest first', async () => {
    // 30 plots: titles with "kiwi" once or twice, and a few with it only in the caption.
    const expected: { fid: string; score: number; k: number }[] = [];
    for (let k = 0; k < 30; k++) {
      const twice = k % 3 === 0;
      const inCaption = k % 7 === 0;
      const fid = await make(
        `kiwi${k}`,
        k % 2 ? alice : bob,
        inCaption ? { title: `fruit ${k}`, caption: 'kiwi' } : { title: twice ? `kiwi kiwi ${k}` : `kiwi ${k}` },
      );
      expected.push({ fid, score: inCaption ? 0 : twice ? 2 : 1, k });
    }
    expected.sort((a, b) => b.score - a.score || b.k - a.k);
    const want = expected.map((e) => e.fid);
    expect(await find('kiwi', null, 'public', 7)).toEqual(want);
    // Back from the last page, through the previous links, to the first.
    let page = await searchPlotRows<{ fid: string }>(db, null, FID, { q: 'kiwi', page_size: 7 }, ORIGIN, { scope: 'public' });
    const pages = [page.rows.map((r) => r.fid)];
    while (page.next) {
      page = await searchPlotRows<{ fid: string }>(db, null, FID, { q: 'kiwi', page_size: 7, cursor: page.next }, ORIGIN, { scope: 'public' });
      pages.push(page.rows.map((r) => r.fid));
    }
    const back = [page.rows.map((r) => r.fid)];
    while (page.previous) {
      page = await searchPlotRows<{ fid: string }>(db, null, FID, { q: 'kiwi', page_size: 7, cursor: page.previous }, ORIGIN, { scope: 'public' });
      back.unshift(page.rows.map((r) => r.fid));
    }
    expect(back).toEqual(pages);
    expect(page.rows[0].rank).not.toBeNull();
    // A cursor is bound to its query and scope.
    const next = (await searchPlotRows(db, null, FID, { q: 'kiwi', page_size: 7 }, ORIGIN, { scope: 'public' })).next!;
    await expectApiError(searchPlotRows(db, null, FID, { q: 'fruit', cursor: next }, ORIGIN, { scope: 'public' }), 400, /cursor/i);
    await expectApiError(searchPlotRows(db, alice, FID, { q: 'kiwi', cursor: next }, ORIGIN, { scope: 'own' }), 400, /cursor/i);

    // More than MAX_RANKED matches: newest first, the key without a rank.
    const [{ id }] = await queryRows<{ id: number }>(db, sql`SELECT id FROM users WHERE username = 'alice'`);
    await db.execute(sql`
      WITH f AS (INSERT INTO files (owner_id, n, filetype, filename) SELECT ${id}::int, 100000 + g, 'plot', 'bulk ' || g FROM generate_series(1, ${MAX_RANKED + 5}::int) g RETURNING id, n)
      INSERT INTO plots (file_id, figure, title) SELECT id, '{"data":[]}'::jsonb, 'plenty ' || n FROM f`);
    const bulk = await searchPlotRows<{ fid: string }>(db, null, FID, { q: 'plenty', page_size: 10 }, ORIGIN, { scope: 'public' });
    expect(bulk.rows.map((r) => r.fid)).toEqual(Array.from({ length: 10 }, (_, i) => `alice:${100000 + MAX_RANKED + 5 - i}`));
    expect(bulk.rows.every((r) => r.rank === null)).toBe(true);
    const second = await searchPlotRows<{ fid: string }>(db, null, FID, { q: 'plenty', page_size: 10, cursor: bulk.next! }, ORIGIN, { scope: 'public' });
    expect(second.rows.map((r) => r.fid)[0]).toBe(`alice:${100000 + MAX_RANKED - 5}`);
  });

  it('a page reads a bounded number of plots: a common word only in old plots gives an empty page that resumes past the walk', async () => {
    // SEARCH_WALK + 10 old public plots titled "ancient" (two of them violins), then SEARCH_WALK newer ones without it.
    const [{ id }] = await queryRows<{ id: number }>(db, sql`SELECT id FROM users WHERE username = 'bob.jones'`);
    const old = SEARCH_WALK + 10;
    await db.execute(sql`
      WITH f AS (INSERT INTO files (owner_id, n, filetype, filename, created_at)
                 SELECT ${id}::int, 200000 + g, 'plot', 'old ' || g, timestamptz '2001-01-01' + g * interval '1 second' FROM generate_series(1, ${old}::int) g RETURNING id, n, created_at)
      INSERT INTO plots (file_id, figure, title, created_at)
      SELECT id, CASE WHEN n IN (200001, 200002) THEN '{"data":[{"type":"violin"}]}' ELSE '{"data":[]}' END::jsonb, 'ancient ' || n, created_at FROM f`);
    await db.execute(sql`
      WITH f AS (INSERT INTO files (owner_id, n, filetype, filename) SELECT ${id}::int, 300000 + g, 'plot', 'new ' || g FROM generate_series(1, ${SEARCH_WALK}::int) g RETURNING id, n)
      INSERT INTO plots (file_id, figure, title) SELECT id, '{"data":[]}'::jsonb, 'recent ' || n FROM f`);
    await db.execute(sql`ANALYZE plots`);
    const search = (q: string, cursor?: string) => searchPlotRows<{ fid: string }>(db, null, FID, { q, page_size: 10, cursor }, ORIGIN, { scope: 'public' });
    const fids = (page: { rows: { fid: string }[] }) => page.rows.map((r) => r.fid);

    // The newest SEARCH_WALK plots hold no match and more than SEARCH_WALK older ones do: nothing yet, and a way on.
    const first = await search('ancient');
    expect(fids(first)).toEqual([]);
    expect(first.previous).toBeNull();
    expect(first.next).not.toBeNull();
    // The next page resumes where the walk stopped and finds the newest matches.
    const second = await search('ancient', first.next!);
    expect(fids(second)).toEqual(Array.from({ length: 10 }, (_, i) => `bob.jones:${200000 + old - i}`));
    const third = await search('ancient', second.next!);
    expect(fids(third)[0]).toBe(`bob.jones:${200000 + old - 10}`);
    // Back from the second page: nothing newer matches; going back reads a bounded stretch too, so it
    // takes two steps (the plots newer than the second page: SEARCH_WALK, then the rest) to know it.
    const back = await search('ancient', second.previous!);
    expect(fids(back)).toEqual([]);
    const top = await search('ancient', back.previous!);
    expect(fids(top)).toEqual([]);
    expect(top.previous).toBeNull();
    expect(fids(await search('ancient', third.previous!))).toEqual(fids(second));

    // The owner's own search walks their plots the same way (private and secret included).
    const bobId = { id, username: 'bob.jones' };
    const own = (cursor?: string) => searchPlotRows<{ fid: string }>(db, bobId, FID, { q: 'ancient', page_size: 10, cursor }, ORIGIN, { scope: 'own' });
    const ownFirst = await own();
    expect(fids(ownFirst)).toEqual([]);
    expect(fids(await own(ownFirst.next!))).toEqual(fids(second));

    // Few matches past the walk are read through the index: the page is complete at once, and the last.
    const violins = await search('type:violin');
    expect(fids(violins)).toEqual(['bob.jones:200002', 'bob.jones:200001']);
    expect(violins.next).toBeNull();
  }, 120_000);

  it('GET /v2/search answers the list shape with links that keep q', async () => {
    const url = new URL(`${ORIGIN}/v2/search?q=kiwi&page_size=5`);
    const body = JSON.parse(
      await textOf(await searchPlots(db, null, searchQuerySchema.parse(Object.fromEntries(url.searchParams)), ORIGIN, pageLinks(ORIGIN, url))),
    ) as Body;
    expect(Object.keys(body)).toEqual(['next', 'previous', 'results']);
    expect(body.results).toHaveLength(5);
    expect(body.previous).toBeNull();
    expect(new URL(body.next!).searchParams.get('q')).toBe('kiwi');
    expect(body.results.every((r) => r.world_readable)).toBe(true);
  });
});
