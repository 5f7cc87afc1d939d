import { z } from 'zod';
import { createFolders, fileRecord } from '@/lib/core/files';
import { pathSchema } from '@/lib/core/file-names';
import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/folders', {
  POST: endpoint({
    summary: 'Create a folder (and any missing parents)',
    auth: 'required',
    body: z.object({ path: pathSchema }),
    responses: { 201: '{"file": folder record}' },
    handler: async ({ db, viewer, body, origin }) => json({ file: fileRecord(origin, await createFolders(db, viewer, body.path), viewer) }, { status: 201 }),
  }),
});
