// The workspace at many files (lib/core/files/own-files.ts, references.ts, bulk-changes.ts): kinds and orders
// with cursors bound to them, a plot's grids and a grid's plots for a page at once, several files
// changed in one transaction, the grids only a plot uses going with it, and the trash emptied.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { changeFiles, countTrash, emptyTrash } from '@/lib/core/workspace/bulk-changes';
import { createFolders } from '@/lib/core/files/files';
import { trashFile } from '@/lib/core/files/file-changes';
import { createGrid } from '@/lib/core/grids/grids';
import { listOwnFiles } from '@/lib/core/files/own-files';
import type { OwnFilter, OwnPlace, OwnSort } from '@/lib/shared/workspace-view';
import { VISIBILITY_FIELDS, type Visibility } from '@/lib/core/permissions';
import { createPlot } from '@/lib/core/plots/plots';
import { countPlotsOfGrids, gridKey, gridsOfPlots, gridsOnlyOf } from '@/lib/core/files/references';
import { parseFid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, fileIds, newViewer, ORIGIN } from './_helpers';

describe.each(SQL_DRIVER)('workspace files (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'Alice');
    bob = await newViewer(db, 'bob');
  });

  let count = 0;
  async function grid(owner: Viewer, extra: { filename?: string; parent_path?: string[]; sharing?: Visibility } = {}) {
    const { file } = await createGrid(
      db,
      owner,
      {
        filename: extra.filename ?? `g${++count}`,
        parent_path: extra.parent_path,
        ...VISIBILITY_FIELDS[extra.sharing ?? 'public'],
        data: { cols: { x: { data: [1, 2] }, y: { data: [3, 4] } } },
      },
      ORIGIN,
    );
    return { n: parseFid(file.fid)!.n, src: `${file.fid}:${file.cols[0].uid}` };
  }
  async function plot(owner: Viewer, grids: { src: string }[], extra: { filename?: string; parent_path?: string[]; sharing?: Visibility } = {}) {
    const text = await createPlot(
      db,
      owner,
      {
        filename: extra.filename ?? `p${++count}`,
        parent_path: extra.parent_path,
        ...VISIBILITY_FIELDS[extra.sharing ?? 'public'],
        figure: { data: grids.map((g) => ({ type: 'scatter', xsrc: g.src })) },
      },
      ORIGIN,
    );
    return parseFid((JSON.parse(text) as { file: { fid: string } }).file.fid)!.n;
  }
  const idOf = async (owner: Viewer, n: number) => (await fileIds(db)).get(`${owner.username}:${n}`)!;
  const setViews = (owner: Viewer, n: number, views: number) =>
    db.execute(sql`UPDATE plots SET views = ${views} WHERE file_id = (SELECT id FROM files WHERE owner_id = ${owner.id} AND n = ${n})`);
  const touch = (owner: Viewer, n: number, at: string) =>
    db.execute(sql`UPDATE files SET updated_at = ${at}::timestamptz WHERE owner_id = ${owner.id} AND n = ${n}`);

  async function walk(viewer: Viewer, place: OwnPlace, q: { size: number; filter?: OwnFilter; sort?: OwnSort }): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await listOwnFiles(db, viewer, place, { ...q, cursor });
      seen.push(...page.rows.map((r) => r.n));
      if (!page.next) return seen;
      cursor = page.next;
    }
    throw new Error('too many pages');
  }

  it('filters by kind and sorts by modified, name and views, each page by page and back', async () => {
    await createFolders(db, alice, ['sorts']);
    const g = await grid(alice, { filename: 'beta grid', parent_path: ['sorts'] });
    const a = await plot(alice, [g], { filename: 'alpha', parent_path: ['sorts'] });
    const c = await plot(alice, [], { filename: 'Charlie', parent_path: ['sorts'] });
    const d = await plot(alice, [], { filename: 'delta', parent_path: ['sorts'] });
    const sub = await createFolders(db, alice, ['sorts', 'echo']);
    const folder = (await listOwnFiles(db, alice, -1, { size: 100, filter: 'fold' })).rows.find((r) => r.filename === 'sorts')!.n;
    await db.execute(sql`UPDATE plots SET is_theme = true WHERE file_id = ${await idOf(alice, d)}`);
    await setViews(alice, a, 5);
    await setViews(alice, c, 9);
    await setViews(alice, d, 5);
    await touch(alice, c, '2026-01-01T00:00:00Z');
    await touch(alice, g.n, '2026-01-03T00:00:00Z');
    await touch(alice, a, '2026-01-02T00:00:00Z');
    await touch(alice, d, '2026-01-04T00:00:00Z');
    await touch(alice, sub.n, '2026-01-05T00:00:00Z');

    for (const size of [1, 2, 100]) {
      expect(await walk(alice, folder, { size })).toEqual([sub.n, d, g.n, a, c]);
      // Views: the folder first, then most first, ties newest first (grids have none).
      expect(await walk(alice, folder, { size, sort: 'views' })).toEqual([sub.n, c, d, a, g.n]);
      expect(await walk(alice, folder, { size, filter: 'plot' })).toEqual([a, c]);
      expect(await walk(alice, folder, { size, filter: 'theme' })).toEqual([d]);
      expect(await walk(alice, folder, { size, filter: 'grid' })).toEqual([g.n]);
      expect(await walk(alice, folder, { size, filter: 'fold' })).toEqual([sub.n]);
      expect(await walk(alice, folder, { size, filter: 'template' })).toEqual([]);
    }
    const byName = (await listOwnFiles(db, alice, folder, { size: 100, sort: 'name' })).rows.map((r) => r.filename);
    expect(await walk(alice, folder, { size: 1, sort: 'name' })).toEqual(
      (await listOwnFiles(db, alice, folder, { size: 100, sort: 'name' })).rows.map((r) => r.n),
    );
    expect(byName).toHaveLength(5);
    expect(byName.indexOf('alpha')).toBeLessThan(byName.indexOf('delta'));

    // Back from the third page of an order is the second.
    const first = await listOwnFiles(db, alice, folder, { size: 2, sort: 'views' });
    const second = await listOwnFiles(db, alice, folder, { size: 2, sort: 'views', cursor: first.next! });
    const third = await listOwnFiles(db, alice, folder, { size: 2, sort: 'views', cursor: second.next! });
    const back = await listOwnFiles(db, alice, folder, { size: 2, sort: 'views', cursor: third.previous! });
    expect(back.rows.map((r) => r.n)).toEqual(second.rows.map((r) => r.n));

    // A cursor is bound to its kind and order.
    await expectApiError(listOwnFiles(db, alice, folder, { size: 2, sort: 'name', cursor: first.next! }), 400, /cursor/);
    await expectApiError(listOwnFiles(db, alice, folder, { size: 2, sort: 'views', filter: 'plot', cursor: first.next! }), 400, /cursor/);
  });

  it("names a plot's readable grids, counts the rest, and counts a grid's plots, for a page at once", async () => {
    const mine = await grid(alice);
    const theirsPublic = await grid(bob, { filename: 'open' });
    const theirsPrivate = await grid(bob, { filename: 'closed' });
    const p = await plot(alice, [mine, theirsPublic, theirsPrivate]);
    // Bob made it private after Alice's plot drew from it.
    await db.execute(sql`UPDATE files SET world_readable = false WHERE owner_id = ${bob.id} AND n = ${theirsPrivate.n}`);
    const q = await plot(alice, [mine], { sharing: 'private' });
    const r = await plot(bob, [mine]);
    const lone = await plot(alice, []);
    const ids = await Promise.all([p, q, lone].map((n) => idOf(alice, n)));
    const grids = await gridsOfPlots(db, alice.id, ids);
    expect(grids.get(ids[0])).toEqual({
      grids: [
        { owner: 'Alice', n: mine.n, filename: expect.any(String) },
        { owner: 'bob', n: theirsPublic.n, filename: 'open' },
      ],
      hidden: 1,
    });
    expect(grids.get(ids[1])?.grids.map((g) => g.n)).toEqual([mine.n]);
    expect(grids.has(ids[2])).toBe(false);
    // Bob sees his own private grid named, and Alice's public one.
    expect((await gridsOfPlots(db, bob.id, [ids[0]])).get(ids[0])?.hidden).toBe(0);

    const counts = await countPlotsOfGrids(db, alice.id, [
      { owner: 'Alice', n: mine.n },
      { owner: 'bob', n: theirsPrivate.n },
    ]);
    expect(counts.get(gridKey('Alice', mine.n))).toEqual({ own: 2, others: 1 });
    expect(counts.get(gridKey('bob', theirsPrivate.n))).toEqual({ own: 1, others: 0 });
    // A trashed plot draws from nothing.
    await trashFile(db, bob, { owner: 'bob', n: r });
    expect((await countPlotsOfGrids(db, alice.id, [{ owner: 'alice', n: mine.n }])).get(gridKey('alice', mine.n))).toEqual({ own: 2, others: 0 });
    // The plots drawing from a grid, as a workspace view.
    expect(await walk(alice, { uses: mine.n }, { size: 1 })).toEqual([q, p]);
  });

  it('finds the grids only some plots use: others live plots (anyone’s) keep a grid, trashed ones only for deleting', async () => {
    const only = await grid(alice);
    const shared = await grid(alice);
    const usedByBob = await grid(alice);
    const usedByTrashed = await grid(alice);
    const bobs = await grid(bob);
    const p = await plot(alice, [only, shared, usedByBob, usedByTrashed, bobs]);
    const alsoShared = await plot(alice, [shared]);
    await plot(bob, [usedByBob]);
    const t = await plot(alice, [usedByTrashed]);
    await trashFile(db, alice, { owner: 'Alice', n: t });
    const pid = await idOf(alice, p);
    expect((await gridsOnlyOf(db, alice, [pid], 'live')).map((g) => g.n)).toEqual([only.n, usedByTrashed.n]);
    expect((await gridsOnlyOf(db, alice, [pid], 'any')).map((g) => g.n)).toEqual([only.n]);
    // Both plots chosen: the grid they share goes too.
    expect((await gridsOnlyOf(db, alice, [pid, await idOf(alice, alsoShared)], 'live')).map((g) => g.n)).toEqual([only.n, shared.n, usedByTrashed.n]);
  });

  it('moves, shares and trashes several files in one transaction, all or none, plots with their lone grids', async () => {
    await createFolders(db, alice, ['bulk']);
    const folder = (await listOwnFiles(db, alice, -1, { size: 100, filter: 'fold' })).rows.find((r) => r.filename === 'bulk')!.n;
    const g1 = await grid(alice);
    const g2 = await grid(alice);
    const p1 = await plot(alice, [g1]);
    const p2 = await plot(alice, [g2]);
    const keep = await plot(alice, [g2]);
    expect(await changeFiles(db, alice, [p1, p2, g1.n], { kind: 'move', parent: folder })).toEqual({ files: 3, grids: 0 });
    expect((await walk(alice, folder, { size: 100 })).sort()).toEqual([p1, p2, g1.n].sort());
    expect(await changeFiles(db, alice, [p1, p2], { kind: 'share', sharing: 'private' })).toEqual({ files: 2, grids: 0 });
    const privateNow = await queryRows<{ n: number }>(
      db,
      sql`SELECT n FROM files WHERE owner_id = ${alice.id} AND NOT world_readable AND n >= ${g1.n} ORDER BY n`,
    );
    // g1 followed p1 (only it draws from it); g2 stays public for `keep`.
    expect(privateNow.map((r) => r.n)).toEqual([g1.n, p1, p2].sort((a, b) => a - b));

    // A refusal (bob's number is not Alice's file... a file that does not exist) undoes everything.
    const before = await countTrash(db, alice, 1000);
    await expectApiError(changeFiles(db, alice, [p1, 999999], { kind: 'trash', withGrids: true }), 404);
    expect(await countTrash(db, alice, 1000)).toBe(before);

    expect(await changeFiles(db, alice, [p1, p2], { kind: 'trash', withGrids: true })).toEqual({ files: 2, grids: 1 });
    const trash = await walk(alice, 'trash', { size: 100 });
    expect(trash).toEqual(expect.arrayContaining([p1, p2, g1.n]));
    expect(trash).not.toContain(g2.n);
    expect(trash).not.toContain(keep);
    // Without the box, the grid stays.
    const g3 = await grid(alice);
    const p3 = await plot(alice, [g3]);
    expect(await changeFiles(db, alice, [p3], { kind: 'trash', withGrids: false })).toEqual({ files: 1, grids: 0 });
    expect(await walk(alice, 'trash', { size: 100 })).not.toContain(g3.n);
    // Deleting a trashed plot for good takes its grid, trashed with it, too.
    expect(await changeFiles(db, alice, [p1], { kind: 'delete', withGrids: true })).toEqual({ files: 1, grids: 1 });
    expect(await walk(alice, 'trash', { size: 100 })).not.toContain(g1.n);
    // Someone else's numbers are not theirs to change.
    await expectApiError(changeFiles(db, bob, [p2], { kind: 'move', parent: -1 }), 404);
  });

  it('empties the trash for good, what went with folders included, leaving live files alone', async () => {
    const carol = await newViewer(db, 'carol');
    const folder = await createFolders(db, carol, ['old']);
    const inside = await grid(carol, { parent_path: ['old'] });
    const loose = await plot(carol, []);
    const live = await plot(carol, []);
    await trashFile(db, carol, { owner: 'carol', n: folder.n });
    await trashFile(db, carol, { owner: 'carol', n: loose });
    expect(await countTrash(db, carol, 100)).toBe(3);
    expect(await emptyTrash(db, carol)).toEqual({ deleted: 3, more: false });
    expect(await countTrash(db, carol, 100)).toBe(0);
    const left = await queryRows<{ n: number }>(db, sql`SELECT n FROM files WHERE owner_id = ${carol.id}`);
    expect(left.map((r) => r.n)).toEqual([live]);
    expect(inside.n).toBeGreaterThan(0);
    expect(await emptyTrash(db, carol)).toEqual({ deleted: 0, more: false });
  });
});
