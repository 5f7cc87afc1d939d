// The plot page's view counter, on both drivers: concurrent views each count once, and its commit
// mode (no wait for the WAL flush) ends with its own statement, never reaching the session's next one.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/auth';
import { createPlot } from '@/lib/core/plots';
import { countView } from '@/lib/core/view-counts';
import { DRIVERS, useDatabase } from '../support/postgres';
import { fileIds, newViewer, ORIGIN } from './_helpers';

describe.each(DRIVERS)('view count (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;

  beforeAll(async () => {
    db = database.db;
  });

  const newPlot = async (owner: Viewer) => {
    const { file } = JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar' }] } }, ORIGIN)) as { file: { fid: string } };
    return (await fileIds(db)).get(file.fid)!;
  };

  it('counts each of many concurrent views once, and answers the new total', async () => {
    const owner = await newViewer(db, 'viewed');
    const id = await newPlot(owner);
    const totals = await Promise.all(Array.from({ length: 40 }, () => countView(db, id)));
    expect([...totals].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const [row] = await queryRows<{ views: string }>(db, sql`SELECT views FROM plots WHERE file_id = ${id}`);
    expect(Number(row.views)).toBe(40);
  });

  it('leaves synchronous_commit on for every later statement of every connection', async () => {
    const owner = await newViewer(db, 'viewed2');
    const id = await newPlot(owner);
    await Promise.all(Array.from({ length: 40 }, () => countView(db, id)));
    const modes = await Promise.all(
      Array.from({ length: 40 }, () => queryRows<{ mode: string }>(db, sql`SELECT current_setting('synchronous_commit') AS mode`)),
    );
    expect(new Set(modes.map(([r]) => r.mode))).toEqual(new Set(['on']));
  });

  it('a missing plot counts nothing and answers 0', async () => {
    expect(await countView(db, 987_654_321)).toBe(0);
  });
});
