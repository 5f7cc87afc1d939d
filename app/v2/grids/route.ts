import { authenticate } from '@/lib/auth';
import { createGrid } from '@/lib/grids';
import { json, MiB, publicOrigin, readJson, routes } from '@/lib/http';
import { requireViewer } from '@/lib/permissions';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: async ({ req, db }) => {
    const viewer = requireViewer(await authenticate(db, req));
    const body = await readJson(req, 50 * MiB);
    return json(await createGrid(db, viewer, body, publicOrigin(req)), { status: 201 });
  },
});
