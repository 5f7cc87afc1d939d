// resolveSrcs (lib/core/plots/srcs.ts): every src resolved to its live grid and the named columns in one
// query, whatever the mix of owners, grids, uids, case and bad texts; what `admit` refuses resolves
// as nothing, the same as a grid that does not exist.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { trashFile } from '@/lib/core/files/file-changes';
import { createGrid } from '@/lib/core/grids/grids';
import { canRead } from '@/lib/core/permissions';
import { parseFid } from '@/lib/core/records';
import { resolveSrcs } from '@/lib/core/plots/srcs';
import { DRIVERS, useDatabase } from '../support/postgres';
import { newViewer, ORIGIN } from './_helpers';

describe.each(DRIVERS)('resolveSrcs (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  // fid and column uids (by name) of each grid
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
    await grid('a1', alice, true, { x: [1, 2, 3], y: [4, 5, 6, 7] });
    await grid('a2', alice, true, { x: [1], z: [1, 2] });
    await grid('private', bob, false, { p: [1, 2, 3, 4, 5] });
    await grid('trashed', alice, true, { t: [1] });
    await trashFile(db, alice, parseFid(grids.trashed.fid)!);
  });

  const src = (name: string, ...cols: string[]) => `${grids[name].fid}:${cols.map((c) => grids[name].uid[c] ?? c).join(',')}`;

  // [what, src text (built once the grids exist), who reads, expected: grid found, column count, values, missing uid]
  const cases: [string, () => string, () => Viewer, { grid: boolean; columns: number | null; values: number; missing?: () => string }][] = [
    ['one column', () => src('a1', 'x'), () => alice, { grid: true, columns: 1, values: 3 }],
    ['two columns, in order', () => src('a1', 'y', 'x'), () => alice, { grid: true, columns: 2, values: 7 }],
    ['a column named twice counts twice', () => src('a1', 'y', 'y'), () => alice, { grid: true, columns: 2, values: 8 }],
    ['owner in another case', () => src('a1', 'x').replace(/^Alice/, 'ALICE'), () => bob, { grid: true, columns: 1, values: 3 }],
    [
      'a uid of another grid is missing here',
      () => `${grids.a2.fid}:${grids.a1.uid.y}`,
      () => alice,
      { grid: true, columns: null, values: 0, missing: () => grids.a1.uid.y },
    ],
    ['the first missing uid is named', () => `${src('a1', 'x')},nosuch,other`, () => alice, { grid: true, columns: null, values: 0, missing: () => 'nosuch' }],
    ['a private grid, its owner', () => src('private', 'p'), () => bob, { grid: true, columns: 1, values: 5 }],
    ['a private grid, anyone else: nothing', () => src('private', 'p'), () => alice, { grid: false, columns: null, values: 0 }],
    ['a private grid, anyone else, a uid it lacks: nothing either', () => src('private', 'nosuch'), () => alice, { grid: false, columns: null, values: 0 }],
    ['a trashed grid: nothing', () => src('trashed', 't'), () => alice, { grid: false, columns: null, values: 0 }],
    ['no such grid number', () => `${grids.a1.fid.split(':')[0]}:999999:abc`, () => alice, { grid: false, columns: null, values: 0 }],
    ['no such owner', () => 'nobody:1:abc', () => alice, { grid: false, columns: null, values: 0 }],
    ['not a src', () => 'not a src', () => alice, { grid: false, columns: null, values: 0 }],
  ];

  it.each(cases.map(([what, ...rest]) => [what, ...rest] as const))('%s', async (_what, text, viewer, want) => {
    const [resolved] = await resolveSrcs(db, [text()], viewer(), (g) => canRead(g, viewer()));
    expect(resolved.grid !== null).toBe(want.grid);
    expect(resolved.columns?.length ?? null).toBe(want.columns);
    expect(resolved.values).toBe(want.values);
    expect(resolved.missing).toBe(want.missing ? want.missing() : null);
  });

  it('resolves every case at once, each as on its own, in the order given', async () => {
    const texts = cases.map(([, text]) => text());
    // Read as alice: the cases read by bob are checked on their own above.
    const together = await resolveSrcs(db, texts, alice, (g) => canRead(g, alice));
    const alone = await Promise.all(texts.map(async (t) => (await resolveSrcs(db, [t], alice, (g) => canRead(g, alice)))[0]));
    expect(together).toEqual(alone);
    // The same column ids for the same src wherever it stands in the list.
    expect(together[0].columns).toEqual(alone[0].columns);
    expect(together[1].columns).toHaveLength(2);
    expect(together[1].columns![0]).not.toBe(together[1].columns![1]);
  });

  it('answers an empty list without a query', async () => {
    expect(await resolveSrcs(db, [], null, () => true)).toEqual([]);
  });
});
