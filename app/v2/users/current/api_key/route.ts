import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { rotateApiKey } from '@/lib/core/accounts/users';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/users/current/api_key', {
  POST: endpoint({
    summary: "Rotate the caller's API key: the answer holds the new key, once; the old one stops working",
    auth: 'required',
    responses: { 200: '{"api_key": new key}' },
    handler: async ({ db, viewer }) => json({ api_key: await rotateApiKey(db, viewer.id) }),
  }),
});
