// Owner-only update fields, decided in one place per file type (OWNER_FIELDS in lib/core/files/file-changes.ts):
// every update field of every file type, given by its owner and by a `write` collaborator (by name and
// through a folder), is either applied or the one 403 sentence, and a refused update changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator } from '@/lib/core/files/collaborators';
import { createDocument } from '@/lib/core/documents/dashboards';
import { OWNER_FIELDS, ownerFieldSentence, TYPE_FIELDS, fileFieldsSchema } from '@/lib/core/files/file-changes';
import { fileUpdateSchema, updateFileDetail } from '@/lib/core/workspace/file-detail';
import { createFolders, getFile, type Filetype } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { createPlot } from '@/lib/core/plots/plots';
import { type Fid, parseFid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, newViewer, ORIGIN } from './_helpers';

const COMMON = Object.keys(fileFieldsSchema.shape);
const TYPES = Object.keys(TYPE_FIELDS) as Filetype[];

/** Whether only the owner changes each field, by type: the table the code must match. */
const OWNER_ONLY: Record<Filetype, Record<string, boolean>> = {
  plot: { figure: false, title: false, caption: false, source_fid: false, comments_enabled: true },
  grid: { metadata: false },
  fold: {},
  dashboard: { content: false },
  spectacle_presentation: { content: false },
};
for (const type of TYPES) for (const name of COMMON) OWNER_ONLY[type][name] = true;

describe('owner-only fields, the table', () => {
  it('OWNER_FIELDS is the table: every common field and, of the types’ own, only a plot’s comments switch', () => {
    for (const type of TYPES) {
      const fields = [...COMMON, ...TYPE_FIELDS[type]];
      expect(Object.keys(OWNER_ONLY[type]).sort(), `${type}: the table names every update field`).toEqual([...fields].sort());
      expect([...OWNER_FIELDS[type]].sort(), type).toEqual(fields.filter((f) => OWNER_ONLY[type][f]).sort());
    }
  });
});

describe.each(SQL_DRIVER)('owner-only fields (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let owner: Viewer;
  let writer: Viewer;
  let folderWriter: Viewer;
  const files = {} as Record<Filetype, Fid>;

  /** A valid value of each update field (applied to the file of `type`). */
  const sampleOf = (type: Filetype, field: string): unknown => {
    switch (field) {
      case 'filename':
        return `${type} renamed`;
      case 'world_readable':
        return false;
      case 'share_key_enabled':
        return true;
      case 'parent':
        return -1;
      case 'parent_path':
        return 'team';
      case 'figure':
        return { data: [{ type: 'bar', name: 'changed' }] };
      case 'title':
        return 'a title';
      case 'caption':
        return 'a caption';
      case 'source_fid':
        return null;
      case 'comments_enabled':
        return false;
      case 'metadata':
        return { note: 'changed' };
      case 'content':
        return type === 'dashboard' ? '{"layout": null}' : '{"presentation": {"slides": []}}';
    }
    throw new Error(`no sample value for ${field}`);
  };

  beforeAll(async () => {
    db = database.db;
    [owner, writer, folderWriter] = await Promise.all(['fieldowner', 'fieldwriter', 'fieldfolder'].map((name) => newViewer(db, name)));
    const team = await createFolders(db, owner, ['team']);
    await addCollaborator(db, owner, { owner: owner.username, n: team.n }, { username: folderWriter.username, permission: 'write' });
    const inTeam = { world_readable: true, parent_path: ['team'] };
    files.plot = parseFid(
      JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar', name: 'one' }] }, filename: 'p', ...inTeam }, ORIGIN)).file.fid,
    )!;
    files.grid = parseFid((await createGrid(db, owner, { filename: 'g', data: { cols: { x: { data: [1] } } }, ...inTeam }, ORIGIN)).file.fid)!;
    const inner = await createFolders(db, owner, ['team', 'inner']);
    files.fold = { owner: owner.username, n: inner.n };
    files.dashboard = {
      owner: owner.username,
      n: (await createDocument(db, owner, 'dashboard', { content: '{"layout": null}', filename: 'd', ...inTeam })).file.n,
    };
    const deck = await createDocument(db, owner, 'spectacle_presentation', { content: '{"presentation": {"slides": []}}', filename: 's', ...inTeam });
    files.spectacle_presentation = { owner: owner.username, n: deck.file.n };
    for (const type of TYPES) await addCollaborator(db, owner, files[type], { username: writer.username, permission: 'write' });
  });

  for (const type of TYPES) {
    for (const field of [...COMMON, ...TYPE_FIELDS[type]]) {
      it(`${type}.${field}: ${OWNER_ONLY[type][field] ? 'the owner alone' : 'the owner and writers'}`, async () => {
        const fid = files[type];
        const input = fileUpdateSchema.parse({ [field]: sampleOf(type, field) });
        for (const [who, viewer] of [
          ['a write collaborator', writer],
          ['a write collaborator through the folder', folderWriter],
        ] as const) {
          if (OWNER_ONLY[type][field]) {
            const before = await getFile(db, fid, owner);
            await expectApiError(updateFileDetail(db, viewer, fid, input, ORIGIN), 403, ownerFieldSentence(field));
            expect(await getFile(db, fid, owner), `${who}'s refused ${field} changed nothing`).toEqual(before);
          } else {
            await updateFileDetail(db, viewer, fid, input, ORIGIN);
          }
        }
        // The owner changes every field.
        await updateFileDetail(db, owner, fid, input, ORIGIN);
        // Back in the shared folder and readable, for the next field's writers.
        await updateFileDetail(db, owner, fid, fileUpdateSchema.parse({ parent_path: 'team', world_readable: true }), ORIGIN);
      });
    }
  }
});
