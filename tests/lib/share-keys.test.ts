// A file's bearer key (its secret link's share_key) is its owner's: one rule (seesShareKey, with
// shownShareKey and carriedShareKey over it in lib/core/permissions.ts) held to a table of roles, for
// every file type, with each caller's access loaded from the database as the pages load it (getFile),
// and the records the API and the pages build from it; the share URL's rule (shareUrl) and its SQL
// twin (shareUrlSql, in the plot records Postgres builds) held to one table.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator, removeCollaborator } from '@/lib/core/files/collaborators';
import { createDocument } from '@/lib/core/documents/dashboards';
import { fileDetail } from '@/lib/core/workspace/file-detail';
import { createFolders, getFile } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { canRead, carriedShareKey, isOwnerSql, seesShareKey, shareUrl, shareUrlSql, shownShareKey } from '@/lib/core/permissions';
import { createPlot } from '@/lib/core/plots/plots';
import { type Fid, parseFid } from '@/lib/core/records';
import { withShareKey } from '@/lib/shared/urls';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { newViewer, ORIGIN } from './_helpers';

type Role =
  | 'owner'
  | 'read collaborator'
  | 'write collaborator'
  | 'read via folder'
  | 'write via folder'
  | 'removed collaborator'
  | 'secret-link holder'
  | 'anonymous secret-link holder'
  | 'collaborator with the link'
  | 'stranger'
  | 'stranger, wrong key'
  | 'anonymous';

/** Whether each role reads the secret file, and whether it may be shown its key. */
const TABLE: Record<Role, { reads: boolean; seesKey: boolean }> = {
  owner: { reads: true, seesKey: true },
  'read collaborator': { reads: true, seesKey: false },
  'write collaborator': { reads: true, seesKey: false },
  'read via folder': { reads: true, seesKey: false },
  'write via folder': { reads: true, seesKey: false },
  'removed collaborator': { reads: false, seesKey: false },
  'secret-link holder': { reads: true, seesKey: true },
  'anonymous secret-link holder': { reads: true, seesKey: true },
  'collaborator with the link': { reads: true, seesKey: true },
  stranger: { reads: false, seesKey: false },
  'stranger, wrong key': { reads: false, seesKey: false },
  anonymous: { reads: false, seesKey: false },
};

const KINDS = ['plot', 'grid', 'dashboard', 'presentation'] as const;

describe.each(SQL_DRIVER)('share keys are the owner’s (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let owner: Viewer;
  const people = {} as Record<'reader' | 'writer' | 'folderReader' | 'folderWriter' | 'removed' | 'holder' | 'stranger', Viewer>;
  /** Each kind's secret file, in a folder shared by name, and its key. */
  const files = {} as Record<(typeof KINDS)[number], { fid: Fid; key: string }>;

  const asRole = (role: Role, key: string): { viewer: Viewer | null; shareKey: string | null } => {
    switch (role) {
      case 'owner':
        return { viewer: owner, shareKey: null };
      case 'read collaborator':
        return { viewer: people.reader, shareKey: null };
      case 'write collaborator':
        return { viewer: people.writer, shareKey: null };
      case 'read via folder':
        return { viewer: people.folderReader, shareKey: null };
      case 'write via folder':
        return { viewer: people.folderWriter, shareKey: null };
      case 'removed collaborator':
        return { viewer: people.removed, shareKey: null };
      case 'secret-link holder':
        return { viewer: people.holder, shareKey: key };
      case 'anonymous secret-link holder':
        return { viewer: null, shareKey: key };
      case 'collaborator with the link':
        return { viewer: people.writer, shareKey: key };
      case 'stranger':
        return { viewer: people.stranger, shareKey: null };
      case 'stranger, wrong key':
        return { viewer: people.stranger, shareKey: `${key}x` };
      case 'anonymous':
        return { viewer: null, shareKey: null };
    }
  };

  beforeAll(async () => {
    db = database.db;
    owner = await newViewer(db, 'keyowner');
    for (const name of Object.keys({ reader: 0, writer: 0, folderReader: 0, folderWriter: 0, removed: 0, holder: 0, stranger: 0 }) as (keyof typeof people)[])
      people[name] = await newViewer(db, `key${name.toLowerCase()}`);
    const folder = await createFolders(db, owner, ['team']);
    const folderFid = { owner: owner.username, n: folder.n };
    await addCollaborator(db, owner, folderFid, { username: people.folderReader.username, permission: 'read' });
    await addCollaborator(db, owner, folderFid, { username: people.folderWriter.username, permission: 'write' });
    const secret = { world_readable: false, share_key_enabled: true, parent_path: ['team'] };
    const plot = JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar', name: 'one' }] }, filename: 'secret plot', ...secret }, ORIGIN));
    const grid = await createGrid(db, owner, { filename: 'secret grid', data: { cols: { x: { data: [1, 2] } } }, ...secret }, ORIGIN);
    const board = await createDocument(db, owner, 'dashboard', { content: '{"layout": null}', filename: 'secret board', ...secret });
    const deck = await createDocument(db, owner, 'spectacle_presentation', { content: '{"presentation": {"slides": []}}', filename: 'secret deck', ...secret });
    const fids: Record<(typeof KINDS)[number], Fid> = {
      plot: parseFid(plot.file.fid)!,
      grid: parseFid(grid.file.fid)!,
      dashboard: { owner: owner.username, n: board.file.n },
      presentation: { owner: owner.username, n: deck.file.n },
    };
    for (const kind of KINDS) {
      const fid = fids[kind];
      await addCollaborator(db, owner, fid, { username: people.reader.username, permission: 'read' });
      await addCollaborator(db, owner, fid, { username: people.writer.username, permission: 'write' });
      await addCollaborator(db, owner, fid, { username: people.removed.username, permission: 'write' });
      await removeCollaborator(db, owner, fid, people.removed.username);
      const key = (await getFile(db, fid, owner))!.shareKey!;
      expect(key).toEqual(expect.any(String));
      files[kind] = { fid, key };
    }
  });

  it('the share URL: shareUrl and its SQL twin give the same link, with the key to the owner of a secret file alone', async () => {
    const webUrl = `${ORIGIN}/~${owner.username}/7/`;
    const states = [
      [true, null],
      [true, 'AbC-_09xyz'],
      [false, null],
      [false, 'AbC-_09xyz'],
    ] as const;
    for (const [worldReadable, shareKey] of states) {
      for (const viewer of [owner, people.writer, people.stranger, null]) {
        const ts = shareUrl(webUrl, { ownerId: owner.id, worldReadable, shareKey }, viewer);
        const [row] = await queryRows<{ u: string }>(
          db,
          sql`SELECT ${shareUrlSql(sql`${webUrl}::text`, 'f', isOwnerSql('f', viewer?.id ?? null))} AS u
              FROM (VALUES (0::bigint, ${worldReadable}::boolean, ${owner.id}::int, ${shareKey}::text)) AS f(id, world_readable, owner_id, share_key)`,
        );
        const state = `${worldReadable ? 'public' : 'not public'}, ${shareKey ? 'a secret link' : 'no link'}, ${viewer?.username ?? 'anonymous'}`;
        expect(row.u, state).toBe(ts);
        expect(ts, state).toBe(viewer === owner && !worldReadable && shareKey ? withShareKey(webUrl, shareKey) : webUrl);
      }
    }
  });

  for (const kind of KINDS) {
    for (const [role, want] of Object.entries(TABLE) as [Role, (typeof TABLE)[Role]][]) {
      it(`${kind}, ${role}: ${want.reads ? 'reads' : 'does not read'} it, ${want.seesKey ? 'is shown' : 'is never shown'} its key`, async () => {
        const { fid, key } = files[kind];
        const { viewer, shareKey } = asRole(role, key);
        const file = (await getFile(db, fid, viewer))!;
        expect(canRead(file, viewer, shareKey)).toBe(want.reads);
        expect(seesShareKey(file, viewer, shareKey)).toBe(want.seesKey);
        expect(shownShareKey(file, viewer, shareKey)).toBe(want.seesKey ? key : null);
        // A page carries on its own requests only the valid key its request came with.
        expect(carriedShareKey(file, shareKey)).toBe(shareKey === key ? key : null);
        if (!want.reads) return;
        // The API's record of the file: the key (and a share_url with it) to the owner alone.
        const record = JSON.stringify(await fileDetail(db, viewer, file, ORIGIN, { shareKey }));
        expect(record.includes(key), `the record holds the key for ${role}`).toBe(role === 'owner');
      });
    }
    it(`${kind}: a public file shows no key to anyone, and a file without a secret link has none to show`, async () => {
      const { fid } = files[kind];
      const file = (await getFile(db, fid, owner))!;
      expect(shownShareKey({ ...file, worldReadable: true }, owner)).toBeNull();
      expect(shownShareKey({ ...file, shareKey: null }, owner)).toBeNull();
      expect(carriedShareKey({ ...file, worldReadable: true }, file.shareKey)).toBeNull();
    });
  }
});
