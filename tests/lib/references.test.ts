// Records' references and referencers (lib/core/records.ts plotReferencesSql, lib/core/files/references.ts
// listReferencers) on both databases: a plot names the grids it draws from and a grid the plots that
// draw from it, each only when the caller may read that file; the others are counted, never named.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator } from '@/lib/core/files/collaborators';
import { trashFile } from '@/lib/core/files/file-changes';
import { createGrid, getGrid } from '@/lib/core/grids/grids';
import { listPlots } from '@/lib/core/plots/plot-lists';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { listQuerySchema } from '@/lib/http/request/queries';
import { pageLinks } from '@/lib/http/responses';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { ORIGIN, people, textOf } from './_helpers';

interface Refs {
  references?: { fid: string; filetype: string }[];
  references_hidden?: number;
  referencers?: { fid: string; filetype: string }[];
  referencers_hidden?: number;
}

describe.each(SQL_DRIVER)('references and referencers (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  let carol: Viewer;

  const grid = async (owner: Viewer, filename: string, worldReadable: boolean) => {
    const { file } = await createGrid(db, owner, { filename, world_readable: worldReadable, data: { cols: { x: { data: [1, 2] } } } }, ORIGIN);
    return { fid: file.fid, src: `${file.fid}:${file.cols[0].uid}` };
  };
  const plot = async (owner: Viewer, filename: string, srcs: string[], worldReadable = true) => {
    const figure = { data: srcs.map((ysrc) => ({ type: 'scatter', ysrc })) };
    return JSON.parse(await createPlot(db, owner, { figure, filename, world_readable: worldReadable }, ORIGIN)).file.fid as string;
  };
  const plotRefs = async (fid: string, viewer: Viewer | null): Promise<Refs> => JSON.parse(await getPlot(db, viewer, parseFid(fid) as Fid, ORIGIN));
  const gridRefs = async (fid: string, viewer: Viewer | null): Promise<Refs> => getGrid(db, viewer, parseFid(fid) as Fid, ORIGIN);
  const named = (...fids: string[]) => fids.map((fid) => ({ fid, filetype: expect.stringMatching(/^(plot|grid)$/) }));

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob, carol } = await people(db, 'carol'));
  });

  it('a plot names the grids the caller may read and counts the others; a grid the same of its plots', async () => {
    const open = await grid(alice, 'open', true);
    const closed = await grid(alice, 'closed', false);
    // Two srcs into one grid name it once.
    const mixed = await plot(alice, 'mixed', [open.src, closed.src, closed.src]);
    const bobs = await plot(bob, 'bobs', [open.src]);
    const bobsPrivate = await plot(bob, 'bobs-private', [open.src], false);
    const none = await plot(alice, 'none', []);

    expect(await plotRefs(mixed, alice)).toMatchObject({ references: named(open.fid, closed.fid), references_hidden: 0 });
    expect((await plotRefs(mixed, alice)).references?.map((r) => r.filetype)).toEqual(['grid', 'grid']);
    for (const viewer of [null, bob]) expect(await plotRefs(mixed, viewer)).toMatchObject({ references: named(open.fid), references_hidden: 1 });
    expect(await plotRefs(none, null)).toMatchObject({ references: [], references_hidden: 0, referencers: [] });

    // Lists carry the same fields, built by the same statement.
    const listed = async (viewer: Viewer | null) => {
      const page = await listPlots(db, viewer, listQuerySchema.parse({ page_size: '10' }), ORIGIN, pageLinks(ORIGIN, new URL(`${ORIGIN}/v2/plots`)));
      return (JSON.parse(await textOf(page)).results as (Refs & { fid: string })[]).find((r) => r.fid === mixed);
    };
    expect(await listed(null)).toMatchObject({ references: named(open.fid), references_hidden: 1 });
    expect(await listed(alice)).toMatchObject({ references: named(open.fid, closed.fid), references_hidden: 0 });

    // The open grid: everyone sees the public plots drawing from it; bob's private one only bob.
    expect(await gridRefs(open.fid, null)).toMatchObject({ referencers: named(bobs, mixed), referencers_hidden: 1 });
    expect(await gridRefs(open.fid, bob)).toMatchObject({ referencers: named(bobsPrivate, bobs, mixed), referencers_hidden: 0 });
    expect(await gridRefs(open.fid, carol)).toMatchObject({ referencers: named(bobs, mixed), referencers_hidden: 1 });
    expect((await gridRefs(open.fid, bob)).referencers?.every((r) => r.filetype === 'plot')).toBe(true);
    expect(await gridRefs(closed.fid, alice)).toMatchObject({ referencers: named(mixed), referencers_hidden: 0 });

    // Shared by name: the collaborator is named what the share reaches, at once.
    await addCollaborator(db, alice, parseFid(closed.fid)!, { username: 'carol', permission: 'read' });
    expect(await plotRefs(mixed, carol)).toMatchObject({ references: named(open.fid, closed.fid), references_hidden: 0 });
    await addCollaborator(db, bob, parseFid(bobsPrivate)!, { username: 'carol', permission: 'read' });
    expect(await gridRefs(open.fid, carol)).toMatchObject({ referencers: named(bobsPrivate, bobs, mixed), referencers_hidden: 0 });

    // Trashed files are neither named nor counted.
    await trashFile(db, alice, parseFid(closed.fid)!);
    expect(await plotRefs(mixed, alice)).toMatchObject({ references: named(open.fid), references_hidden: 0 });
    await trashFile(db, bob, parseFid(bobs)!);
    expect(await gridRefs(open.fid, null)).toMatchObject({ referencers: named(mixed), referencers_hidden: 1 });
  });

  it('a new grid has no referencers yet, and its create says so', async () => {
    const { file } = await createGrid(db, alice, { filename: 'fresh', data: { cols: { a: { data: [1] } } } }, ORIGIN);
    expect(file).toMatchObject({ referencers: [], referencers_hidden: 0 });
  });
});
