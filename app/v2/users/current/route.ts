import { authenticate } from '@/lib/auth';
import { json, publicOrigin, routes } from '@/lib/http';
import { requireViewer } from '@/lib/permissions';
import { getCurrentUser } from '@/lib/users';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: async ({ req, db }) => {
    const viewer = requireViewer(await authenticate(db, req));
    return json(await getCurrentUser(db, viewer, publicOrigin(req)));
  },
});
