import { authenticate } from '@/lib/auth';
import { createGrid } from '@/lib/grids';
import { json, MiB, parseJsonText, publicOrigin, readJsonText, renameRepeatedKeys, routes } from '@/lib/http';
import { requireViewer } from '@/lib/permissions';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: async ({ req, db }) => {
    const viewer = requireViewer(await authenticate(db, req));
    // The R client names each column after its trace attribute, so names repeat: keep every column.
    const body = parseJsonText(renameRepeatedKeys(await readJsonText(req, 50 * MiB), ['data', 'cols']));
    return json(await createGrid(db, viewer, body, publicOrigin(req)), { status: 201 });
  },
});
