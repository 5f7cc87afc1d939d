// What a plot's data costs is counted in bytes (lib/core/plots/srcs.ts overDataLimit): every column records
// its stored text's size, kept by each write (appended rows add to it in SQL, so that sum is held to
// the stored text here, case by case), and a single text value is capped (MAX_CELL_BYTES).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { MAX_CELL_BYTES } from '@/lib/shared/column-values';
import { appendRows, replaceColumns } from '@/lib/core/grids/column-verbs';
import { createGrid } from '@/lib/core/grids/grids';
import { rowsBodySchema } from '@/lib/core/grids/grid-input';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { MAX_REFERENCED_BYTES } from '@/lib/core/plots/srcs';
import { DRIVERS, useDatabase } from '../support/postgres';
import { expectApiError, newViewer, ORIGIN } from './_helpers';

const fid = (text: string): Fid => parseFid(text)!;
const rows = (r: unknown[][]) => rowsBodySchema.parse({ rows: r });

describe.each(DRIVERS)('data bytes (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'alice');
  });

  /** Every column of the grid whose recorded size (the column's copy or its values') differs from its stored text's. */
  const drifted = (gridFid: string) =>
    queryRows<{ uid: string; bytes: string; actual: string }>(
      db,
      sql`SELECT c.uid, c.bytes::text AS bytes, octet_length(v.data::text)::text AS actual
          FROM grid_columns c JOIN column_values v ON v.id = c.values_id JOIN files f ON f.id = c.grid_id JOIN users u ON u.id = f.owner_id
          WHERE u.username || ':' || f.n = ${gridFid}
            AND (c.bytes <> octet_length(v.data::text) OR v.bytes <> c.bytes OR v.length <> c.length OR v.preview::text IS DISTINCT FROM c.preview::text)`,
    );

  it("a column's recorded size is its stored text's, through every write", async () => {
    const { file } = await createGrid(
      db,
      alice,
      {
        data: {
          cols: { n: { data: [1, 2.5, -0, 1e21] }, t: { data: ['a', 'é', '漢字', '"q"\n', '😀'] }, empty: { data: [] }, nested: { data: [[1, 'ü'], []] } },
        },
      },
      ORIGIN,
    );
    expect(await drifted(file.fid)).toEqual([]);
    const [n, t, empty] = file.cols.map((c) => c.uid);
    // Cases of the SQL sum: a short column padded, an empty one padded, unicode and escapes added.
    const cases: unknown[][][] = [
      [[7, 'ß', null, ['x']]],
      [
        [8, '\\', true, []],
        [9, '\u0001', false, [1]],
      ],
    ];
    for (const added of cases) {
      await appendRows(db, alice, fid(file.fid), rows(added), ORIGIN);
      expect(await drifted(file.fid)).toEqual([]);
    }
    await replaceColumns(db, alice, fid(file.fid), `${n},${empty}`, { cols: [{ data: ['Ω', 'x'.repeat(100)] }, { data: [1] }] });
    expect(await drifted(file.fid)).toEqual([]);
    await appendRows(db, alice, fid(file.fid), rows([[1, 2, 3, 4]]), ORIGIN);
    expect(await drifted(file.fid)).toEqual([]);
    expect(t).toBeTruthy();
  });

  it('a text value over the cell cap is refused where it is, and nothing is written', async () => {
    const over = 'é'.repeat(MAX_CELL_BYTES / 2 + 1);
    const fits = 'é'.repeat(MAX_CELL_BYTES / 2);
    const err = await expectApiError(createGrid(db, alice, { data: { cols: { a: { data: [1] }, b: { data: ['x', fits, over] } } } }, ORIGIN), 400, /64 KiB/);
    expect(err.errors[0].field).toBe('data');
    expect(err.errors[0].path).toBe('data.cols.b.data[2]');
    await expectApiError(createGrid(db, alice, { data: { cols: { b: { data: [['x', [over]]] } } } }, ORIGIN), 400, /64 KiB/);

    const { file } = await createGrid(db, alice, { data: { cols: { a: { data: [1] }, b: { data: [fits] } } } }, ORIGIN);
    const before = await queryRows<{ data: string }>(
      db,
      sql`SELECT v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id JOIN files f ON f.id = c.grid_id WHERE f.n = ${fid(file.fid).n} AND f.owner_id = ${alice.id} ORDER BY c.ord`,
    );
    const rowErr = await expectApiError(
      appendRows(
        db,
        alice,
        fid(file.fid),
        rows([
          [2, 'ok'],
          [3, over],
        ]),
        ORIGIN,
      ),
      400,
      /64 KiB/,
    );
    expect(rowErr.errors[0].path).toBe('rows[1][1]');
    const colErr = await expectApiError(replaceColumns(db, alice, fid(file.fid), file.cols[1].uid, { cols: [{ data: [over] }] }), 400, /64 KiB/);
    expect(colErr.errors[0].path).toBe('cols[0].data[0]');
    const after = await queryRows<{ data: string }>(
      db,
      sql`SELECT v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id JOIN files f ON f.id = c.grid_id WHERE f.n = ${fid(file.fid).n} AND f.owner_id = ${alice.id} ORDER BY c.ord`,
    );
    expect(after).toEqual(before);
  });

  it('a plot may reference at most MAX_REFERENCED_BYTES, each reference counted; the create statement and checkSources agree', async () => {
    // One column of cells at the cap, the bound reached within a figure's 1,000 traces: each reference costs its whole text.
    const cells = Math.ceil(MAX_REFERENCED_BYTES / 900 / MAX_CELL_BYTES);
    const { file } = await createGrid(
      db,
      alice,
      { world_readable: true, data: { cols: { big: { data: Array.from({ length: cells }, () => 'w'.repeat(MAX_CELL_BYTES - 8)) } } } },
      ORIGIN,
    );
    const [{ bytes }] = await queryRows<{ bytes: string }>(
      db,
      sql`SELECT c.bytes::text AS bytes FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${alice.id} AND f.n = ${fid(file.fid).n}`,
    );
    const src = `${file.fid}:${file.cols[0].uid}`;
    const within = Math.floor(MAX_REFERENCED_BYTES / Number(bytes));
    const count = async () =>
      Number(
        (await queryRows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${alice.id}`))[0].n,
      );
    const plots = await count();
    // Just past the bound, far past it (the shape: a tiny figure naming one column many times).
    for (const traces of [within + 1, 1000]) {
      const err = await expectApiError(
        createPlot(db, alice, { figure: { data: Array.from({ length: traces }, () => ({ type: 'scatter', ysrc: src })) } }, ORIGIN),
        400,
        /MiB of grid data; at most 2048\.0 MiB a plot/,
      );
      expect(err.errors[0].field).toBe('figure');
    }
    expect(await count()).toBe(plots);
    const created = JSON.parse(
      await createPlot(db, alice, { world_readable: true, figure: { data: Array.from({ length: within }, () => ({ type: 'scatter', ysrc: src })) } }, ORIGIN),
    );
    const [row] = await queryRows<{ data_bytes: string }>(
      db,
      sql`SELECT p.data_bytes::text AS data_bytes FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${alice.id} AND f.n = ${fid(created.file.fid).n}`,
    );
    expect(Number(row.data_bytes)).toBe(within * Number(bytes));

    // Past what one read serves whole (and the column grows past the plot's bound afterwards): content refuses to inline it, naming the parameter.
    await appendRows(db, alice, fid(file.fid), rows(Array.from({ length: cells }, () => ['w'.repeat(MAX_CELL_BYTES - 8)])), ORIGIN);
    const content = await expectApiError(
      getPlotContent(db, null, fid(created.file.fid), { inlineData: true, mapUnreadable: false }),
      400,
      /of grid data; at most 128\.0 MiB are served inline/,
    );
    expect(content.errors[0].field).toBe('inline_data');
    // And the plot's recorded size followed the grid.
    const [grown] = await queryRows<{ data_bytes: string }>(
      db,
      sql`SELECT p.data_bytes::text AS data_bytes FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${alice.id} AND f.n = ${fid(created.file.fid).n}`,
    );
    expect(Number(grown.data_bytes)).toBeGreaterThan(MAX_REFERENCED_BYTES);
  });
});
