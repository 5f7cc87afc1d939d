// The workspace's lists (lib/core/files/own-files.ts listOwnFiles): a folder's files newest first, its
// folders first in every order, private ones included, paged with the lists' keyset pager; the trash holds what was trashed itself; a cursor
// works only for the owner and the place it was issued for. A search of one's own files finds grids and
// folders by name.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createFolders } from '@/lib/core/files/files';
import { listOwnFiles } from '@/lib/core/files/own-files';
import { findOwnGridsAndFolders } from '@/lib/core/workspace/name-search';
import { createGrid } from '@/lib/core/grids/grids';
import { trashFile } from '@/lib/core/files/file-changes';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import type { OwnSort } from '@/lib/shared/workspace-view';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, ORIGIN, people } from './_helpers';

const plotN = (text: string) => parseFid((JSON.parse(text) as { file: { fid: string } }).file.fid)!.n;

describe.each(SQL_DRIVER)('own files (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  /** Every page of a place, following `next` cursors; the numbers in order. */
  async function walk(viewer: Viewer, place: number | 'trash', size: number, sort?: OwnSort): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = await listOwnFiles(db, viewer, place, { cursor, size, sort });
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
    expect(await walk(alice, -1, 100)).toEqual([folder.n, plotN(top)]);
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
  it('lists folders first in every order, across pages forward and back, whatever they were modified', async () => {
    const top = await createFolders(db, alice, ['mixed']);
    const made: { n: number; fold: boolean; name: string }[] = [];
    // Folders and plots made in turn, so by date they interleave; names interleave too.
    for (const [i, name] of ['d', 'b', 'f', 'a', 'e', 'c'].entries()) {
      if (i % 2) made.push({ n: (await createFolders(db, alice, ['mixed', `${name} folder`])).n, fold: true, name: `${name} folder` });
      else
        made.push({
          n: plotN(await createPlot(db, alice, { parent_path: ['mixed'], filename: `${name} plot`, figure: { data: [] } }, ORIGIN)),
          fold: false,
          name: `${name} plot`,
        });
    }
    const byDate = [...made].reverse();
    const byName = [...made].sort((a, b) => a.name.localeCompare(b.name));
    const expected: [OwnSort, typeof made][] = [
      ['modified', byDate],
      ['name', byName],
      ['views', byDate.slice().sort((a, b) => b.n - a.n)],
    ];
    for (const [sort, rows] of expected) {
      const want = [...rows.filter((r) => r.fold), ...rows.filter((r) => !r.fold)].map((r) => r.n);
      for (const size of [1, 2, 4, 100]) expect(await walk(alice, top.n, size, sort), `${sort} by ${size}`).toEqual(want);
      // Back from the page that crosses from folders to files is the page before it.
      const first = await listOwnFiles(db, alice, top.n, { size: 2, sort });
      const second = await listOwnFiles(db, alice, top.n, { size: 2, sort, cursor: first.next! });
      expect(second.rows.map((r) => r.n)).toEqual(want.slice(2, 4));
      const back = await listOwnFiles(db, alice, top.n, { size: 2, sort, cursor: second.previous! });
      expect(back.rows.map((r) => r.n)).toEqual(want.slice(0, 2));
    }
    // A cursor of one order is refused in another.
    const page = await listOwnFiles(db, alice, top.n, { size: 2, sort: 'name' });
    await expectApiError(listOwnFiles(db, alice, top.n, { size: 2, sort: 'modified', cursor: page.next! }), 400, /cursor/);
  });
  it("finds the owner's live grids and folders by the words of their names, latest first, nobody else's", async () => {
    const grid = async (owner: Viewer, filename: string) =>
      parseFid((await createGrid(db, owner, { filename, data: { cols: { x: { data: [1] } } } }, ORIGIN)).file.fid)!.n;
    const data = await grid(alice, 'Sales_archive-data');
    const folder = (await createFolders(db, alice, ['archive 2024'])).n;
    const nested = (await createFolders(db, alice, ['old', 'Archive'])).n;
    const gone = await grid(alice, 'archive gone');
    await trashFile(db, alice, { owner: 'alice', n: gone });
    await createPlot(db, alice, { filename: 'archive plot', figure: { data: [] } }, ORIGIN);
    await createFolders(db, bob, ['archive']);
    const found = async (q: string, who = alice) => (await findOwnGridsAndFolders(db, who, q)).map((r) => r.n);
    expect(await found('archive')).toEqual([nested, folder, data]);
    expect(await found('archive 2024')).toEqual([folder]);
    expect(await found('sales data')).toEqual([data]);
    expect(await found('archive type:bar')).toEqual([]);
    expect((await found('archive', bob)).length).toBe(1);
    await expectApiError(findOwnGridsAndFolders(db, alice, 'a'.repeat(500)), 400, /at most/);
  });
});
