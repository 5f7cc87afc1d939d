// Versions of every save (lib/core/files/versions.ts) on both databases: each figure/title change and each
// column change keeps the state it replaced in its own transaction, restores are new versions, and
// the bounds (count and bytes per file, oldest dropped first) hold.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { rowsBodySchema } from '@/lib/core/grids/grid-input';
import { getGridVersion, listGridVersions, restoreGridVersion } from '@/lib/core/grids/grid-versions';
import { appendColumns, appendRows, deleteColumns, replaceColumns } from '@/lib/core/grids/column-verbs';
import { createGrid, gridContent } from '@/lib/core/grids/grids';
import { getPlotVersion, listPlotVersions, restorePlotVersion } from '@/lib/core/plots/plot-versions';
import { createPlot, getPlot, retitlePlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { APPEND_BURST_SECONDS, VERSION_BOUNDS } from '@/lib/core/files/versions';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, ORIGIN, people } from './_helpers';

type Item = { version: number; date_modified: string; author: string | null; client: string | null; title?: string };

describe.each(SQL_DRIVER)('versions (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  const newPlot = async (title: string, extra: Record<string, unknown> = {}) => {
    const text = await createPlot(
      db,
      alice,
      { figure: { data: [{ type: 'bar', name: 't1' }], layout: { title: { text: title } } }, ...extra },
      ORIGIN,
      'python',
    );
    return parseFid(JSON.parse(text).file.fid)!;
  };
  const allVersions = async (kind: 'plot' | 'grid', fid: Fid, viewer = alice) => {
    const out: Item[] = [];
    for (let cursor: string | undefined, i = 0; i < 50; i++) {
      const page = await (kind === 'plot' ? listPlotVersions : listGridVersions)(db, viewer, fid, { page_size: 7, cursor });
      out.push(...page.rows.map((r) => JSON.parse(r.rec) as Item));
      if (!page.next) break;
      cursor = page.next;
    }
    return out;
  };
  const patchFigure = (fid: Fid, y: number, client: 'api' | 'r' = 'api') =>
    updateFileDetail(db, alice, fid, { figure: { data: [{ type: 'bar', name: `t${y}` }], layout: { title: { text: `y=${y}` } } } }, ORIGIN, 'plot', client);
  const keptBytes = async (table: 'plot_versions' | 'grid_versions', fileId: number) =>
    Number((await queryRows<{ b: string | null }>(db, sql`SELECT sum(bytes) AS b FROM ${sql.raw(table)} WHERE file_id = ${fileId}`))[0].b ?? 0);
  const idOf = async (fid: Fid) =>
    Number(
      (
        await queryRows<{ id: string }>(db, sql`SELECT f.id FROM files f JOIN users u ON u.id = f.owner_id WHERE u.username = ${fid.owner} AND f.n = ${fid.n}`)
      )[0].id,
    );

  it('a plot: create is version 1; each figure or title save keeps the one before; caption and renames are none', async () => {
    const fid = await newPlot('first');
    expect(await allVersions('plot', fid)).toMatchObject([{ version: 1, author: 'alice', client: 'python', title: 'first' }]);
    await patchFigure(fid, 2, 'r');
    await updateFileDetail(db, alice, fid, { caption: 'only a caption', filename: `renamed ${fid.n}` }, ORIGIN, 'plot');
    await retitlePlot(db, alice, fid, { title: 'from the web', caption: 'c' });
    const list = await allVersions('plot', fid);
    expect(list.map((v) => [v.version, v.client, v.title])).toEqual([
      [3, 'web', 'from the web'],
      [2, 'r', 'y=2'],
      [1, 'python', 'first'],
    ]);
    expect(list.every((v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v.date_modified))).toBe(true);
    const first = JSON.parse(await getPlotVersion(db, alice, fid, 1));
    expect(first.figure).toEqual({ data: [{ type: 'bar', name: 't1' }], layout: { title: { text: 'first' } } });
    await expectApiError(getPlotVersion(db, alice, fid, 99), 404);
  });

  it('a restore makes the version current as a new one, title included; restoring the current one changes nothing', async () => {
    const fid = await newPlot('original');
    await patchFigure(fid, 5);
    await updateFileDetail(db, alice, fid, { title: 'given' }, ORIGIN, 'plot');
    const detail = JSON.parse(await restorePlotVersion(db, alice, fid, 1, 'web', ORIGIN));
    expect(detail.title).toBe('original');
    expect(detail.figure.data).toEqual([{ type: 'bar', name: 't1' }]);
    expect((await allVersions('plot', fid)).map((v) => [v.version, v.client, v.title])).toEqual([
      [4, 'web', 'original'],
      [3, 'api', 'given'],
      [2, 'api', 'y=5'],
      [1, 'python', 'original'],
    ]);
    // The layout's title leads again, as it did in version 1 (the title was not given then).
    await patchFigure(fid, 6);
    expect(JSON.parse(await getPlot(db, alice, fid, ORIGIN)).title).toBe('y=6');
    await restorePlotVersion(db, alice, fid, 5, 'web', ORIGIN);
    expect(await allVersions('plot', fid)).toHaveLength(5);
  });

  it('only the owner sees or restores versions: everyone else gets the 404 of a missing plot', async () => {
    const fid = await newPlot('public');
    for (const viewer of [bob, null]) {
      await expectApiError(listPlotVersions(db, viewer, fid, {}), 404);
      await expectApiError(getPlotVersion(db, viewer, fid, 1), 404);
      await expectApiError(restorePlotVersion(db, viewer, fid, 1, 'api', ORIGIN), 404);
    }
    await expectApiError(listPlotVersions(db, alice, { owner: 'alice', n: 99999 }, {}), 404);
  });

  it(`keeps at most ${VERSION_BOUNDS.plot.versions} earlier versions of a plot, the oldest dropped first`, async () => {
    const fid = await newPlot('many');
    const saves = VERSION_BOUNDS.plot.versions + 5;
    for (let i = 0; i < saves; i++) await patchFigure(fid, i);
    const list = await allVersions('plot', fid);
    expect(list).toHaveLength(VERSION_BOUNDS.plot.versions + 1);
    expect(list[0].version).toBe(saves + 1);
    expect(list.at(-1)!.version).toBe(saves + 1 - VERSION_BOUNDS.plot.versions);
    await expectApiError(getPlotVersion(db, alice, fid, 1), 404);
  });

  it(`keeps at most ${VERSION_BOUNDS.plot.bytes / 1024 / 1024} MiB of a plot's earlier versions`, async () => {
    const fid = await newPlot('large');
    const big = (i: number) => ({ data: [{ type: 'bar', name: `t${i}` }], layout: { meta: 'x'.repeat(900_000), title: { text: `big ${i}` } } });
    for (let i = 0; i < 22; i++) await updateFileDetail(db, alice, fid, { figure: big(i) }, ORIGIN, 'plot');
    const bytes = await keptBytes('plot_versions', await idOf(fid));
    expect(bytes).toBeLessThanOrEqual(VERSION_BOUNDS.plot.bytes);
    expect(bytes).toBeGreaterThan(VERSION_BOUNDS.plot.bytes - 1_000_000);
    const list = await allVersions('plot', fid);
    expect(list[0].version).toBe(23);
    // Newest kept, without a gap; the oldest went.
    expect(list.map((v) => v.version)).toEqual(Array.from({ length: list.length }, (_, i) => 23 - i));
    expect(list.length).toBeLessThan(20);
  });

  it('a grid: every column change keeps the columns before it; a restore brings them back as a new version', async () => {
    const { file } = await createGrid(db, alice, { data: { cols: { x: { data: [1, 2], order: 0 }, y: { data: [3, 4], order: 1 } } } }, ORIGIN, 'r');
    const fid = parseFid(file.fid)!;
    const [x, y] = file.cols;
    await replaceColumns(db, alice, fid, x.uid, { cols: [{ name: 'x', data: [10, 20] }] }, 'python');
    await appendColumns(db, alice, fid, { cols: [{ name: 'z', data: [5] }] }, 'api');
    // Appended right after a save of the same author and client: part of that save.
    await appendRows(db, alice, fid, rowsBodySchema.parse({ rows: [[1, 2, 3]] }), ORIGIN, 'api');
    await deleteColumns(db, alice, fid, y.uid, 'web');
    expect((await allVersions('grid', fid)).map((v) => [v.version, v.client])).toEqual([
      [4, 'web'],
      [3, 'api'],
      [2, 'python'],
      [1, 'r'],
    ]);
    const v1 = JSON.parse(await joinParts(await getGridVersion(db, alice, fid, 1)));
    expect(v1).toMatchObject({ version: 1, author: 'alice', client: 'r' });
    expect(v1.cols).toEqual([
      { name: 'x', uid: x.uid, order: 0, data: [1, 2] },
      { name: 'y', uid: y.uid, order: 1, data: [3, 4] },
    ]);
    const current = JSON.parse(await joinParts(await getGridVersion(db, alice, fid, 4)));
    expect(current.cols.map((c: { name: string }) => c.name)).toEqual(['x', 'z']);
    const restored = await restoreGridVersion(db, alice, fid, 1, 'api', ORIGIN);
    expect(restored.cols).toEqual([
      { name: 'x', uid: x.uid },
      { name: 'y', uid: y.uid },
    ]);
    expect(JSON.parse(await joinParts(await gridContent(db, alice, fid))).cols.y.data).toEqual([3, 4]);
    expect((await allVersions('grid', fid))[0].version).toBe(5);
    await expectApiError(listGridVersions(db, bob, fid, {}), 404);
    await expectApiError(restoreGridVersion(db, bob, fid, 1, 'api', ORIGIN), 404);
    await expectApiError(restoreGridVersion(db, alice, fid, 42, 'api', ORIGIN), 404);
  });

  it('an upload in several requests is one save: appends soon after a save by the same author and client join it', async () => {
    const { file } = await createGrid(db, alice, { data: { cols: {} } }, ORIGIN, 'web');
    const fid = parseFid(file.fid)!;
    for (const name of ['a', 'b', 'c']) await appendColumns(db, alice, fid, { cols: [{ name, data: [1, 2] }] }, 'web');
    await appendRows(db, alice, fid, rowsBodySchema.parse({ rows: [[3, 4, 5]] }), ORIGIN, 'web');
    expect((await allVersions('grid', fid)).map((v) => [v.version, v.client])).toEqual([[1, 'web']]);
    expect(await keptBytes('grid_versions', await idOf(fid))).toBe(0);
    // Another client's append is a save of its own; and so is one after the burst's time.
    await appendColumns(db, alice, fid, { cols: [{ name: 'd', data: [0] }] }, 'python');
    await db.execute(sql`UPDATE file_saves SET saved_at = saved_at - make_interval(secs => ${APPEND_BURST_SECONDS + 1}) WHERE file_id = ${await idOf(fid)}`);
    await appendColumns(db, alice, fid, { cols: [{ name: 'e', data: [0] }] }, 'python');
    expect((await allVersions('grid', fid)).map((v) => [v.version, v.client])).toEqual([
      [3, 'python'],
      [2, 'python'],
      [1, 'web'],
    ]);
    const v2 = JSON.parse(await joinParts(await getGridVersion(db, alice, fid, 2)));
    expect(v2.cols.map((c: { name: string }) => c.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it(`keeps at most ${VERSION_BOUNDS.grid.versions} earlier versions of a grid, the oldest dropped first, never the current`, async () => {
    const { file } = await createGrid(db, alice, { data: { cols: { a: { data: [0], order: 0 } } } }, ORIGIN);
    const fid = parseFid(file.fid)!;
    const saves = VERSION_BOUNDS.grid.versions + 3;
    for (let i = 1; i <= saves; i++) await replaceColumns(db, alice, fid, file.cols[0].uid, { cols: [{ data: [i] }] });
    const list = await allVersions('grid', fid);
    expect(list).toHaveLength(VERSION_BOUNDS.grid.versions + 1);
    expect(list[0].version).toBe(saves + 1);
    const oldest = list.at(-1)!.version;
    expect(oldest).toBe(saves + 1 - VERSION_BOUNDS.grid.versions);
    // Restoring the oldest kept one: it becomes current even though the bound then drops it from the kept ones.
    await restoreGridVersion(db, alice, fid, oldest, 'api', ORIGIN);
    expect(JSON.parse(await joinParts(await gridContent(db, alice, fid))).cols.a.data).toEqual([oldest - 1]);
    const rows = await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM grid_versions WHERE file_id = ${await idOf(fid)}`);
    expect(Number(rows[0].n)).toBe(VERSION_BOUNDS.grid.versions);
  });
});
