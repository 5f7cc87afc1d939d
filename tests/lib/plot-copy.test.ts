// "Copy to my files" (lib/core/plots/plot-copy.ts): the copy owns its own private grids with the same
// values, points its srcs there, and keeps drawing the same content whatever becomes of the original.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { deleteFile, trashFile, updateFile } from '@/lib/core/files/file-changes';
import { getFile } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { copyPlot } from '@/lib/core/plots/plot-copy';
import { createPlot, plotUpdate } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, newViewer, ORIGIN, people } from './_helpers';

const fid = (text: string): Fid => parseFid(text)!;

describe.each(SQL_DRIVER)('copy a plot to my files (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  /** A grid of alice's (values whose text must survive as written) and a plot on two of its three columns. */
  async function alicePlot(opts: { filename: string; plotPublic?: boolean; gridPublic?: boolean; secret?: boolean }) {
    const { file: grid } = await createGrid(
      db,
      alice,
      {
        world_readable: opts.gridPublic ?? true,
        data: { cols: { x: { data: ['a_b', 'c', 'd'] }, y: { data: [0.1, 1e21, -0] }, unused: { data: ['secret'] } } },
      },
      ORIGIN,
    );
    const [x, y] = grid.cols.map((c) => `${grid.fid}:${c.uid}`);
    const created = await createPlot(
      db,
      alice,
      {
        filename: opts.filename,
        world_readable: opts.plotPublic ?? true,
        share_key_enabled: opts.secret ?? false,
        caption: 'a caption',
        figure: {
          data: [
            { type: 'bar', xsrc: x, ysrc: y },
            { type: 'scatter', xsrc: x, ysrc: `${x},${y}`.replace(`,${grid.fid}:`, ',') },
          ],
          layout: { title: { text: 'Sales' } },
        },
      },
      ORIGIN,
    );
    const { file } = JSON.parse(created) as { file: { fid: string; share_key?: string } };
    return { grid: grid.fid, plot: file.fid, shareKey: file.share_key ?? null };
  }

  const content = async (viewer: Viewer, f: string, shareKey?: string | null) =>
    joinParts((await getPlotContent(db, viewer, fid(f), { inlineData: true, mapUnreadable: true, shareKey })).parts());

  const plotRow = async (f: string) => {
    const file = (await getFile(db, fid(f), null))!;
    const [row] = await queryRows<{ source_fid: string | null; title: string; caption: string; figure: { data: Record<string, string>[] } }>(
      db,
      sql`SELECT source_fid, title, caption, figure FROM plots WHERE file_id = ${file.id}`,
    );
    return { file, ...row };
  };

  it('copies the figure, title and caption onto private grids of the copier holding the referenced columns as stored', async () => {
    const original = await alicePlot({ filename: 'Sales' });
    // Text no JSON.stringify writes: the copy must keep it as stored, not as Node would re-write it.
    const source = (await getFile(db, fid(original.grid), null))!;
    await db.execute(
      sql`UPDATE column_values SET data = '[0.10, 1E21,-0.0]'::json WHERE id = (SELECT values_id FROM grid_columns WHERE grid_id = ${source.id} AND name = 'y')`,
    );
    const before = await content(alice, original.plot);
    const copy = await copyPlot(db, bob, fid(original.plot), null, ORIGIN);
    expect(copy.fid).toMatch(/^bob:\d+$/);
    expect(copy.web_url).toBe(`${ORIGIN}/~${copy.fid.replace(':', '/')}/`);

    const row = await plotRow(copy.fid);
    expect(row.file.ownerId).toBe(bob.id);
    expect(row.file.filename).toBe('Copy of Sales');
    expect(row.file.parent).toBe(-1);
    expect(row.file.worldReadable).toBe(false);
    expect(row.file.shareKey).toBeNull();
    expect(row.source_fid).toBe(original.plot);
    expect(row.title).toBe('Sales');
    expect(row.caption).toBe('a caption');

    // Every src now names one new grid of bob's, private, with the referenced columns only.
    const srcs = row.figure.data.flatMap((t) => [t.xsrc, t.ysrc]);
    const gridFids = new Set(srcs.map((s) => s.split(':').slice(0, 2).join(':')));
    expect(gridFids.size).toBe(1);
    const [gridFid] = gridFids;
    expect(gridFid).toMatch(/^bob:\d+$/);
    const grid = (await getFile(db, fid(gridFid), null))!;
    expect(grid.worldReadable).toBe(false);
    expect(grid.filename).toBe('Copy of Sales (data)');
    const cols = await queryRows<{ name: string; uid: string; data: string; length: number }>(
      db,
      sql`SELECT c.name, c.uid, v.data::text AS data, c.length FROM grid_columns c JOIN column_values v ON v.id = c.values_id WHERE c.grid_id = ${grid.id} ORDER BY c.ord`,
    );
    const originalGrid = (await getFile(db, fid(original.grid), null))!;
    const originalCols = await queryRows<{ name: string; uid: string; data: string; length: number }>(
      db,
      sql`SELECT c.name, c.uid, v.data::text AS data, c.length FROM grid_columns c JOIN column_values v ON v.id = c.values_id WHERE c.grid_id = ${originalGrid.id} AND c.name <> 'unused' ORDER BY c.ord`,
    );
    expect(cols).toEqual(originalCols);
    expect(cols.map((c) => c.data)).toEqual(['["a_b","c","d"]', '[0.10, 1E21,-0.0]']);

    // The same chart, then still the same once the original's grid is private, then deleted, and the original trashed.
    expect(await content(bob, copy.fid)).toBe(before);
    await updateFile(db, alice, fid(original.grid), { world_readable: false });
    expect(await content(bob, copy.fid)).toBe(before);
    await deleteFile(db, alice, fid(original.grid));
    await trashFile(db, alice, fid(original.plot));
    expect(await content(bob, copy.fid)).toBe(before);
  });

  it("another user's private plot is the 404 of a missing one, and nothing is made", async () => {
    const original = await alicePlot({ filename: 'Private', plotPublic: false, gridPublic: false });
    const [{ count: filesBefore }] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM files WHERE owner_id = ${bob.id}`);
    await expectApiError(copyPlot(db, bob, fid(original.plot), null, ORIGIN), 404);
    await expectApiError(copyPlot(db, bob, fid('alice:9999'), null, ORIGIN), 404);
    await expectApiError(copyPlot(db, bob, fid(original.grid), null, ORIGIN), 404);
    const [{ count: filesAfter }] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM files WHERE owner_id = ${bob.id}`);
    expect(filesAfter).toBe(filesBefore);
  });

  it("a secret link's key lets its holder copy the plot with the owner's private data", async () => {
    const original = await alicePlot({ filename: 'Secret', plotPublic: false, gridPublic: false, secret: true });
    expect(original.shareKey).toBeTruthy();
    await expectApiError(copyPlot(db, bob, fid(original.plot), 'wrong-key', ORIGIN), 404);
    const before = await content(alice, original.plot);
    const copy = await copyPlot(db, bob, fid(original.plot), original.shareKey, ORIGIN);
    expect(await content(bob, copy.fid)).toBe(before);
    expect(before).toContain('"a_b"');
    // The copier never sees the original through it: it stays private to alice.
    await expectApiError(getPlotContent(db, bob, fid(original.plot), { inlineData: true, mapUnreadable: true }), 404);
  });

  it("copies the data the plot's page draws: its owner's private grids too, but never a third person's private grid", async () => {
    const carol = await newViewer(db, `carol${driver}`);
    const { file: theirs } = await createGrid(db, carol, { data: { cols: { v: { data: [7, 8, 9] } } } }, ORIGIN);
    const original = await alicePlot({ filename: 'Mixed', gridPublic: false });
    const aliceGrid = (await getFile(db, fid(original.grid), null))!;
    const [{ figure }] = await queryRows<{ figure: { data: Record<string, unknown>[] } }>(
      db,
      sql`SELECT p.figure FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${alice.id} AND f.filename = 'Mixed'`,
    );
    const theirSrc = `${theirs.fid}:${theirs.cols[0].uid}`;
    await updateFile(
      db,
      alice,
      fid(original.plot),
      { figure: { ...figure, data: [...figure.data, { type: 'scatter', ysrc: theirSrc }] } },
      { types: { plot: plotUpdate } },
    );
    await updateFile(db, carol, fid(theirs.fid), { world_readable: false });

    const copy = await copyPlot(db, bob, fid(original.plot), null, ORIGIN);
    const row = await plotRow(copy.fid);
    // alice's private grid: its data is on her public plot's page (map_data), so the copy has it.
    expect(row.figure.data[0].xsrc).toMatch(/^bob:\d+:/);
    expect(aliceGrid.worldReadable).toBe(false);
    // carol's private grid draws nothing for anyone here: its src stays as it was, and nothing of hers is copied.
    expect(row.figure.data[2].ysrc).toBe(theirSrc);
    const copied = await queryRows<{ data: string }>(
      db,
      sql`SELECT v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${bob.id} AND f.filename LIKE 'Copy of Mixed%'`,
    );
    expect(copied.map((c) => c.data).sort()).toEqual(['["a_b","c","d"]', '[0.1,1e+21,0]']);
  });

  it('refuses a plot whose srcs now reference more values than a plot may, and makes nothing', async () => {
    const original = await alicePlot({ filename: 'Huge' });
    const source = (await getFile(db, fid(original.grid), null))!;
    // Only the stored lengths count (as for a create): no need to store a hundred million values.
    await db.execute(sql`UPDATE grid_columns SET length = 50000001 WHERE grid_id = ${source.id}`);
    const [{ count: before }] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM files WHERE owner_id = ${bob.id}`);
    await expectApiError(copyPlot(db, bob, fid(original.plot), null, ORIGIN), 400, /at most 100,000,000/);
    const [{ count: after }] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM files WHERE owner_id = ${bob.id}`);
    expect(after).toBe(before);
  });

  it('names copies as file managers do: "Copy of X", "Copy of X (2)"…, grids alike; the owner duplicates too', async () => {
    const original = await alicePlot({ filename: 'Twice' });
    const first = await copyPlot(db, bob, fid(original.plot), null, ORIGIN);
    const second = await copyPlot(db, bob, fid(original.plot), null, ORIGIN);
    expect((await getFile(db, fid(first.fid), null))!.filename).toBe('Copy of Twice');
    expect((await getFile(db, fid(second.fid), null))!.filename).toBe('Copy of Twice (2)');
    const names = await queryRows<{ filename: string }>(
      db,
      sql`SELECT filename FROM files WHERE owner_id = ${bob.id} AND filename LIKE 'Copy of Twice%' ORDER BY n`,
    );
    expect(names.map((r) => r.filename)).toEqual(['Copy of Twice (data)', 'Copy of Twice', 'Copy of Twice (2) (data)', 'Copy of Twice (2)']);
    // A trashed copy frees its name.
    await trashFile(db, bob, fid(first.fid));
    const third = await copyPlot(db, bob, fid(original.plot), null, ORIGIN);
    expect((await getFile(db, fid(third.fid), null))!.filename).toBe('Copy of Twice');

    const duplicate = await copyPlot(db, alice, fid(original.plot), null, ORIGIN);
    const dup = await plotRow(duplicate.fid);
    expect(dup.file.filename).toBe('Copy of Twice');
    expect(dup.file.ownerId).toBe(alice.id);
    expect(dup.source_fid).toBe(original.plot);
    expect(await content(alice, duplicate.fid)).toBe(await content(alice, original.plot));
  });
});
