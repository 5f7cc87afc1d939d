// The workspace's lists (lib/core/files/own-files.ts listOwnFiles): a folder's files newest first, private ones
// included, paged with the lists' keyset pager; the trash holds what was trashed itself; a cursor
// works only for the owner and the place it was issued for.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createFolders } from '@/lib/core/files/files';
import { listOwnFiles } from '@/lib/core/files/own-files';
import { trashFile } from '@/lib/core/files/file-changes';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { DRIVERS, useDatabase } from '../support/postgres';
import { expectApiError, ORIGIN, people } from './_helpers';

const plotN = (text: string) => parseFid((JSON.parse(text) as { file: { fid: string } }).file.fid)!.n;

describe.each(DRIVERS)('own files (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  /** Every page of a place, following `next` cursors; the numbers in order. */
  async function walk(viewer: Viewer, place: number | 'trash', size: number): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = await listOwnFiles(db, viewer, place, { cursor, size });
      seen.push(...page.rows.map((r) => r.n));
      if (!page.next) return seen;
      cursor = page.next;
    }
    throw new Error('too many pages');
  }

  it("pages a folder's files newest first, private and secret ones included, and the trash apart", async () => {
    const folder = await createFolders(db, alice, ['work']);
    const made: number[] = [];
    for (const [i, sharing] of ['public', 'private', 'secret', 'public', 'private'].entries()) {
      const text = await createPlot(
        db,
        alice,
        {
          parent_path: ['work'],
          filename: `p${i}`,
          world_readable: sharing === 'public',
          share_key_enabled: sharing === 'secret',
          figure: { data: [{ type: 'bar' }] },
        },
        ORIGIN,
      );
      made.push(plotN(text));
    }
    const sub = await createFolders(db, alice, ['work', 'sub']);
    const top = await createPlot(db, alice, { filename: 'top', figure: { data: [] } }, ORIGIN);
    const newest = [sub.n, ...made.slice().reverse()];
    expect(await walk(alice, folder.n, 2)).toEqual(newest);
    expect(await walk(alice, folder.n, 100)).toEqual(newest);
    expect(await walk(alice, -1, 100)).toEqual([plotN(top), folder.n]);
    // Back from the second page is the first.
    const first = await listOwnFiles(db, alice, folder.n, { size: 2 });
    const second = await listOwnFiles(db, alice, folder.n, { size: 2, cursor: first.next! });
    const back = await listOwnFiles(db, alice, folder.n, { size: 2, cursor: second.previous! });
    expect(back.rows.map((r) => r.n)).toEqual(first.rows.map((r) => r.n));
    const secret = second.rows.find((r) => r.filename === 'p2')!;
    expect([secret.world_readable, typeof secret.share_key]).toEqual([false, 'string']);

    // Trashing the folder trashes its contents with it: the trash shows the folder, not each file.
    await trashFile(db, alice, { owner: 'alice', n: made[0] });
    await trashFile(db, alice, { owner: 'alice', n: folder.n });
    expect(await walk(alice, 'trash', 1)).toEqual([folder.n, made[0]]);
    expect(await walk(alice, folder.n, 100)).toEqual([]);
    expect(await walk(alice, -1, 100)).toEqual([plotN(top)]);
    // Someone else's workspace is their own files only.
    expect(await walk(bob, 'trash', 10)).toEqual([]);
    expect(await walk(bob, -1, 10)).toEqual([]);
  });

  it('refuses a cursor of another place or another owner (400)', async () => {
    await createFolders(db, alice, ['many']);
    for (let i = 0; i < 3; i++) await createPlot(db, alice, { filename: `t${i}`, figure: { data: [] } }, ORIGIN);
    const first = await listOwnFiles(db, alice, -1, { size: 1 });
    expect(first.next).toEqual(expect.any(String));
    await expectApiError(listOwnFiles(db, alice, 'trash', { size: 1, cursor: first.next! }), 400, /cursor/);
    await expectApiError(listOwnFiles(db, bob, -1, { size: 1, cursor: first.next! }), 400, /cursor/);
  });
});
