// The srcs rule in its two forms, held to one table of cases on PostgreSQL and PGlite: checkSources
// (what an update, and a refused create, say) and srcsVerdictSql (what a create's one statement
// decides), so a plot is never created that an update would refuse, nor refused that one would take;
// and their parts: canRead and canReadSql, overDataLimit and withinDataLimitSql.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { ApiError } from '@/lib/core/errors';
import { trashFile } from '@/lib/core/files/file-changes';
import { checkFigure } from '@/lib/core/figures/figure';
import { createGrid } from '@/lib/core/grids/grids';
import { canRead, canReadSql } from '@/lib/core/permissions';
import { parseFid } from '@/lib/core/records';
import {
  checkSources,
  MAX_REFERENCED_BYTES,
  MAX_REFERENCED_VALUES,
  overDataLimit,
  srcColumnsSql,
  srcsVerdictSql,
  wantedColumns,
  withinDataLimitSql,
} from '@/lib/core/plots/srcs';
import type { DataSize } from '@/lib/shared/figures/live-drawing';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { newViewer, ORIGIN } from './_helpers';

// [what, world readable, viewer: null (anonymous), the owner (1) or another (2)]
const ACCESS: [string, boolean, number | null][] = [
  ['public, anonymous', true, null],
  ['public, its owner', true, 1],
  ['public, another', true, 2],
  ['private, anonymous', false, null],
  ['private, its owner', false, 1],
  ['private, another', false, 2],
];

const SIZES: DataSize[] = [
  { values: 0, bytes: 0 },
  { values: MAX_REFERENCED_VALUES, bytes: MAX_REFERENCED_BYTES },
  { values: MAX_REFERENCED_VALUES + 1, bytes: 0 },
  { values: 0, bytes: MAX_REFERENCED_BYTES + 1 },
  { values: MAX_REFERENCED_VALUES + 1, bytes: MAX_REFERENCED_BYTES + 1 },
];

describe.each(SQL_DRIVER)('the srcs rule in TypeScript and SQL (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  const grids: Record<string, { fid: string; uid: Record<string, string> }> = {};

  async function grid(name: string, owner: Viewer, worldReadable: boolean, cols: Record<string, unknown[]>) {
    const { file } = await createGrid(
      db,
      owner,
      { filename: name, world_readable: worldReadable, data: { cols: Object.fromEntries(Object.entries(cols).map(([k, data]) => [k, { data }])) } },
      ORIGIN,
    );
    grids[name] = { fid: file.fid, uid: Object.fromEntries(file.cols.map((c) => [c.name, c.uid])) };
  }

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'Alice');
    bob = await newViewer(db, 'bob');
    await grid('mine', alice, false, { x: [1, 2, 3], y: ['a', 'bb'] });
    await grid('public', bob, true, { p: [1, 2, 3, 4] });
    await grid('private', bob, false, { q: [1] });
    await grid('trashed', alice, true, { t: [1] });
    await trashFile(db, alice, parseFid(grids.trashed.fid)!);
    // Sizes at and past the limits, without storing that much: the rule reads the stored counts.
    await grid('big', alice, true, { atLimit: [1], one: [1], heavy: [1] });
    // Past a person's storage too (the bytes bound is above it): that bound set aside for these updates.
    const setSize = (uid: string, length: number, bytes: number) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('plot_files.storage_bytes', '0', true)`);
        await tx.execute(sql`UPDATE grid_columns SET length = ${length}, bytes = ${bytes} WHERE uid = ${uid}`);
      });
    await setSize(grids.big.uid.atLimit, MAX_REFERENCED_VALUES, 1000);
    await setSize(grids.big.uid.heavy, 1, MAX_REFERENCED_BYTES);
  });

  it('canRead and canReadSql: the same answer, never null', async () => {
    for (const [what, worldReadable, viewerId] of ACCESS) {
      const viewer = viewerId === null ? null : { id: viewerId, username: 'v' };
      const [row] = await queryRows<{ can: boolean | null }>(
        db,
        sql`SELECT ${canReadSql({ id: sql`0`, worldReadable: sql`${worldReadable}::boolean`, ownerId: sql`1` }, viewerId)} AS can`,
      );
      expect(row.can, what).toBe(canRead({ ownerId: 1, worldReadable, shareKey: null }, viewer));
    }
  });

  it('overDataLimit and withinDataLimitSql: the same bound', async () => {
    for (const size of SIZES) {
      const [row] = await queryRows<{ within: boolean }>(
        db,
        sql`SELECT ${withinDataLimitSql({ values: sql`${size.values}::bigint`, bytes: sql`${size.bytes}::bigint` })} AS within`,
      );
      expect(row.within, JSON.stringify(size)).toBe(overDataLimit(size) === null);
    }
  });

  const src = (name: string, ...cols: string[]) => `${grids[name].fid}:${cols.map((c) => grids[name].uid[c] ?? c).join(',')}`;

  // [what, the figure's srcs (made once the grids exist), whether they pass]
  const CASES: [string, () => string[], boolean][] = [
    ['no srcs', () => [], true],
    ['a column of the viewer’s private grid', () => [src('mine', 'x')], true],
    ['columns of two grids, one another’s public one', () => [src('mine', 'y', 'x'), src('public', 'p')], true],
    ['a column two srcs name counts twice', () => [src('public', 'p'), src('public', 'p')], true],
    ['the owner in another case', () => [src('mine', 'x').replace(/^Alice/, 'ALICE')], true],
    ['another’s private grid', () => [src('private', 'q')], false],
    ['another’s private grid among readable ones', () => [src('mine', 'x'), src('private', 'q')], false],
    ['a trashed grid', () => [src('trashed', 't')], false],
    ['a uid the grid lacks', () => [`${src('mine', 'x')},nosuch`], false],
    ['no such grid', () => [`${grids.mine.fid.split(':')[0]}:999999:abc`], false],
    ['no such owner', () => ['nobody:1:abc'], false],
    ['values at the limit', () => [src('big', 'atLimit')], true],
    ['values one past the limit', () => [src('big', 'atLimit', 'one')], false],
    ['bytes at the limit', () => [src('big', 'heavy')], true],
    ['bytes past the limit', () => [src('big', 'heavy'), src('big', 'heavy')], false],
  ];

  it.each(CASES)('%s', async (_what, srcs, passes) => {
    const refs = checkFigure({ data: srcs().map((s) => ({ type: 'scatter', xsrc: s })) });
    expect(refs).toHaveLength(srcs().length);
    let checked: DataSize | ApiError;
    try {
      checked = await checkSources(db, alice, refs);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      checked = e;
    }
    const [verdict] = await queryRows<{ ok: boolean; data_values: string | number; data_bytes: string | number }>(
      db,
      sql`WITH found AS MATERIALIZED (${srcColumnsSql(sql`${wantedColumns(refs)}`)})
          ${srcsVerdictSql(sql`${wantedColumns(refs)}`, sql`found`, sql`${alice.id}`)}`,
    );
    expect(checked instanceof ApiError ? checked.status : 200).toBe(passes ? 200 : 400);
    expect(verdict.ok).toBe(passes);
    if (!(checked instanceof ApiError)) expect({ values: Number(verdict.data_values), bytes: Number(verdict.data_bytes) }).toEqual(checked);
  });
});
