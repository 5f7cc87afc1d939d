// Whom a person takes shares from (lib/core/accounts/blocks.ts) on both databases: declining one share, and
// blocking a person, which removes what they shared (files and folders, nobody else's) and refuses
// their shares from then on (a 400 at the name that says no more), until unblocked; a table of who
// may share with whom after each step.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { blockUser, listBlocks, unblockUser } from '@/lib/core/accounts/blocks';
import { addCollaborator, listSharedWithMe, removeCollaborator } from '@/lib/core/files/collaborators';
import { createFolders } from '@/lib/core/files/files';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, newViewer, ORIGIN } from './_helpers';

describe.each(SQL_DRIVER)('blocks (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  // mallory pushes files at ann; bob shares with ann too; ann blocks mallory.
  let ann: Viewer;
  let mallory: Viewer;
  let bob: Viewer;

  const plot = async (owner: Viewer, filename: string) =>
    parseFid(JSON.parse(await createPlot(db, owner, { figure: { data: [] }, world_readable: false, filename }, ORIGIN)).file.fid)!;
  const share = (owner: Viewer, fid: Fid, to: Viewer) => addCollaborator(db, owner, fid, { username: to.username, permission: 'read' });
  const shared = async (viewer: Viewer) => (await listSharedWithMe(db, viewer, { size: 100 })).rows.map((r) => `${r.owner}:${r.filename}`).sort();
  const collaboratorRows = async () => Number((await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM collaborators`))[0].n);

  beforeAll(async () => {
    db = database.db;
    [ann, mallory, bob] = await Promise.all(['ann', 'mallory', 'bob'].map((name) => newViewer(db, name)));
  });

  it('declining a share removes that one share and nothing else', async () => {
    const a = await plot(mallory, 'URGENT reset your password');
    const b = await plot(mallory, 'quarterly');
    await share(mallory, a, ann);
    await share(mallory, b, ann);
    await removeCollaborator(db, ann, a, ann.username);
    expect(await shared(ann)).toEqual(['mallory:quarterly']);
    await removeCollaborator(db, ann, b, ann.username);
    expect(await shared(ann)).toEqual([]);
  });

  it('a block removes every share from that person (files and folders), keeps others, and refuses new ones until unblocked', async () => {
    const phish = await plot(mallory, 'Your account is locked: click here');
    await share(mallory, phish, ann);
    const folders = await createFolders(db, mallory, ['invoices']);
    await share(mallory, { owner: 'mallory', n: folders.n }, ann);
    const friendly = await plot(bob, 'team chart');
    await share(bob, friendly, ann);
    await share(mallory, phish, bob);
    expect(await shared(ann)).toEqual(['bob:team chart', 'mallory:Your account is locked: click here', 'mallory:invoices']);

    const { entry, created, removed } = await blockUser(db, ann, 'MALLORY');
    expect({ username: entry.username, created, removed }).toEqual({ username: 'mallory', created: true, removed: 2 });
    expect(await shared(ann)).toEqual(['bob:team chart']);
    expect(await shared(bob), "mallory's shares to others stay").toEqual(['mallory:Your account is locked: click here']);
    expect((await listBlocks(db, ann)).results.map((b) => b.username)).toEqual(['mallory']);

    // Who may share with ann now: everyone but mallory; mallory may still share with bob.
    const rows = await collaboratorRows();
    const err = await expectApiError(share(mallory, phish, ann), 400, /does not take shares from you/);
    expect(err.message).not.toMatch(/block/i);
    expect(await collaboratorRows(), 'a refused share changes nothing').toBe(rows);
    const again = await plot(bob, 'another');
    await share(bob, again, ann);
    const forBob = await plot(mallory, 'for bob');
    await share(mallory, forBob, bob);

    // Blocking again is no change; blocking oneself or nobody is refused.
    expect((await blockUser(db, ann, 'mallory')).created).toBe(false);
    await expectApiError(blockUser(db, ann, 'ann'), 400, /yourself/);
    await expectApiError(blockUser(db, ann, 'nobody-here'), 400, /no user named/);

    // Unblocked: mallory may share again; what the block removed stays removed.
    await unblockUser(db, ann, 'mallory');
    expect((await listBlocks(db, ann)).count).toBe(0);
    expect(await shared(ann)).toEqual(['bob:another', 'bob:team chart']);
    await share(mallory, phish, ann);
    expect(await shared(ann)).toContain('mallory:Your account is locked: click here');
    await expectApiError(unblockUser(db, ann, 'mallory'), 404);
    await expectApiError(unblockUser(db, ann, 'bob'), 404);
  });

  it('a block and a share at the same moment: the share is refused or removed, never left standing', async () => {
    const [zed, yan] = await Promise.all(['zed', 'yan'].map((name) => newViewer(db, name)));
    const fids = await Promise.all([1, 2, 3, 4].map((i) => plot(zed, `f${i}`)));
    const results = await Promise.allSettled([blockUser(db, yan, 'zed'), ...fids.map((fid) => share(zed, fid, yan))]);
    expect(results[0].status, String((results[0] as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect(await shared(yan)).toEqual([]);
  });
});
