// What history costs, on both databases (lib/core/files/versions.ts, column-store.ts): a save that leaves
// data as it was stores no data (a grid's renames and reorders share its column values with the live
// grid; a plot's title-only changes keep no copy of the figure), a real change keeps the old data
// restorable, and one person's kept history is bounded (the oldest dropped first).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { getGridVersion, listGridVersions, restoreGridVersion } from '@/lib/core/grids/grid-versions';
import { replaceColumns } from '@/lib/core/grids/column-verbs';
import { gridEditBase, saveGridEdits } from '@/lib/core/grids/grid-edits';
import { createGrid, gridContent } from '@/lib/core/grids/grids';
import { getPlotVersion, listPlotVersions, restorePlotVersion } from '@/lib/core/plots/plot-versions';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { boundPersonHistory, VERSION_BOUNDS } from '@/lib/core/files/versions';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, newViewer, ORIGIN } from './_helpers';

const SAVES = 21;
// As many renames as a grid keeps versions, so that the first is still kept.
const RENAMES = VERSION_BOUNDS.grid.versions;

describe.each(SQL_DRIVER)('history storage (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'alice');
  });

  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(db, query))[0];
  const idOf = async (fid: Fid) =>
    Number((await one<{ id: string }>(sql`SELECT f.id FROM files f JOIN users u ON u.id = f.owner_id WHERE u.username = ${fid.owner} AND f.n = ${fid.n}`)).id);
  /** Every table a grid's history lives in, as the database stores it (pages, TOAST and indexes). */
  const gridTablesSize = async () =>
    Number(
      (
        await one<{ b: string }>(
          sql`SELECT pg_total_relation_size('column_values') + pg_total_relation_size('grid_columns') + pg_total_relation_size('grid_version_columns')
            + pg_total_relation_size('grid_versions') AS b`,
        )
      ).b,
    );
  /** The column values a grid stores, live and kept: their text's bytes. */
  const valuesBytes = async (gridId: number) =>
    Number((await one<{ b: string }>(sql`SELECT coalesce(sum(octet_length(data::text)), 0) AS b FROM column_values WHERE grid_id = ${gridId}`)).b);
  const gridVersions = async (fid: Fid) => (await listGridVersions(db, alice, fid, { page_size: 100 })).rows.map((r) => r.version);
  const versionCols = async (fid: Fid, n: number) =>
    JSON.parse(await joinParts(await getGridVersion(db, alice, fid, n))).cols as { name: string; uid: string; order: number; data: unknown[] }[];
  const column = (seed: number) => Array.from({ length: 100_000 }, (_, i) => seed * 1_000_000 + i * 7);

  it(`${RENAMES} renames and reorders of a grid of large columns store no data; a real change keeps the old data restorable`, async () => {
    const { file } = await createGrid(
      db,
      alice,
      { data: { cols: { a: { data: column(1), order: 0 }, b: { data: column(2), order: 1 }, c: { data: column(3), order: 2 } } } },
      ORIGIN,
    );
    const fid = parseFid(file.fid)!;
    const gridId = await idOf(fid);
    const uids = file.cols.map((c) => c.uid);
    const live = await valuesBytes(gridId);
    expect(live).toBeGreaterThan(2_000_000);
    const sizeBefore = await gridTablesSize();
    for (let i = 1; i <= RENAMES; i++) {
      const base = await gridEditBase(db, gridId);
      // Renames, and every other save a reorder too.
      const order = i % 2 ? [uids[1], uids[0], uids[2]] : uids;
      await saveGridEdits(db, alice, fid, { base, cols: order.map((uid, k) => ({ uid, name: `col ${k} of save ${i}` })) }, 'web');
    }
    expect(await gridVersions(fid)).toHaveLength(RENAMES + 1);
    expect(await valuesBytes(gridId)).toBe(live);
    // The rows naming each version's columns, not their values: far below one column's values.
    expect((await gridTablesSize()) - sizeBefore).toBeLessThan(live / 10);
    const kept = await one<{ b: string }>(sql`SELECT sum(bytes) AS b FROM grid_versions WHERE file_id = ${gridId}`);
    expect(Number(kept.b)).toBeLessThan(RENAMES * 300);
    // Every version reads as it was.
    expect((await versionCols(fid, 1)).map((c) => [c.name, c.order])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    const third = await versionCols(fid, 3);
    expect(third.map((c) => c.name)).toEqual(['col 0 of save 2', 'col 1 of save 2', 'col 2 of save 2']);
    expect(third[0].data).toEqual(column(1));

    // A real change: the old values are kept (once), and restorable.
    await replaceColumns(db, alice, fid, uids[0], { cols: [{ data: [1, 2, 3] }] });
    const afterChange = await valuesBytes(gridId);
    expect(afterChange).toBe(live + '[1,2,3]'.length);
    const before = RENAMES + 1;
    expect((await versionCols(fid, before)).find((c) => c.uid === uids[0])!.data).toEqual(column(1));
    // (Version 1 went: the change's version is the 21st kept.)
    await restoreGridVersion(db, alice, fid, 2, 'api', ORIGIN);
    const restored = JSON.parse(await joinParts(await gridContent(db, alice, fid))).cols;
    expect(Object.keys(restored)).toEqual(['col 0 of save 1', 'col 1 of save 1', 'col 2 of save 1']);
    expect(restored['col 1 of save 1'].data).toEqual(column(1));
    // The restore points to the kept values again: nothing copied.
    expect(await valuesBytes(gridId)).toBe(afterChange);
    expect((await versionCols(fid, before + 1)).find((c) => c.uid === uids[0])!.data).toEqual([1, 2, 3]);
  });

  it('values nothing points to any more go in the transaction that let them go', async () => {
    const { file } = await createGrid(db, alice, { data: { cols: { a: { data: column(4), order: 0 } } } }, ORIGIN);
    const fid = parseFid(file.fid)!;
    const gridId = await idOf(fid);
    for (let i = 0; i < 25; i++) await replaceColumns(db, alice, fid, file.cols[0].uid, { cols: [{ data: [i] }] });
    // 20 kept versions and the live grid: 21 values rows (the large first ones dropped with their versions).
    const rows = await one<{ n: number; b: string }>(
      sql`SELECT count(*)::int AS n, sum(octet_length(data::text)) AS b FROM column_values WHERE grid_id = ${gridId}`,
    );
    expect(rows.n).toBe(21);
    expect(Number(rows.b)).toBeLessThan(1000);
  });

  const bigFigure = (text: string) => ({ data: [{ type: 'bar', name: 't' }], layout: { meta: 'x'.repeat(900_000), title: { text } } });
  const figureBytes = async (fileId: number) =>
    Number(
      (
        await one<{ b: string }>(
          sql`SELECT coalesce(sum(octet_length(figure::text)), 0) AS b FROM plot_versions WHERE file_id = ${fileId} AND figure IS NOT NULL`,
        )
      ).b,
    );

  it(`${SAVES} title-only changes of a plot keep no copy of its figure; every version reads and restores as it was`, async () => {
    const created = JSON.parse(await createPlot(db, alice, { figure: bigFigure('layout title') }, ORIGIN));
    const fid = parseFid(created.file.fid)!;
    const plotId = await idOf(fid);
    const sizeBefore = Number((await one<{ b: string }>(sql`SELECT pg_total_relation_size('plot_versions') AS b`)).b);
    for (let i = 1; i <= SAVES; i++) await updateFileDetail(db, alice, fid, { title: `title ${i}` }, ORIGIN, 'plot');
    expect(await figureBytes(plotId)).toBe(0);
    const grown = Number((await one<{ b: string }>(sql`SELECT pg_total_relation_size('plot_versions') AS b`)).b) - sizeBefore;
    expect(grown).toBeLessThan(100_000);
    const list = (await listPlotVersions(db, alice, fid, { page_size: 100 })).rows.map((r) => JSON.parse(r.rec));
    expect(list.map((v) => v.title)).toEqual([...Array.from({ length: SAVES }, (_, i) => `title ${SAVES - i}`), 'layout title']);
    for (const n of [1, 5, SAVES + 1]) {
      const version = JSON.parse(await getPlotVersion(db, alice, fid, n));
      expect(version.figure).toEqual(bigFigure('layout title'));
    }

    // A figure change keeps the figure it replaces, once; the title-only versions still read it.
    await updateFileDetail(db, alice, fid, { figure: bigFigure('second') }, ORIGIN, 'plot');
    expect(await figureBytes(plotId)).toBeGreaterThan(900_000);
    expect(await figureBytes(plotId)).toBeLessThan(1_000_000);
    for (const n of [1, 7, SAVES + 1]) expect(JSON.parse(await getPlotVersion(db, alice, fid, n)).figure).toEqual(bigFigure('layout title'));
    expect(JSON.parse(await getPlotVersion(db, alice, fid, SAVES + 2)).figure).toEqual(bigFigure('second'));
    const detail = JSON.parse(await restorePlotVersion(db, alice, fid, 3, 'web', ORIGIN));
    expect(detail.title).toBe('title 2');
    expect(detail.figure).toEqual(bigFigure('layout title'));
    // The restore's version (the figure 'second') kept it; the figure restored is live again.
    expect(JSON.parse(await getPlot(db, alice, fid, ORIGIN)).figure.layout.title.text).toBe('layout title');
    expect(JSON.parse(await getPlotVersion(db, alice, fid, SAVES + 2)).figure).toEqual(bigFigure('second'));
  });

  it("one person's kept history is bounded: past the bound the oldest versions of all their files go first", async () => {
    const bob = await newViewer(db, 'bob');
    const plotOf = async (text: string) => parseFid(JSON.parse(await createPlot(db, bob, { figure: bigFigure(text) }, ORIGIN)).file.fid)!;
    const first = await plotOf('first');
    const second = await plotOf('second');
    // Alternating figure changes: each keeps a ~900 KB figure.
    for (let i = 0; i < 3; i++) {
      await updateFileDetail(db, bob, first, { figure: bigFigure(`first ${i}`) }, ORIGIN, 'plot');
      await updateFileDetail(db, bob, second, { figure: bigFigure(`second ${i}`) }, ORIGIN, 'plot');
    }
    const { file } = await createGrid(db, bob, { data: { cols: { a: { data: column(5), order: 0 } } } }, ORIGIN);
    const grid = parseFid(file.fid)!;
    await replaceColumns(db, bob, grid, file.cols[0].uid, { cols: [{ data: [0] }] });
    const ids = { first: await idOf(first), second: await idOf(second), grid: await idOf(grid) };
    const kept = async () =>
      queryRows<{ file_id: string; version: number; bytes: string }>(
        db,
        sql`SELECT file_id, version, bytes FROM plot_versions WHERE file_id IN (${ids.first}, ${ids.second})
          UNION ALL SELECT file_id, version, bytes FROM grid_versions WHERE file_id = ${ids.grid} ORDER BY 1, 2`,
      );
    const total = async () => (await kept()).reduce((sum, r) => sum + Number(r.bytes), 0);
    const all = await total();
    expect(all).toBeGreaterThan(6 * 900_000);
    const personBytes = async () =>
      Number((await one<{ b: string }>(sql`SELECT sum(s.kept_bytes) AS b FROM files f JOIN file_saves s ON s.file_id = f.id WHERE f.owner_id = ${bob.id}`)).b);
    expect(await personBytes()).toBe(all);
    // A bound of three figures less: the three oldest plot versions go (1 of each plot, then the first's 2); the newer ones, and the grid's, stay.
    const bound = all - 3 * 900_000;
    await db.transaction((tx) => boundPersonHistory(tx, ids.grid, bound));
    const left = await kept();
    expect(await total()).toBeLessThanOrEqual(bound);
    expect(await personBytes()).toBe(await total());
    expect(left.filter((r) => Number(r.file_id) === ids.first).map((r) => r.version)).toEqual([3]);
    expect(left.filter((r) => Number(r.file_id) === ids.second).map((r) => r.version)).toEqual([2, 3]);
    expect(left.filter((r) => Number(r.file_id) === ids.grid).map((r) => r.version)).toEqual([1]);
    // What stays reads as it was; what went is the 404 of a version not kept.
    expect(JSON.parse(await getPlotVersion(db, bob, first, 3)).figure).toEqual(bigFigure('first 1'));
    await expectApiError(getPlotVersion(db, bob, first, 2), 404);
    // Under a bound smaller than the grid's kept version, it goes too, and its values with it.
    await db.transaction((tx) => boundPersonHistory(tx, ids.grid, 1_000));
    expect(await kept()).toEqual([]);
    expect(await valuesBytes(ids.grid)).toBe('[0]'.length);
  });
});
