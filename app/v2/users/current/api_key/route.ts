import { authenticate } from '@/lib/auth';
import { json, routes } from '@/lib/http';
import { requireViewer } from '@/lib/permissions';
import { rotateApiKey } from '@/lib/users';

// Rotating answers the new key once; the old one stops working at once.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: async ({ req, db }) => {
    const viewer = requireViewer(await authenticate(db, req));
    return json({ api_key: await rotateApiKey(db, viewer.id) });
  },
});
