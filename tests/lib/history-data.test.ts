// A plot version keeps the data it drew (lib/core/files/kept-columns.ts), on both databases: after the
// Python client's overwrite (its grid deleted for good, a new grid, the plot updated: the calls
// chart_studio's py.plot(..., fileopt='overwrite') makes) the old version's content has the old data,
// for the plot's writers alone, counted in the owner's history bytes; restoring it brings the data
// back in a grid of the owner's, the plot whole; pruning releases it; a version whose data is gone
// says so and is not restored.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator, removeCollaborator } from '@/lib/core/files/collaborators';
import { deleteFile } from '@/lib/core/files/file-changes';
import { boundPersonHistory } from '@/lib/core/files/versions';
import { deleteColumns } from '@/lib/core/grids/column-verbs';
import { createGrid } from '@/lib/core/grids/grids';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { restorePlotVersion } from '@/lib/core/plots/plot-versions';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, ORIGIN, people } from './_helpers';

type Rec = Record<string, any>;

describe.each(SQL_DRIVER)('history keeps the data it drew (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  const grid = async (filename: string, x: number[], y: number[]) => {
    const { file } = await createGrid(db, alice, { filename, data: { cols: { x: { data: x, order: 0 }, y: { data: y, order: 1 } } } }, ORIGIN, 'python');
    const uid = (name: string) => file.cols.find((c) => c.name === name)!.uid;
    return { fid: parseFid(file.fid)!, src: (name: string) => `${file.fid}:${uid(name)}` };
  };
  const figure = (g: { src: (name: string) => string }) => ({
    data: [{ type: 'bar', xsrc: g.src('x'), ysrc: g.src('y') }],
    layout: { title: { text: 'Sales' } },
  });
  const content = async (fid: Fid, viewer: Viewer, version?: number) =>
    JSON.parse(await joinParts((await getPlotContent(db, viewer, fid, { inlineData: true, mapUnreadable: true, version })).parts()));
  const plotId = async (fid: Fid) =>
    Number(
      (
        await queryRows<{ id: string }>(db, sql`SELECT f.id FROM files f JOIN users u ON u.id = f.owner_id WHERE u.username = ${fid.owner} AND f.n = ${fid.n}`)
      )[0].id,
    );
  const keptBytes = async (id: number) => Number((await queryRows<{ b: string }>(db, sql`SELECT kept_bytes AS b FROM file_saves WHERE file_id = ${id}`))[0].b);

  it("after the Python client's overwrite, the old version draws its data; its restore makes the plot whole; pruning releases it", async () => {
    const old = await grid('sales_grid', [1, 2, 3], [4, 5, 6]);
    const fid = parseFid(JSON.parse(await createPlot(db, alice, { filename: 'sales', figure: figure(old) }, ORIGIN, 'python')).file.fid)!;
    const id = await plotId(fid);
    // py.plot(fig, filename='sales', fileopt='overwrite'): DELETE /v2/grids/{old}, POST /v2/grids, PUT /v2/plots/{fid}.
    await deleteFile(db, alice, old.fid, 'grid');
    const fresh = await grid('sales_grid', [7, 8], [9, 10]);
    await updateFileDetail(db, alice, fid, { figure: figure(fresh) }, ORIGIN, 'plot', 'python');

    expect((await content(fid, alice, 1)).data[0]).toMatchObject({ x: [1, 2, 3], y: [4, 5, 6] });
    expect((await content(fid, alice)).data[0]).toMatchObject({ x: [7, 8], y: [9, 10] });
    // The kept values count in the owner's history; a version is its writers' alone.
    expect(await keptBytes(id)).toBeGreaterThanOrEqual('[1,2,3][4,5,6]'.length);
    await expectApiError(getPlotContent(db, bob, fid, { inlineData: true, mapUnreadable: true, version: 1 }), 404);
    // A writer who is not the owner sees kept data only of srcs the plot publishes now (plotSrcReader's rule).
    await addCollaborator(db, alice, fid, { username: bob.username, permission: 'write' });
    expect((await content(fid, bob, 1)).data[0].x).toBeUndefined();
    await removeCollaborator(db, alice, fid, bob.username);

    const restored = JSON.parse(await restorePlotVersion(db, alice, fid, 1, 'web', ORIGIN)) as Rec;
    const srcs = [restored.figure.data[0].xsrc, restored.figure.data[0].ysrc] as string[];
    expect(srcs.every((s) => s.startsWith('alice:') && !s.startsWith(`alice:${old.fid.n}:`))).toBe(true);
    // Whole for the clients: its srcs are real columns of a live grid of the owner's.
    expect((await content(fid, alice)).data[0]).toMatchObject({ x: [1, 2, 3], y: [4, 5, 6] });

    // Pruned past the person's bound, the copied values go and stop counting.
    await db.transaction((tx) => boundPersonHistory(tx, id, 0));
    expect(Number((await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM kept_columns WHERE plot_id = ${id} AND data IS NOT NULL`))[0].n)).toBe(0);
    expect(await keptBytes(id)).toBe(0);
  });

  it("a deleted column's values stay drawn by the versions that drew them; a version whose data is gone is not restored", async () => {
    const g = await grid('columns_grid', [1, 2], [3, 4]);
    const fid = parseFid(JSON.parse(await createPlot(db, alice, { filename: 'columns', figure: figure(g) }, ORIGIN)).file.fid)!;
    await updateFileDetail(db, alice, fid, { figure: { data: [{ type: 'bar', xsrc: g.src('x') }] } }, ORIGIN, 'plot');
    await deleteColumns(db, alice, g.fid, g.src('y').split(':')[2]);
    expect((await content(fid, alice, 1)).data[0]).toMatchObject({ x: [1, 2], y: [3, 4] });

    // Versions saved before versions kept their data have none: said, and refused.
    await db.execute(sql`DELETE FROM kept_columns WHERE plot_id = ${await plotId(fid)}`);
    expect((await content(fid, alice, 1)).data[0].y).toBeUndefined();
    await expectApiError(restorePlotVersion(db, alice, fid, 1, 'web', ORIGIN), 400, /This version's data is no longer kept/);
  });
});
