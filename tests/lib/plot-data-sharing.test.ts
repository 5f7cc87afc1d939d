// A plot's data follows its sharing on the web (lib/core/plots/plot-data-sharing.ts): the owner's grids that
// only this plot (or plots no more public than it) draws from become private with it; grids another
// public plot of the owner uses, grids of someone else and grids already private stay as they are; a
// plot made public widens nothing; a refused change changes nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createFolders } from '@/lib/core/files/files';
import { trashFile, updateFile } from '@/lib/core/files/file-changes';
import { createGrid, gridContent } from '@/lib/core/grids/grids';
import { VISIBILITY_FIELDS, type Visibility } from '@/lib/core/permissions';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { followPlotSharing, planPlotDataSharing, sharePlotWithData, type PlotData } from '@/lib/core/plots/plot-data-sharing';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, newViewer, ORIGIN } from './_helpers';

describe.each(SQL_DRIVER)('plot data sharing (%s)', (driver) => {
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
  /** A grid of two columns; its fid and a src naming both. */
  async function grid(owner: Viewer, sharing: Visibility = 'public', parent_path?: string[]) {
    const { file } = await createGrid(
      db,
      owner,
      { filename: `g${++count}`, parent_path, ...VISIBILITY_FIELDS[sharing], data: { cols: { x: { data: [1, 2, 3] }, y: { data: [count, 5, 6] } } } },
      ORIGIN,
    );
    return { fid: parseFid(file.fid)!, filename: file.filename, y: [count, 5, 6], src: (col = 0) => `${file.fid}:${file.cols[col].uid}` };
  }
  type Grid = Awaited<ReturnType<typeof grid>>;

  /** A plot drawing from `grids` (x and y of each); its fid. */
  async function plot(owner: Viewer, grids: Grid[], sharing: Visibility = 'public', extra: { parent_path?: string[]; title?: string } = {}): Promise<Fid> {
    const text = await createPlot(
      db,
      owner,
      {
        filename: `p${++count}`,
        ...extra,
        ...VISIBILITY_FIELDS[sharing],
        figure: { data: grids.map((g) => ({ type: 'scatter', xsrc: g.src(0), ysrc: g.src(1) })) },
      },
      ORIGIN,
    );
    return parseFid((JSON.parse(text) as { file: { fid: string } }).file.fid)!;
  }

  /** Each file's sharing and modification time, by fid: what a refused change must leave alone. */
  async function state(): Promise<string> {
    const rows = await queryRows<{ fid: string; world_readable: boolean; share_key: string | null; updated: string }>(
      db,
      sql`SELECT u.username || ':' || f.n AS fid, f.world_readable, f.share_key, f.updated_at::text AS updated FROM files f JOIN users u ON u.id = f.owner_id ORDER BY f.id`,
    );
    return JSON.stringify(rows);
  }

  const gridSharing = async (fid: Fid) => {
    const [row] = await queryRows<{ world_readable: boolean; share_key: string | null }>(
      db,
      sql`SELECT f.world_readable, f.share_key FROM files f JOIN users u ON u.id = f.owner_id WHERE lower(u.username) = lower(${fid.owner}) AND f.n = ${fid.n}`,
    );
    return row.world_readable ? 'public' : row.share_key ? 'secret' : 'private';
  };
  const fates = (data: PlotData) => Object.fromEntries(data.grids.map((g) => [g.filename, g.fate]));
  /** The grid's content as an anonymous caller gets it: its text, or the status it is refused with. */
  const anonymousGrid = async (fid: Fid) => {
    try {
      return await joinParts(await gridContent(db, null, fid));
    } catch (e) {
      return (e as { status: number }).status;
    }
  };

  it('a grid only this plot draws from becomes private with it; the plan beforehand changes nothing', async () => {
    const g = await grid(alice);
    const p = await plot(alice, [g]);
    const before = await state();
    const plan = await planPlotDataSharing(db, alice, p, 'private');
    expect(plan.plot).toMatchObject({ owner: 'Alice', n: p.n, visibility: 'public' });
    expect(plan.grids).toEqual([
      { owner: 'Alice', n: g.fid.n, filename: g.filename, visibility: 'public', fate: 'follows', publicPlots: [], publicPlotCount: 0 },
    ]);
    expect(await state()).toBe(before);
    expect(await anonymousGrid(g.fid)).toEqual(expect.stringContaining('"data"'));

    const done = await sharePlotWithData(db, alice, p, 'private');
    expect(done.plot.visibility).toBe('private');
    expect(done.grids.map((x) => [x.fate, x.visibility])).toEqual([['follows', 'private']]);
    expect(await gridSharing(g.fid)).toBe('private');
    expect(await anonymousGrid(g.fid)).toBe(404);
    // Now the plan at the plot's own sharing finds nothing left to follow.
    expect(fates(await planPlotDataSharing(db, alice, p))).toEqual({ [g.filename]: 'already' });
  });

  it('a grid another public plot of the owner uses stays public, naming that plot, until that one is no more public', async () => {
    const shared = await grid(alice);
    const own = await grid(alice);
    const p1 = await plot(alice, [shared, own]);
    const p2 = await plot(alice, [shared], 'public', { title: 'The other chart' });
    // A public plot of the owner in the trash keeps nothing public.
    const trashed = await plot(alice, [own]);
    await trashFile(db, alice, trashed);

    const done = await sharePlotWithData(db, alice, p1, 'private');
    expect(fates(done)).toEqual({ [shared.filename]: 'public-plot', [own.filename]: 'follows' });
    const held = done.grids.find((g) => g.filename === shared.filename)!;
    expect([held.publicPlots, held.publicPlotCount]).toEqual([[{ n: p2.n, name: 'The other chart' }], 1]);
    expect([await gridSharing(shared.fid), await gridSharing(own.fid)]).toEqual(['public', 'private']);

    // The other plot goes secret: the shared grid follows it (p1 is private, no more public than it).
    const second = await sharePlotWithData(db, alice, p2, 'secret');
    expect(fates(second)).toEqual({ [shared.filename]: 'follows' });
    expect(await gridSharing(shared.fid)).toBe('private');
  });

  it("someone else's grid stays as it is (a public one is named, a private one is not), and their plots keep nothing of the owner's public", async () => {
    const bobs = await grid(bob);
    const bobsPrivate = await grid(bob, 'private');
    const mine = await grid(alice);
    // Bob's public plot on Alice's grid does not keep it public: only the owner's plots count.
    const bobsPlot = await plot(bob, [mine]);
    const [bobsBefore] = await queryRows<{ version: number }>(
      db,
      sql`SELECT version FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${bob.id} AND f.n = ${bobsPlot.n}`,
    );
    // Alice's plot names Bob's private grid too (created while it was public, then Bob made it private).
    await updateFile(db, bob, bobsPrivate.fid, VISIBILITY_FIELDS.public);
    const p = await plot(alice, [bobs, mine, bobsPrivate]);
    await updateFile(db, bob, bobsPrivate.fid, VISIBILITY_FIELDS.private);

    const done = await sharePlotWithData(db, alice, p, 'private');
    expect(done.grids.map((g) => [g.owner, g.filename, g.fate])).toEqual([
      ['Alice', mine.filename, 'follows'],
      ['bob', bobs.filename, 'other-owner'],
    ]);
    expect([await gridSharing(bobs.fid), await gridSharing(mine.fid)]).toEqual(['public', 'private']);
    // Bob's plot drew Alice's grid, which it may read no more: it is drawn again (a new version).
    const [bobsAfter] = await queryRows<{ version: number }>(
      db,
      sql`SELECT version FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${bob.id} AND f.n = ${bobsPlot.n}`,
    );
    expect(bobsAfter.version).toBe(bobsBefore.version + 1);
    const content = await getPlotContent(db, null, bobsPlot, { inlineData: true, mapUnreadable: true });
    expect(await joinParts(content.parts())).not.toContain('"x":[1,2,3]');
  });

  it('a secret plot makes its grids private; its link still carries their data; a grid already secret keeps its link', async () => {
    const g = await grid(alice);
    const secretGrid = await grid(alice, 'secret');
    const p = await plot(alice, [g, secretGrid]);
    const [keyBefore] = await queryRows<{ share_key: string }>(db, sql`SELECT share_key FROM files WHERE owner_id = ${alice.id} AND n = ${secretGrid.fid.n}`);

    const done = await sharePlotWithData(db, alice, p, 'secret');
    expect(done.plot.visibility).toBe('secret');
    expect(fates(done)).toEqual({ [g.filename]: 'follows', [secretGrid.filename]: 'already' });
    expect([await gridSharing(g.fid), await gridSharing(secretGrid.fid)]).toEqual(['private', 'secret']);
    const [keyAfter] = await queryRows<{ share_key: string }>(db, sql`SELECT share_key FROM files WHERE owner_id = ${alice.id} AND n = ${secretGrid.fid.n}`);
    expect(keyAfter.share_key).toBe(keyBefore.share_key);

    const [plotKey] = await queryRows<{ share_key: string }>(db, sql`SELECT share_key FROM files WHERE owner_id = ${alice.id} AND n = ${p.n}`);
    const viaLink = await getPlotContent(db, null, p, { inlineData: true, mapUnreadable: false, shareKey: plotKey.share_key });
    expect(await joinParts(viaLink.parts())).toContain(`"y":${JSON.stringify(g.y)}`);
    await expectApiError(getPlotContent(db, null, p, { inlineData: true, mapUnreadable: false }), 404);
  });

  it('grids and plots in folders follow the same way', async () => {
    await createFolders(db, alice, ['data', 'raw']);
    await createFolders(db, alice, ['charts']);
    const g = await grid(alice, 'public', ['data', 'raw']);
    const p = await plot(alice, [g], 'public', { parent_path: ['charts'] });
    const done = await sharePlotWithData(db, alice, p, 'private');
    expect(fates(done)).toEqual({ [g.filename]: 'follows' });
    expect(await gridSharing(g.fid)).toBe('private');
  });

  it('a plot made public again widens none of its grids; its readers still get the columns it draws', async () => {
    const g = await grid(alice);
    const p = await plot(alice, [g], 'private');
    await sharePlotWithData(db, alice, p, 'private');
    expect(await gridSharing(g.fid)).toBe('private');

    expect(fates(await planPlotDataSharing(db, alice, p, 'public'))).toEqual({ [g.filename]: 'kept-private' });
    const done = await sharePlotWithData(db, alice, p, 'public');
    expect(fates(done)).toEqual({ [g.filename]: 'kept-private' });
    expect(await gridSharing(g.fid)).toBe('private');
    expect(await anonymousGrid(g.fid)).toBe(404);
    const content = await getPlotContent(db, null, p, { inlineData: false, mapUnreadable: true });
    expect(await joinParts(content.parts())).toContain('"map_data"');
  });

  it('the one-click fix makes the grids follow the plot as it is, leaving its sharing and its link as they are', async () => {
    const g = await grid(alice);
    const p = await plot(alice, [g]);
    // The API changes the file alone: the grid stays public.
    await updateFile(db, alice, p, VISIBILITY_FIELDS.secret, { filetype: 'plot' });
    expect(await gridSharing(g.fid)).toBe('public');
    expect(fates(await planPlotDataSharing(db, alice, p))).toEqual({ [g.filename]: 'follows' });

    const key = () => queryRows<{ share_key: string }>(db, sql`SELECT share_key FROM files WHERE owner_id = ${alice.id} AND n = ${p.n}`);
    const [before] = await key();
    const done = await followPlotSharing(db, alice, p);
    expect(done.plot.visibility).toBe('secret');
    expect(fates(done)).toEqual({ [g.filename]: 'follows' });
    expect(await gridSharing(g.fid)).toBe('private');
    expect(await key()).toEqual([before]);
  });

  it('a refused change changes nothing: not the owner, nobody signed in, not a plot, a trashed plot, no such file', async () => {
    const g = await grid(alice);
    const p = await plot(alice, [g]);
    const trashed = await plot(alice, [g], 'private');
    await trashFile(db, alice, trashed);
    const before = await state();
    await expectApiError(sharePlotWithData(db, bob, p, 'private'), 403);
    await expectApiError(sharePlotWithData(db, null, p, 'private'), 401);
    await expectApiError(sharePlotWithData(db, alice, g.fid, 'private'), 404);
    await expectApiError(sharePlotWithData(db, alice, trashed, 'private'), 404);
    await expectApiError(sharePlotWithData(db, alice, { owner: 'Alice', n: 999_999 }, 'private'), 404);
    await expectApiError(followPlotSharing(db, bob, p), 403);
    await expectApiError(planPlotDataSharing(db, bob, p), 403);
    await expectApiError(planPlotDataSharing(db, null, p), 401);
    expect(await state()).toBe(before);
    expect(await gridSharing(g.fid)).toBe('public');
  });
  it("a grid made private through the API (the file alone) has other people's plots on it drawn again, without its data", async () => {
    const shared = await grid(alice);
    const bobs = await plot(bob, [shared]);
    const version = async () =>
      (
        await queryRows<{ version: number; queued: boolean }>(
          db,
          sql`SELECT p.version, EXISTS (SELECT 1 FROM image_jobs j WHERE j.file_id = p.file_id AND j.version = p.version) AS queued
            FROM plots p JOIN files f ON f.id = p.file_id JOIN users u ON u.id = f.owner_id WHERE u.username = ${bobs.owner} AND f.n = ${bobs.n}`,
        )
      )[0];
    const before = await version();
    await updateFile(db, alice, shared.fid, { filename: 'renamed only' });
    expect(await version()).toEqual(before);
    await updateFile(db, alice, shared.fid, VISIBILITY_FIELDS.private);
    const after = await version();
    expect(after.version).toBe(before.version + 1);
    expect(after.queued).toBe(true);
    // What bob's image is drawn from now holds none of alice's values.
    const content = await joinParts((await getPlotContent(db, bob, bobs, { inlineData: true, mapUnreadable: false })).parts());
    expect(content).not.toContain(`[${shared.y.join(',')}]`);
  });
});
