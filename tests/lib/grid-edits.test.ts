// The grid editor's save (lib/core/grids/grids.ts saveGridEdits): the columns after the edits, written in one
// transaction under the column rules, refused whole when the grid changed since the editor loaded it
// or when any column breaks a rule, and the plots drawn from the grid drawn again.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { appendRows, replaceColumns } from '@/lib/core/grids/column-verbs';
import { editStateOf, saveGridEdits } from '@/lib/core/grids/grid-edits';
import { createGrid, gridContent } from '@/lib/core/grids/grids';
import { rowsBodySchema } from '@/lib/core/grids/grid-input';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, ORIGIN, people } from './_helpers';

const fid = (text: string): Fid => parseFid(text)!;

describe.each(SQL_DRIVER)('grid edits (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  const newGrid = async (worldReadable = true) =>
    (
      await createGrid(
        db,
        alice,
        { data: { cols: { x: { data: [1, 2, 3] }, y: { data: ['a', 'b', 'c'] }, z: { data: [7, 8, 9] } } }, world_readable: worldReadable },
        ORIGIN,
      )
    ).file;
  const content = async (gridFid: string) =>
    JSON.parse(await joinParts(await gridContent(db, alice, fid(gridFid)))).cols as Record<string, { data: unknown[]; order: number; uid: string }>;
  const plotVersion = async (plotFid: string) =>
    (
      await queryRows<{ version: number }>(
        db,
        sql`SELECT p.version FROM plots p JOIN files f ON f.id = p.file_id WHERE f.n = ${fid(plotFid).n} AND f.owner_id = ${alice.id}`,
      )
    )[0].version;

  it('writes the columns after the edits at once: renamed, reordered, replaced, added, deleted; the base moves', async () => {
    const grid = await newGrid();
    const [x, y, z] = grid.cols.map((c) => c.uid);
    const base = (await editStateOf(db, alice, fid(grid.fid))).base;
    const saved = await saveGridEdits(db, alice, fid(grid.fid), {
      base,
      cols: [{ uid: y, name: 'label', data: ['b', 'a'] }, { name: 'new', data: [0.5, 1.5] }, { uid: x }],
    });
    expect(saved.base).not.toBe(base);
    expect(saved.cols.map((c) => c.name)).toEqual(['label', 'new', 'x']);
    expect(saved.cols[0].uid).toBe(y);
    expect(saved.cols[2].uid).toBe(x);
    expect(saved.cols[1].uid).toMatch(/^[0-9a-f]{6}$/);
    expect(saved.cols.some((c) => c.uid === z)).toBe(false);
    const cols = await content(grid.fid);
    expect(Object.keys(cols)).toEqual(['label', 'new', 'x']);
    expect(cols.label).toMatchObject({ data: ['b', 'a'], uid: y });
    expect(cols.new.data).toEqual([0.5, 1.5]);
    expect(cols.x).toMatchObject({ data: [1, 2, 3], uid: x });
    // The saved base is the grid's own, with its columns now: a second save from it passes.
    const now = await editStateOf(db, alice, fid(grid.fid));
    expect(now.base).toBe(saved.base);
    expect(now.cols.map((c) => [c.name, c.uid, c.length])).toEqual([
      ['label', y, 2],
      ['new', saved.cols[1].uid, 2],
      ['x', x, 3],
    ]);
    const again = await saveGridEdits(db, alice, fid(grid.fid), { base: saved.base, cols: [{ uid: x, name: 'first' }] });
    expect(Object.keys(await content(grid.fid))).toEqual(['first']);
    expect(again.cols).toEqual([{ name: 'first', uid: x }]);
  });

  it('refuses a save based on a grid changed since (409), writing nothing; every column write moves the base', async () => {
    const grid = await newGrid();
    const [x] = grid.cols.map((c) => c.uid);
    for (const change of [
      () => replaceColumns(db, alice, fid(grid.fid), x, { cols: [{ data: [4, 5, 6] }] }),
      () => appendRows(db, alice, fid(grid.fid), rowsBodySchema.parse({ rows: [[0, 'd', 0]] }), ORIGIN),
    ]) {
      const base = (await editStateOf(db, alice, fid(grid.fid))).base;
      await change();
      const before = await content(grid.fid);
      const err = await expectApiError(saveGridEdits(db, alice, fid(grid.fid), { base, cols: [{ uid: x, data: [9] }] }), 409, /changed by someone else/);
      expect(err.errors[0].code).toBe('CONFLICT');
      expect(await content(grid.fid)).toEqual(before);
    }
  });

  it('applies all or nothing: one bad column refuses the whole save, naming it', async () => {
    const grid = await newGrid();
    const [x, y, z] = grid.cols.map((c) => c.uid);
    const base = (await editStateOf(db, alice, fid(grid.fid))).base;
    const before = await content(grid.fid);
    const cases: [unknown[], RegExp][] = [
      [[{ uid: x, data: [0] }, { uid: y, name: 'x' }, { uid: z }], /cols\[1\]\.name: a column named 'x' already exists/],
      [[{ uid: x, data: [0] }, { uid: 'ffffff' }], /cols\[1\]\.uid: the grid has no column 'ffffff'/],
      [[{ uid: x }, { uid: x }], /cols\[1\]\.uid: '[0-9a-f]{6}' is given twice/],
      [
        [
          { uid: x, data: [0] },
          { name: 'n', data: [Number.POSITIVE_INFINITY] },
        ],
        /cols\[1\]\.data\[0\]/,
      ],
      [[{ name: 'n' }], /cols/],
    ];
    for (const [cols, message] of cases) await expectApiError(saveGridEdits(db, alice, fid(grid.fid), { base, cols }), 400, message);
    expect(await content(grid.fid)).toEqual(before);
    expect((await editStateOf(db, alice, fid(grid.fid))).base).toBe(base);
  });

  it("is the owner's alone: others get the 404 of a missing grid (or 403 when they may read it)", async () => {
    const grid = await newGrid(false);
    const base = (await editStateOf(db, alice, fid(grid.fid))).base;
    await expectApiError(saveGridEdits(db, bob, fid(grid.fid), { base, cols: [] }), 404);
    await expectApiError(editStateOf(db, bob, fid(grid.fid)), 404);
    const open = await newGrid(true);
    await expectApiError(saveGridEdits(db, bob, fid(open.fid), { base: (await editStateOf(db, alice, fid(open.fid))).base, cols: [] }), 403);
    await expectApiError(saveGridEdits(db, null, fid(grid.fid), { base, cols: [] }), 401);
  });

  it('draws the plots of the grid again when data changes (a new version), not for a rename or reorder alone', async () => {
    const grid = await newGrid();
    const [x, y, z] = grid.cols.map((c) => c.uid);
    const figure = { data: [{ type: 'scatter', xsrc: `${grid.fid}:${x}`, ysrc: `${grid.fid}:${z}` }] };
    const plot = (JSON.parse(await createPlot(db, alice, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid;
    const v1 = await plotVersion(plot);
    let base = (await editStateOf(db, alice, fid(grid.fid))).base;
    base = (await saveGridEdits(db, alice, fid(grid.fid), { base, cols: [{ uid: z, name: 'zz' }, { uid: x }, { uid: y }] })).base;
    expect(await plotVersion(plot)).toBe(v1);
    base = (await saveGridEdits(db, alice, fid(grid.fid), { base, cols: [{ uid: z, data: [1, 1, 1] }, { uid: x }, { uid: y }] })).base;
    expect(await plotVersion(plot)).toBe(v1 + 1);
    await saveGridEdits(db, alice, fid(grid.fid), { base, cols: [{ uid: z }, { uid: x }] });
    expect(await plotVersion(plot)).toBe(v1 + 2);
  });
});
