import { createFolders, fileRecord, folderCreateSchema } from '@/lib/core/files/files';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/folders', {
  POST: endpoint({
    summary: 'Create a folder (and any missing parents)',
    auth: 'required',
    body: folderCreateSchema,
    responses: { 201: '{"file": folder record}' },
    handler: async ({ db, viewer, body, origin }) => json({ file: fileRecord(origin, await createFolders(db, viewer, body.path), viewer) }, { status: 201 }),
  }),
});
