// Long numeric and date columns stored in blocks (lib/core/grids/column-blocks.ts): blockSeries answers
// rows, rowAtOrAfter and extremes exactly as one pass over the same values in memory does (blanks,
// dates, sorted and not, ranges at block edges, every summary level), and the write paths (create,
// a plot's copy, rows appended) store them.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { blockExtremesOfColumn, blockSeries } from '@/lib/core/grids/column-blocks';
import { appendRows } from '@/lib/core/grids/column-verbs';
import { rowsBodySchema } from '@/lib/core/grids/grid-input';
import { createGrid } from '@/lib/core/grids/grids';
import { copyPlot } from '@/lib/core/plots/plot-copy';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import type { SeriesSource } from '@/lib/core/grids/series-source';
import { MAX_COLUMN_VALUES } from '@/lib/shared/column-values';
import { BLOCK_ROWS, BLOCKS_FROM_ROWS, extremesInto, seriesOf, STRETCH_ROWS } from '@/lib/shared/series-blocks';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, newViewer, ORIGIN } from './_helpers';

const N = BLOCKS_FROM_ROWS + 3 * BLOCK_ROWS + 77;
let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const DAY0 = Date.UTC(2020, 0, 1);
const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

const COLUMNS: Record<string, unknown[]> = {
  // Sorted dates, a blank now and then.
  t: Array.from({ length: N }, (_, i) => (i % 997 === 5 ? '' : dateText(DAY0 + i * 1000))),
  // Unsorted numbers, numeric strings and blanks (and a whole blank stretch).
  x: Array.from({ length: N }, (_, i) =>
    i >= 128 && i < 192 ? null : i % 13 === 0 ? '' : i % 7 === 0 ? String(Math.round(random() * 100)) : Math.round(random() * 1e4) / 10,
  ),
  // Sorted with repeats.
  s: Array.from({ length: N }, (_, i) => Math.floor(i / 3)),
  // Text, and a short number column: no blocks.
  c: Array.from({ length: N }, (_, i) => `k${i}`),
};

/** The extremes of each stretch at `bounds`, in one pass over the numbers. */
function expected(numbers: Float64Array, bounds: Float64Array) {
  const out = new Float64Array(4);
  const r = { minRow: [] as number[], min: [] as number[], maxRow: [] as number[], max: [] as number[] };
  for (let k = 0; k + 1 < bounds.length; k++) {
    extremesInto(numbers, bounds[k], bounds[k + 1], out, 0);
    r.minRow.push(out[0]);
    r.min.push(out[1]);
    r.maxRow.push(out[2]);
    r.max.push(out[3]);
  }
  return r;
}

const RANGES: [number, number][] = [
  [0, N],
  [0, 1],
  [BLOCK_ROWS - 1, BLOCK_ROWS + 1],
  [BLOCK_ROWS, 2 * BLOCK_ROWS],
  [STRETCH_ROWS * 3 + 5, STRETCH_ROWS * 70 - 1],
  [12_345, 65_000],
  [N - 80, N],
  [5, N - 3],
];

describe.each(SQL_DRIVER)('column blocks (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  const sources = new Map<string, SeriesSource | null>();
  const numbers = new Map<string, Float64Array>();

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'blocks');
    const cols = Object.fromEntries(Object.entries({ ...COLUMNS, short: [1, 2, 3] }).map(([k, data]) => [k, { data }]));
    await createGrid(db, alice, { data: { cols } }, ORIGIN);
    const rows = await queryRows<{ name: string; values_id: string }>(
      db,
      sql`SELECT c.name, c.values_id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${alice.id}`,
    );
    for (const r of rows) sources.set(r.name, await blockSeries(db, Number(r.values_id)));
    for (const [k, v] of Object.entries(COLUMNS)) if (k !== 'c') numbers.set(k, seriesOf(v)!.numbers);
  });

  it('stores blocks for long number and date columns only, with their kind and order', () => {
    expect(sources.get('c')).toBeNull();
    expect(sources.get('short')).toBeNull();
    expect(['t', 'x', 's'].map((k) => [sources.get(k)!.kind, sources.get(k)!.sorted, sources.get(k)!.length])).toEqual([
      ['date', true, N],
      ['number', false, N],
      ['number', true, N],
    ]);
  });

  it.each(['t', 'x', 's'])('answers rows, rowAtOrAfter and extremes as one pass in memory (%s)', async (name) => {
    const source = sources.get(name)!;
    const all = numbers.get(name)!;
    for (const [from, to] of RANGES) {
      expect(Array.from(await source.rows(from, to))).toEqual(Array.from(all.subarray(from, to)));
      for (const stretches of [1, 7, 1000]) {
        const got = await source.extremes(from, to, stretches);
        expect(got.bounds[0]).toBe(from);
        expect(got.bounds[got.bounds.length - 1]).toBe(to);
        expect(got.bounds.length - 1).toBeLessThanOrEqual(stretches + 1);
        const want = expected(all, got.bounds);
        expect({ minRow: Array.from(got.minRow), min: Array.from(got.min), maxRow: Array.from(got.maxRow), max: Array.from(got.max) }).toEqual(want);
      }
    }
    if (source.sorted) {
      const probes = [-Infinity, all[0], all[BLOCK_ROWS], all[BLOCK_ROWS] + 0.5, all[N - 1], all[N - 1] + 1, all[70_000]];
      for (const p of probes) expect(await source.rowAtOrAfter(p)).toBe(all.findIndex((v) => v >= p) === -1 ? N : all.findIndex((v) => v >= p));
    }
  });

  it('reads the per-block level too, and the per-block floor in one statement', async () => {
    const rows = await queryRows<{ values_id: string }>(
      db,
      sql`SELECT values_id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE c.name = 'x' AND f.owner_id = ${alice.id}`,
    );
    const id = Number(rows[0].values_id);
    const all = numbers.get('x')!;
    // Fewer entries a read than there are stretches: blocks are merged.
    const coarse = (await blockSeries(db, id, 16))!;
    for (const [from, to] of RANGES) {
      const got = await coarse.extremes(from, to, 5);
      expect(Array.from(got.max)).toEqual(expected(all, got.bounds).max);
      expect(Array.from(got.minRow)).toEqual(expected(all, got.bounds).minRow);
    }
    const floor = await blockExtremesOfColumn(db, id);
    expect(floor.length).toBe(Math.ceil(N / BLOCK_ROWS));
    expect(Math.max(...floor.map((b) => Number(b.max)))).toBe(Math.max(...all.filter((v) => !Number.isNaN(v))));
  });

  it("copies a plot's long columns with their blocks", async () => {
    const [grid] = await queryRows<{ n: number }>(
      db,
      sql`SELECT f.n FROM files f WHERE f.owner_id = ${alice.id} AND f.filetype = 'grid' ORDER BY f.id LIMIT 1`,
    );
    const uids = await queryRows<{ name: string; uid: string }>(
      db,
      sql`SELECT c.name, c.uid FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${alice.id} AND f.n = ${grid.n}`,
    );
    const uid = (name: string) => uids.find((u) => u.name === name)!.uid;
    const plot = JSON.parse(
      await createPlot(
        db,
        alice,
        { world_readable: true, figure: { data: [{ type: 'scatter', xsrc: `blocks:${grid.n}:${uid('t')}`, ysrc: `blocks:${grid.n}:${uid('x')}` }] } },
        ORIGIN,
      ),
    );
    const bob = await newViewer(db, 'copier');
    await copyPlot(db, bob, parseFid(plot.file.fid)!, null, ORIGIN);
    const copied = await queryRows<{ name: string; values_id: string }>(
      db,
      sql`SELECT c.name, c.values_id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${bob.id} ORDER BY c.name`,
    );
    expect(copied.map((c) => c.name)).toEqual(['t', 'x']);
    for (const c of copied) {
      const source = (await blockSeries(db, Number(c.values_id)))!;
      expect([source.kind, source.sorted, source.length]).toEqual([sources.get(c.name)!.kind, sources.get(c.name)!.sorted, N]);
      expect(Array.from(await source.rows(N - 5000, N))).toEqual(Array.from(numbers.get(c.name)!.subarray(N - 5000)));
    }
  });

  it('refuses rows past MAX_COLUMN_VALUES a column (400 naming rows), appending nothing', async () => {
    const { file } = await createGrid(db, alice, { data: { cols: { full: { data: [1] }, short: { data: [1] } } } }, ORIGIN);
    // The rule reads the stored lengths: no need to store ten million values.
    await db.execute(
      sql`UPDATE grid_columns c SET length = ${MAX_COLUMN_VALUES - 1} FROM files f WHERE f.id = c.grid_id AND f.owner_id = ${alice.id} AND f.n = ${parseFid(file.fid)!.n} AND c.name = 'full'`,
    );
    const values = () =>
      queryRows<{ values_id: string }>(
        db,
        sql`SELECT c.values_id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.owner_id = ${alice.id} AND f.n = ${parseFid(file.fid)!.n} ORDER BY c.ord`,
      );
    const before = await values();
    const rows = rowsBodySchema.parse({
      rows: [
        [2, 2],
        [3, 3],
      ],
    });
    const err = await expectApiError(appendRows(db, alice, parseFid(file.fid)!, rows, ORIGIN), 400, new RegExp(`at most ${MAX_COLUMN_VALUES} values a column`));
    expect(err.errors[0].field).toBe('rows');
    expect(await values()).toEqual(before);
  });

  it('gives appended rows blocks once a column is long enough', async () => {
    const short = Array.from({ length: BLOCKS_FROM_ROWS - 10 }, (_, i) => i);
    const { file } = await createGrid(db, alice, { data: { cols: { a: { data: short } } } }, ORIGIN);
    const added = Array.from({ length: 20 }, (_, i) => [i % 2 ? '' : -i - 1]);
    await appendRows(db, alice, parseFid(file.fid)!, rowsBodySchema.parse({ rows: added }), ORIGIN);
    const [col] = await queryRows<{ values_id: string }>(
      db,
      sql`SELECT c.values_id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.n = ${parseFid(file.fid)!.n} AND f.owner_id = ${alice.id}`,
    );
    const source = (await blockSeries(db, Number(col.values_id)))!;
    const all = seriesOf([...short, ...added.map((r) => r[0])])!.numbers;
    expect([source.length, source.sorted]).toEqual([all.length, false]);
    expect(Array.from(await source.rows(all.length - 100, all.length))).toEqual(Array.from(all.subarray(-100)));
  });

  it('appended to a long column, its blocks are the old ones and the rows added: as one pass over the whole column answers', async () => {
    const t = COLUMNS.t.slice(0, N - 50);
    const x = COLUMNS.x.slice(0, N - 50);
    const { file } = await createGrid(db, alice, { data: { cols: { t: { data: t }, x: { data: x } } } }, ORIGIN);
    const fid = parseFid(file.fid)!;
    const sourcesOf = async () => {
      const cols = await queryRows<{ name: string; values_id: string }>(
        db,
        sql`SELECT c.name, c.values_id FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.n = ${fid.n} AND f.owner_id = ${alice.id} ORDER BY c.ord`,
      );
      return Promise.all(cols.map((c) => blockSeries(db, Number(c.values_id))));
    };
    const append = (rows: unknown[][]) => appendRows(db, alice, fid, rowsBodySchema.parse({ rows }), ORIGIN);
    const later = Array.from({ length: 5000 }, (_, i) => [i === 7 ? '' : dateText(DAY0 + (N + i) * 1000), i % 11 ? i / 4 : '']);
    await append(later);
    const whole = [t.concat(later.map((r) => r[0])), x.concat(later.map((r) => r[1]))].map((v) => seriesOf(v)!);
    const [ts, xs] = (await sourcesOf()) as SeriesSource[];
    for (const [source, want] of [
      [ts, whole[0]],
      [xs, whole[1]],
    ] as const) {
      expect([source.length, source.kind, source.sorted]).toEqual([want.numbers.length, want.kind, want.sorted]);
      const seam = t.length;
      expect(Array.from(await source.rows(seam - 300, seam + 300))).toEqual(Array.from(want.numbers.subarray(seam - 300, seam + 300)));
      for (const [from, to] of [
        [0, want.numbers.length],
        [seam - 1000, want.numbers.length],
        [seam - 5, seam + 5],
      ]) {
        const got = await source.extremes(from, to, 37);
        const e = expected(want.numbers, got.bounds);
        expect([Array.from(got.minRow), Array.from(got.min), Array.from(got.maxRow), Array.from(got.max)]).toEqual([e.minRow, e.min, e.maxRow, e.max]);
      }
    }
    // An earlier date: no longer sorted; a word: the column is words now, without blocks.
    await append([[dateText(DAY0), 'seven']]);
    const [t2, x2] = await sourcesOf();
    expect([t2?.sorted, t2?.length, x2]).toEqual([false, whole[0].numbers.length + 1, null]);
  });
});
