// The endpoints every file type shares, under /v2/files (any type) and under each type's own path
// (where a file of another type is the 404 of a missing one): trash, restore, permanent delete, lookup,
// update.
import 'server-only';
import type { z } from 'zod';
import { notFound } from '@/lib/core/errors';
import { fileDetail, fileUpdateSchema, folderUpdateSchema, updateFileDetail, type FileUpdate } from '@/lib/core/workspace/file-detail';
import { deleteFile, restoreFile, trashFile } from '@/lib/core/files/file-changes';
import { lookupPath, type Filetype } from '@/lib/core/files/files';
import { gridUpdateSchema } from '@/lib/core/grids/grids';
import { documentUpdateSchema } from '@/lib/core/documents/dashboards';
import { clientOf } from './request/client';
import { lookupQuerySchema } from './request/queries';
import { endpoint } from './routes';
import { json } from './responses';
import { MiB } from '@/lib/core/json-text';
import { plotUpdateSchema } from '@/lib/core/plots/plots';
import { fidParam } from '@/lib/core/records';

export const trashEndpoint = (filetype?: Filetype) =>
  endpoint({
    summary: 'Move a file to the trash (it leaves every list, lookup and page); a folder takes its contents with it',
    auth: 'required',
    responses: { 200: '{}' },
    handler: async ({ db, viewer, params }) => {
      await trashFile(db, viewer, fidParam(params.fid), filetype);
      return json({});
    },
  });

export const restoreEndpoint = (filetype?: Filetype) =>
  endpoint({
    summary: 'Restore a trashed file (a folder: with what was trashed with it)',
    auth: 'required',
    responses: { 200: '{}' },
    handler: async ({ db, viewer, params }) => {
      await restoreFile(db, viewer, fidParam(params.fid), filetype);
      return json({});
    },
  });

export const permanentDeleteEndpoint = (filetype?: Filetype) =>
  endpoint({
    summary: 'Delete a file for good, trashed or not, a folder with everything below it (numbers are never reused)',
    auth: 'required',
    responses: { 204: 'deleted' },
    handler: async ({ db, viewer, params }) => {
      await deleteFile(db, viewer, fidParam(params.fid), filetype);
      return new Response(null, { status: 204 });
    },
  });

const LOOKUP_NAMES: Partial<Record<Filetype, string>> = { fold: 'folder', spectacle_presentation: 'presentation' };

/** `GET /v2/files/lookup` (any type; a grid without `cols`) and the typed lookups (`/v2/plots/lookup`...). */
export const lookupEndpoint = (filetype?: Filetype) =>
  endpoint({
    summary: `The live ${filetype ? `${LOOKUP_NAMES[filetype] ?? filetype} ` : 'file '}at a path of the caller's (or \`user\`'s) files`,
    query: lookupQuerySchema,
    responses: { 200: 'the file\'s record, or {"exists": boolean} with exists=true', 404: 'No live file the caller may read at that path.' },
    handler: async ({ db, viewer, query, origin }) => {
      const file = await lookupPath(db, viewer, query.path, { user: query.user, parent: query.parent, filetype });
      if (query.exists === 'true') return json({ exists: file !== null });
      if (!file) throw notFound();
      return json(await fileDetail(db, viewer, file, origin, { cols: filetype !== undefined }));
    },
  });

const UPDATE: Record<Filetype, { body: z.ZodType<FileUpdate>; what: string; limit: number }> = {
  plot: { body: plotUpdateSchema, what: 'a plot', limit: 10 * MiB },
  // A grid's path takes the grids' body limit.
  grid: { body: gridUpdateSchema, what: "a grid's file fields and metadata", limit: 50 * MiB },
  fold: { body: folderUpdateSchema, what: 'a folder (rename, move, share)', limit: MiB },
  dashboard: { body: documentUpdateSchema, what: 'a dashboard', limit: 10 * MiB },
  spectacle_presentation: { body: documentUpdateSchema, what: 'a presentation', limit: 10 * MiB },
};

/** PUT and PATCH (one partial update) on a typed path, or under /v2/files/ for any type. */
export const updateEndpoint = (filetype?: Filetype) => {
  const { body, what, limit } = filetype ? UPDATE[filetype] : { body: fileUpdateSchema, what: "any file (another type's field is 400)", limit: 10 * MiB };
  return endpoint({
    summary: `Update ${what}: the fields given change, the others keep their values`,
    auth: 'required',
    body,
    bodyLimit: limit,
    responses: { 200: filetype ? "the file's record" : "the file's record (a plot's detail, a grid's without cols, a folder's)" },
    handler: async ({ req, db, viewer, params, body: input, origin }) =>
      json(await updateFileDetail(db, viewer, fidParam(params.fid), input, origin, filetype, clientOf(req.headers))),
  });
};
