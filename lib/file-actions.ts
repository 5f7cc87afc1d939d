// Trash, restore and permanent delete: the same three endpoints under /v2/files (any type) and under
// each type's own path (a fid of another type is the 404 of a missing file).
import { deleteFile, restoreFile, trashFile, type Filetype } from './files';
import { endpoint, json } from './http';
import { fidParam } from './records';

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
