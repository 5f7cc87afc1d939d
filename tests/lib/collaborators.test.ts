// Collaborators (lib/core/files/collaborators.ts) on both databases: the access rule in TypeScript and SQL
// held to one table (a file's own share, a folder's reaching what is in it and no longer what left
// it), the verbs with their refusals (each changing nothing), what readers and writers may do, and
// what records say to whom.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator, changeCollaborator, collaboratorAddSchema, listCollaborators, removeCollaborator } from '@/lib/core/files/collaborators';
import { deleteFile, trashFile } from '@/lib/core/files/file-changes';
import { fileDetail, folderDetail, updateFileDetail } from '@/lib/core/workspace/file-detail';
import { createDocument, listOwnDocuments } from '@/lib/core/documents/dashboards';
import { createFolders, getFile, lookupPath } from '@/lib/core/files/files';
import { appendColumns } from '@/lib/core/grids/column-verbs';
import { createGrid, getGrid } from '@/lib/core/grids/grids';
import { canRead, canReadSql, canWrite, canWriteSql, isOwner, isOwnerSql, seesCollaborators, seesCollaboratorsSql } from '@/lib/core/permissions';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { getPlotVersion, listPlotVersions } from '@/lib/core/plots/plot-versions';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { parseFid, type CollaboratorList, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('collaborators (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  // alice owns everything; bob reads, carol writes, dave reads her folder, eve is nobody's.
  let alice: Viewer;
  let bob: Viewer;
  let carol: Viewer;
  let dave: Viewer;
  let eve: Viewer;

  const plot = async (title: string, extra: Record<string, unknown> = {}, figure: Record<string, unknown> = { data: [{ type: 'bar', name: 'one' }] }) =>
    parseFid(JSON.parse(await createPlot(db, alice, { figure, world_readable: false, filename: title, ...extra }, ORIGIN)).file.fid)!;
  const share = (fid: Fid, who: Viewer, permission: 'read' | 'write') => addCollaborator(db, alice, fid, { username: who.username, permission });
  const count = async () => Number((await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM collaborators`))[0].n);

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob, carol, dave, eve } = await people(db, 'carol', 'dave', 'eve'));
  });

  it('canRead/canWrite and canReadSql/canWriteSql: the same answer for every file and viewer', async () => {
    const direct = await plot('direct');
    await share(direct, bob, 'read');
    await share(direct, carol, 'write');
    const folder = await createFolders(db, alice, ['team', 'inner']);
    const outer = parseFid(`alice:${folder.parent}`)!;
    await share(outer, dave, 'read');
    await share(outer, carol, 'read');
    const nested = await plot('nested', { parent_path: ['team', 'inner'] });
    const open = await plot('open', { world_readable: true });
    const files = { direct, nested, open, outer };
    for (const [what, fid] of Object.entries(files)) {
      for (const viewer of [null, alice, bob, carol, dave, eve]) {
        const file = (await getFile(db, fid, viewer))!;
        const id = viewer?.id ?? null;
        const [row] = await queryRows<{ o: boolean; r: boolean; w: boolean; s: boolean }>(
          db,
          sql`SELECT ${isOwnerSql('f', id)} AS o, ${canReadSql('f', id)} AS r, ${canWriteSql('f', id)} AS w, ${seesCollaboratorsSql('f', id)} AS s
              FROM files f WHERE f.id = ${file.id}`,
        );
        const who = `${what} as ${viewer?.username ?? 'anonymous'}`;
        expect(row.o, who).toBe(isOwner(viewer, file));
        expect(row.s, who).toBe(seesCollaborators(file, viewer));
        expect(row.r, who).toBe(canRead(file, viewer));
        expect(row.w, who).toBe(canWrite(file, viewer));
      }
    }
    // The rule itself, spelled out.
    const can = async (fid: Fid, viewer: Viewer) => {
      const file = (await getFile(db, fid, viewer))!;
      return [canRead(file, viewer), canWrite(file, viewer)];
    };
    expect(await can(direct, bob)).toEqual([true, false]);
    expect(await can(direct, carol)).toEqual([true, true]);
    expect(await can(direct, dave)).toEqual([false, false]);
    expect(await can(nested, dave)).toEqual([true, false]);
    expect(await can(nested, carol)).toEqual([true, false]);
    expect(await can(nested, eve)).toEqual([false, false]);
    // Moved out of the shared folder: the folder's collaborators lose it at once.
    await updateFileDetail(db, alice, nested, { parent: -1 }, ORIGIN, 'plot');
    expect(await can(nested, dave)).toEqual([false, false]);
    await expectApiError(getPlot(db, dave, nested, ORIGIN), 404);
  });

  it('share, change, list and unshare; every refusal changes nothing', async () => {
    const fid = await plot('verbs');
    const added = await share(fid, bob, 'read');
    expect(added.created).toBe(true);
    expect(added.entry).toMatchObject({ username: 'bob', permission: 'read' });
    expect(added.entry.date_added).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Naming bob again changes his permission.
    expect((await share(fid, bob, 'write')).created).toBe(false);
    expect((await listCollaborators(db, alice, fid)).results).toMatchObject([{ username: 'bob', permission: 'write' }]);
    expect(await changeCollaborator(db, alice, fid, 'BOB', { permission: 'read' })).toMatchObject({ username: 'bob', permission: 'read' });

    const before = await count();
    await expectApiError(addCollaborator(db, alice, fid, { username: 'nobody-here', permission: 'read' }), 400, /no user named/);
    await expectApiError(addCollaborator(db, alice, fid, { username: 'alice', permission: 'read' }), 400, /you own this file/);
    expect(collaboratorAddSchema.safeParse({ username: 'bob', permission: 'admin' }).success).toBe(false);
    // A reader cannot share it further (403), a stranger learns nothing (404), nobody anonymous (401).
    await expectApiError(addCollaborator(db, bob, fid, { username: 'eve', permission: 'read' }), 403);
    await expectApiError(addCollaborator(db, eve, fid, { username: 'eve', permission: 'read' }), 404);
    await expectApiError(addCollaborator(db, null, fid, { username: 'eve', permission: 'read' }), 401);
    await expectApiError(changeCollaborator(db, bob, fid, 'bob', { permission: 'write' }), 403);
    await expectApiError(changeCollaborator(db, alice, fid, 'eve', { permission: 'write' }), 404);
    await expectApiError(listCollaborators(db, eve, fid), 404);
    await expectApiError(removeCollaborator(db, eve, fid, 'bob'), 404);
    expect(await count()).toBe(before);

    // Collaborators see the list; a reader cannot unshare others, but may leave.
    await share(fid, carol, 'write');
    expect((await listCollaborators(db, bob, fid)).count).toBe(2);
    await expectApiError(removeCollaborator(db, bob, fid, 'carol'), 403);
    await removeCollaborator(db, bob, fid, 'bob');
    await expectApiError(getPlot(db, bob, fid, ORIGIN), 404);
    await removeCollaborator(db, alice, fid, 'carol');
    await expectApiError(getPlot(db, carol, fid, ORIGIN), 404);
    await expectApiError(removeCollaborator(db, alice, fid, 'carol'), 404);
    expect((await listCollaborators(db, alice, fid)).count).toBe(0);
  });

  it('readers read; writers change the content but not the name, place, sharing or existence', async () => {
    const fid = await plot('roles');
    await share(fid, bob, 'read');
    await share(fid, carol, 'write');
    const record = (viewer: Viewer) => getPlot(db, viewer, fid, ORIGIN).then((t) => JSON.parse(t));
    expect((await record(bob)).current_user_permission).toBe('read');
    expect((await record(carol)).current_user_permission).toBe('write');
    expect((await record(alice)).current_user_permission).toBe('write');
    expect((await record(bob)).collaborators).toMatchObject({ count: 2, results: [{ username: 'bob' }, { username: 'carol' }] });

    await expectApiError(updateFileDetail(db, bob, fid, { title: 'by bob' }, ORIGIN, 'plot'), 403);
    await updateFileDetail(db, carol, fid, { title: 'by carol', figure: { data: [{ type: 'bar', name: 'two' }] } }, ORIGIN, 'plot');
    expect((await record(alice)).title).toBe('by carol');
    for (const field of [{ filename: 'renamed' }, { world_readable: true }, { share_key_enabled: true }, { parent: -1 }]) {
      await expectApiError(updateFileDetail(db, carol, fid, { ...field, title: 'and this' }, ORIGIN, 'plot'), 403, /Only the owner/);
    }
    expect((await record(alice)).title).toBe('by carol');
    await expectApiError(trashFile(db, carol, fid), 403);
    await expectApiError(deleteFile(db, carol, fid), 403);
    // Writers see the history; readers get the 404 of a missing file.
    expect((await listPlotVersions(db, carol, fid, {})).rows.length).toBe(2);
    await expectApiError(listPlotVersions(db, bob, fid, {}), 404);
    // Unshared: at once.
    await removeCollaborator(db, alice, fid, 'carol');
    await expectApiError(updateFileDetail(db, carol, fid, { title: 'too late' }, ORIGIN, 'plot'), 404);
  });

  it("a writer never reads the owner's stream tokens (record, content, versions) and their save keeps them", async () => {
    const token = 'alicestreamtoken0001';
    const fid = await plot(
      'streamed',
      {},
      {
        data: [
          { type: 'bar', name: 'one' },
          { type: 'scatter', name: 'live', stream: { token, maxpoints: 9 } },
        ],
      },
    );
    await share(fid, carol, 'write');
    const seen = async (viewer: Viewer) => [
      await getPlot(db, viewer, fid, ORIGIN),
      await joinParts((await getPlotContent(db, viewer, fid, { inlineData: false, mapUnreadable: false, version: 1 })).parts()),
      await getPlotVersion(db, viewer, fid, 1),
    ];
    for (const text of await seen(carol)) expect(text).not.toContain(token);
    for (const text of await seen(alice)) expect(text).toContain(token);
    // Carol saves the figure as she read it, one trace restyled, and the token stays; taking the stream off takes it.
    const read = JSON.parse(await getPlot(db, carol, fid, ORIGIN)).figure;
    read.data[1].name = 'live now';
    await updateFileDetail(db, carol, fid, { figure: read }, ORIGIN, 'plot');
    expect(JSON.parse(await getPlot(db, alice, fid, ORIGIN)).figure.data[1]).toEqual({ type: 'scatter', name: 'live now', stream: { token, maxpoints: 9 } });
    await updateFileDetail(db, carol, fid, { figure: { data: [read.data[0], { type: 'scatter', name: 'live now' }] } }, ORIGIN, 'plot');
    expect(await getPlot(db, alice, fid, ORIGIN)).not.toContain(token);
  });

  it("grids: writers use the column verbs; a shared plot draws its private grid's columns, the grid stays unreadable until it is shared too", async () => {
    const { file } = await createGrid(db, alice, { filename: 'data', world_readable: false, data: { cols: { y: { data: [7, 8, 9] } } } }, ORIGIN);
    const grid = parseFid(file.fid)!;
    const ysrc = `${file.fid}:${file.cols[0].uid}`;
    const fid = await plot('on data', {}, { data: [{ type: 'bar', ysrc }] });
    await share(fid, bob, 'read');
    const inlined = async (viewer: Viewer) => {
      const content = await getPlotContent(db, viewer, fid, { inlineData: true, mapUnreadable: false });
      return JSON.parse(await joinParts(content.parts())).data[0].y;
    };
    expect(await inlined(alice)).toEqual([7, 8, 9]);
    // What the chart draws is the plot reader's (lib/core/plots/srcs.ts plotSrcReader); the grid is not.
    expect(await inlined(bob)).toEqual([7, 8, 9]);
    await expectApiError(getGrid(db, bob, grid, ORIGIN), 404);
    await share(grid, bob, 'read');
    expect(await inlined(bob)).toEqual([7, 8, 9]);
    await expectApiError(appendColumns(db, bob, grid, { cols: [{ name: 'z', data: [1] }] }), 403);
    await share(grid, carol, 'write');
    await appendColumns(db, carol, grid, { cols: [{ name: 'z', data: [1] }] });
    expect(JSON.parse(JSON.stringify(await getGrid(db, carol, grid, ORIGIN))).current_user_permission).toBe('write');
  });

  it('records show collaborators to the owner and collaborators only', async () => {
    const fid = await plot('public one', { world_readable: true });
    await share(fid, bob, 'read');
    const collaboratorsAs = async (viewer: Viewer | null) => JSON.parse(await getPlot(db, viewer, fid, ORIGIN)).collaborators;
    expect((await collaboratorsAs(alice)).count).toBe(1);
    expect((await collaboratorsAs(bob)).results).toMatchObject([{ username: 'bob', permission: 'read' }]);
    expect(await collaboratorsAs(eve)).toEqual({ results: [], count: 0 });
    expect(await collaboratorsAs(null)).toEqual({ results: [], count: 0 });
    expect(JSON.parse(await getPlot(db, eve, fid, ORIGIN)).current_user_permission).toBe('read');
  });

  it("every file type's record, detail or list, shows them the same way", async () => {
    const none = { results: [], count: 0 };
    const folder = await createFolders(db, alice, ['shown']);
    const folderFid = parseFid(`alice:${folder.n}`)!;
    const grid = parseFid(
      (await createGrid(db, alice, { data: { cols: { x: { data: [1, 2] } } }, world_readable: true, parent_path: ['shown'] }, ORIGIN)).file.fid,
    )!;
    const made = await createDocument(db, alice, 'dashboard', { content: '{"layout": null}', filename: 'shown board', world_readable: true });
    const board = { owner: made.file.owner, n: made.file.n };
    for (const fid of [folderFid, grid, board]) await share(fid, bob, 'read');
    await share(grid, carol, 'write');
    const gridList = (viewer: Viewer | null) => getGrid(db, viewer, grid, ORIGIN).then((r) => r.collaborators);
    expect((await gridList(alice)).results.map((e) => [e.username, e.permission])).toEqual([
      ['bob', 'read'],
      ['carol', 'write'],
    ]);
    // A public grid, but dave is none of its people: he sees none.
    expect(await gridList(dave)).toEqual(none);
    expect(await gridList(null)).toEqual(none);
    expect((await gridList(carol)).count).toBe(2);
    // A folder's own, its children's in its detail, to the owner and to its collaborators.
    const folderAs = async (viewer: Viewer) =>
      (await folderDetail(db, viewer, `alice:${folder.n}`, null, ORIGIN)) as Awaited<ReturnType<typeof folderDetail>> & { collaborators: CollaboratorList };
    const asAlice = await folderAs(alice);
    expect(asAlice.collaborators).toMatchObject({ count: 1, results: [{ username: 'bob' }] });
    expect(asAlice.children.results.find((c) => c.fid === `alice:${grid.n}`)?.collaborators.count).toBe(2);
    expect((await folderAs(bob)).children.results.find((c) => c.fid === `alice:${grid.n}`)?.collaborators.count).toBe(2);
    // Documents: their detail, the owner's list, and a lookup; an update's answer too.
    const detailAs = async (viewer: Viewer) =>
      ((await fileDetail(db, viewer, (await getFile(db, board, viewer))!, ORIGIN)) as { collaborators: CollaboratorList }).collaborators;
    expect(await detailAs(bob)).toMatchObject({ count: 1 });
    expect(await detailAs(eve)).toEqual(none);
    const listed = await listOwnDocuments(db, alice, 'dashboard', {}, ORIGIN);
    expect(listed.rows.find((r) => r.fid === `alice:${board.n}`)?.collaborators.count).toBe(1);
    expect((await lookupPath(db, alice, ['shown board']))?.collaborators?.count).toBe(1);
    expect((await lookupPath(db, bob, ['shown board'], { user: 'alice' }))?.collaborators?.count).toBe(1);
    expect((await lookupPath(db, eve, ['shown board'], { user: 'alice' }))?.collaborators).toEqual(none);
    const renamed = await updateFileDetail(db, alice, folderFid, { filename: 'shown too' }, ORIGIN, 'fold');
    expect((renamed as { collaborators: { count: number } }).collaborators.count).toBe(1);
  });
});
