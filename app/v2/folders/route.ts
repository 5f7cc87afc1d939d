import { z } from 'zod';
import { authenticate } from '@/lib/auth';
import { createFolders, fileRecord, pathSchema } from '@/lib/files';
import { json, MiB, parseWith, publicOrigin, readJson, routes } from '@/lib/http';
import { requireViewer } from '@/lib/permissions';

const folderBody = z.object({ path: pathSchema });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: async ({ req, db }) => {
    const viewer = requireViewer(await authenticate(db, req));
    const { path } = parseWith(folderBody, await readJson(req, 1 * MiB));
    const folder = await createFolders(db, viewer, path);
    return json({ file: fileRecord(publicOrigin(req), folder, viewer) }, { status: 201 });
  },
});
