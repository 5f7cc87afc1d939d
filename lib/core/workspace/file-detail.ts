// Any file by type: its detail (files lookup, files by fid), its update, and folder details with
// their children.
import 'server-only';
import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { documentRecord, documentUpdates, documentUpdateSchema, getDocument, isDocumentType } from '../documents/dashboards';
import { fileFieldsSchema, updateFile } from '../files/file-changes';
import { fileRecord, filesOwner, getFile, listFolderChildren, type Filetype, type OwnedFile } from '../files/files';
import { getGrid, gridUpdate, gridUpdateSchema } from '../grids/grids';
import { getPlot, plotUpdate, plotUpdateSchema } from '../plots/plots';
import { assertReadable } from '../permissions';
import { parseFid, type Fid } from '../records';
import { profilePath } from '@/lib/shared/urls';
import type { Client } from '../files/versions';

/**
 * The detail of a file the caller may read: a plot's record (as JSON text), a grid's, a folder's.
 * Answers under /v2/files/ (`cols: false`) give a grid's record without `cols`: the R client merges
 * that record with a `/col` answer, and an old `cols` would win.
 */
export async function fileDetail(db: Db, viewer: Viewer | null, file: OwnedFile, origin: string, opts: { shareKey?: string | null; cols?: boolean } = {}) {
  const fid = { owner: file.owner, n: file.n };
  if (file.filetype === 'plot') return getPlot(db, viewer, fid, origin, opts.shareKey);
  if (file.filetype === 'grid') {
    const { cols, ...record } = await getGrid(db, viewer, fid, origin, opts.shareKey);
    return opts.cols === false ? record : { ...record, cols };
  }
  if (isDocumentType(file.filetype)) {
    const { file: readable, content } = await getDocument(db, fid, viewer, opts.shareKey);
    return documentRecord(origin, readable, viewer, content);
  }
  return fileRecord(origin, file, viewer);
}

/** PUT/PATCH /v2/folders/{fid}: the fields given change. */
export const folderUpdateSchema = fileFieldsSchema;

/** PUT/PATCH /v2/files/{fid}: any type's fields (those of another type than the file's are 400). */
export const fileUpdateSchema = plotUpdateSchema.extend(gridUpdateSchema.shape).extend(documentUpdateSchema.shape);
export type FileUpdate = z.output<typeof fileUpdateSchema>;

/** PUT/PATCH on a typed path (`filetype`) or under /v2/files/ (any type; a grid's answer then has no `cols`), from `client` (the API's when not given). */
export async function updateFileDetail(db: Db, viewer: Viewer, fid: Fid, input: FileUpdate, origin: string, filetype?: Filetype, client: Client = 'api') {
  const file = await updateFile(db, viewer, fid, input, { filetype, types: { plot: plotUpdate, grid: gridUpdate, ...documentUpdates(fid, origin) }, client });
  return fileDetail(db, viewer, file, origin, { cols: filetype !== undefined });
}

/** GET /v2/folders/{owner}:{n} and /v2/folders/home?user=U: the folder and what the caller may see in it. */
export async function folderDetail(db: Db, viewer: Viewer | null, raw: string, user: string | null, origin: string) {
  if (raw === 'home') {
    const owner = await filesOwner(db, viewer, user);
    const children = await listFolderChildren(db, owner.id, -1, viewer);
    return {
      fid: `${owner.username}:-1`,
      filename: 'home',
      filetype: 'fold',
      owner: owner.username,
      web_url: `${origin}${profilePath(owner.username)}`,
      children: childrenOf(origin, owner.username, children, viewer),
    };
  }
  const fid = parseFid(raw);
  const file = fid ? await getFile(db, fid, viewer) : undefined;
  const folder = assertReadable(file?.filetype === 'fold' ? file : undefined, viewer);
  const children = await listFolderChildren(db, folder.ownerId, folder.n, viewer);
  return { ...fileRecord(origin, folder, viewer), children: childrenOf(origin, folder.owner, children, viewer) };
}

function childrenOf(origin: string, owner: string, rows: Awaited<ReturnType<typeof listFolderChildren>>, viewer: Viewer | null) {
  const results = rows.map((row) => fileRecord(origin, { ...row, owner }, viewer));
  return { results, count: results.length };
}
