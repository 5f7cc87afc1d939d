// What one person stores (lib/core/accounts/storage.ts): the triggers' counter equals the sum
// recomputed from the files through every change of a grid, a plot and a dashboard, trash and its
// emptying; past the bound a change is refused with the sentence, and nothing of it stays.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { storageOf, storageRefusal, sumStoredBytes } from '@/lib/core/accounts/storage';
import { createDocument } from '@/lib/core/documents/dashboards';
import { deleteFile, trashFile } from '@/lib/core/files/file-changes';
import { appendColumns, deleteColumns, replaceColumns } from '@/lib/core/grids/column-verbs';
import { restoreGridVersion } from '@/lib/core/grids/grid-versions';
import { createGrid } from '@/lib/core/grids/grids';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { emptyTrash } from '@/lib/core/workspace/bulk-changes';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('per-person storage (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  const counted = async (viewer: Viewer) => {
    const { used } = await storageOf(db, viewer.id);
    expect(used).toBe(await sumStoredBytes(db, viewer.id));
    return used;
  };
  const grid = async (filename: string, x: number[]) => {
    const { file } = await createGrid(db, alice, { filename, data: { cols: { x: { data: x, order: 0 } }, metadata: { unit: 'kg' } } }, ORIGIN, 'python');
    return { fid: parseFid(file.fid)!, uid: file.cols[0].uid, src: `${file.fid}:${file.cols[0].uid}` };
  };

  it('the counter is the sum of what the files hold through every change', async () => {
    expect(await counted(alice)).toBe(0);
    const g = await grid('sales', [1, 2, 3]);
    const afterCreate = await counted(alice);
    expect(afterCreate).toBeGreaterThanOrEqual('[1,2,3]'.length + '{"unit": "kg"}'.length);

    const { cols } = await appendColumns(db, alice, g.fid, { cols: [{ name: 'y', data: [4, 5, 6, 7] }] }, 'python');
    expect(await counted(alice)).toBeGreaterThan(afterCreate);
    await replaceColumns(db, alice, g.fid, g.uid, { cols: [{ data: [1, 2, 3, 4, 5, 6, 7, 8, 9] }] }, 'web');
    await deleteColumns(db, alice, g.fid, cols[0].uid, 'web');
    const replaced = await counted(alice);
    // Version 1 (the grid as created) back: its values again, shared with its history, counted once.
    await restoreGridVersion(db, alice, g.fid, 1, 'web', ORIGIN);
    expect(await counted(alice)).toBeLessThan(replaced);
    await updateFileDetail(db, alice, g.fid, { metadata: { unit: 'kilograms' } } as never, ORIGIN, 'grid', 'web');
    await counted(alice);

    const plot = parseFid(JSON.parse(await createPlot(db, alice, { filename: 'p', figure: { data: [{ type: 'bar', ysrc: g.src }] } }, ORIGIN)).file.fid)!;
    await updateFileDetail(
      db,
      alice,
      plot,
      { figure: { data: [{ type: 'bar', ysrc: g.src }], layout: { title: { text: 'A longer title' } } } },
      ORIGIN,
      'plot',
    );
    const board = await createDocument(db, alice, 'dashboard', { filename: 'd', content: '{"layout": null}' });
    await updateFileDetail(
      db,
      alice,
      { owner: alice.username, n: board.file.n },
      { content: '{"layout": null, "settings": {}}' } as never,
      ORIGIN,
      'dashboard',
    );
    const all = await counted(alice);

    // Trash counts until emptied; a file deleted for good goes at once.
    await trashFile(db, alice, g.fid);
    expect(await counted(alice)).toBe(all);
    await deleteFile(db, alice, plot);
    const withoutPlot = await counted(alice);
    expect(withoutPlot).toBeLessThan(all);
    await emptyTrash(db, alice);
    expect(await counted(alice)).toBeLessThan(withoutPlot);
    expect(await counted(bob)).toBe(0);
  });

  it('past the bound a change is refused with the sentence and nothing of it stays', async () => {
    const g = await grid('bounded', [1]);
    const before = await counted(alice);
    let caught: unknown;
    try {
      await db.transaction(async (tx) => {
        // The bound the connection would carry from STORAGE_PER_PERSON_MB, for this transaction alone.
        await tx.execute(sql`SELECT set_config('plot_files.storage_bytes', ${String(before + 10)}, true)`);
        await appendColumns(tx, alice, g.fid, { cols: [{ name: 'big', data: Array.from({ length: 100 }, (_, i) => i) }] });
      });
    } catch (e) {
      caught = e;
    }
    const refusal = storageRefusal(caught);
    expect(refusal?.status).toBe(413);
    expect(refusal?.message).toMatch(
      /^Your files hold \d+ bytes of your \d+ bytes of storage; this change needs \d+ bytes more\. Delete files or empty the trash to make room\.$/,
    );
    expect(await counted(alice)).toBe(before);
    const [cols] = await queryRows<{ n: string }>(
      db,
      sql`SELECT count(*) AS n FROM grid_columns c JOIN files f ON f.id = c.grid_id WHERE f.filename = 'bounded'`,
    );
    expect(Number(cols.n)).toBe(1);
  });
});
