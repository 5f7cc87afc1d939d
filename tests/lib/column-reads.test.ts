// Reading many columns in batches (lib/core/grids/column-reads.ts), on both drivers: batches are bounded in
// columns and bytes, and every reader of a grid of many columns (content, columns by uid, a version,
// the CSV's columns) answers each column's values in its place across batch boundaries.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { COLUMN_BATCH, columnBatches, columnTextList } from '@/lib/core/grids/column-reads';
import { getGridVersion } from '@/lib/core/grids/grid-versions';
import { readColumns, replaceColumns } from '@/lib/core/grids/column-verbs';
import { createGrid, gridContent } from '@/lib/core/grids/grids';
import { parseFid } from '@/lib/core/records';
import { DRIVERS, useDatabase } from '../support/postgres';
import { joinParts, newViewer, ORIGIN } from './_helpers';

describe('column batches', () => {
  it('cut runs at the column count and at the byte bound, a column over the bound alone', () => {
    const many = Array.from({ length: COLUMN_BATCH.columns * 2 + 1 }, (_, i) => ({ i, bytes: 10 }));
    expect(columnBatches(many).map((b) => b.length)).toEqual([COLUMN_BATCH.columns, COLUMN_BATCH.columns, 1]);
    const half = COLUMN_BATCH.bytes / 2;
    const sized = [{ bytes: half }, { bytes: half }, { bytes: 1 }, { bytes: COLUMN_BATCH.bytes * 3 }, { bytes: 1 }];
    expect(columnBatches(sized).map((b) => b.length)).toEqual([2, 1, 1, 1]);
    expect(columnBatches([])).toEqual([]);
    expect(columnBatches(many).flat()).toEqual(many);
  });
});

describe.each(DRIVERS)('a grid of many columns (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  const COLS = COLUMN_BATCH.columns * 2 + 7;

  beforeAll(async () => {
    db = database.db;
    alice = await newViewer(db, 'wide');
  });

  it('reads content, columns, versions and the CSV columns in order across batches', async () => {
    const cols = Object.fromEntries(Array.from({ length: COLS }, (_, i) => [`c${i}`, { data: [i, `v${i}`] }]));
    const { file } = await createGrid(db, alice, { data: { cols }, world_readable: true }, ORIGIN);
    const fid = parseFid(file.fid)!;
    const content = JSON.parse(await joinParts(await gridContent(db, null, fid))).cols as Record<string, { data: unknown[]; order: number; uid: string }>;
    expect(Object.keys(content)).toHaveLength(COLS);
    for (let i = 0; i < COLS; i++) expect(content[`c${i}`].data).toEqual([i, `v${i}`]);

    // Asked in reverse (at most 1,000 uids a request): answered in the order asked.
    const uids = file.cols.map((c) => c.uid).reverse();
    const some = uids.slice(0, 1000);
    const asked = JSON.parse(await joinParts(await readColumns(db, null, fid, some.join(',')))).cols as { name: string; uid: string; data: unknown[] }[];
    expect(asked.map((c) => c.uid)).toEqual(some);
    expect(asked.map((c) => c.data[0])).toEqual(Array.from({ length: 1000 }, (_, i) => COLS - 1 - i));

    // Version 1, once it is no longer the current one, and the current one.
    await replaceColumns(db, alice, fid, file.cols[0].uid, { cols: [{ name: 'c0', data: ['changed'] }] });
    for (const n of [1, 2]) {
      const version = JSON.parse(await joinParts(await getGridVersion(db, alice, fid, n))).cols as { name: string; data: unknown[] }[];
      expect(version).toHaveLength(COLS);
      expect(version[0].data).toEqual(n === 1 ? [0, 'v0'] : ['changed']);
      expect(version.slice(1).map((c) => c.data)).toEqual(Array.from({ length: COLS - 1 }, (_, i) => [i + 1, `v${i + 1}`]));
    }

    // By id, in the order given, a missing id's text 'null', a repeated id twice.
    const ids = await queryRows<{ id: string }>(db, sql`SELECT id FROM grid_columns WHERE uid = ANY(${`{${uids.join(',')}}`}::text[]) ORDER BY ord DESC`);
    const byId = await columnTextList(db, [...ids.map((r) => Number(r.id)), 987_654_321, Number(ids[0].id)]);
    expect(byId).toHaveLength(COLS + 2);
    expect(JSON.parse(byId[1])).toEqual([COLS - 2, `v${COLS - 2}`]);
    expect(byId[COLS]).toBe('null');
    expect(byId[COLS + 1]).toBe(byId[0]);
  });
});
