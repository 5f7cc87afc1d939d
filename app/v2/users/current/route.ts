import { endpoint, routes } from '@/lib/http/routes';
import { json } from '@/lib/http/responses';
import { getCurrentUser } from '@/lib/core/accounts/users';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/users/current', {
  GET: endpoint({
    summary: 'The authenticated user',
    auth: 'required',
    handler: async ({ db, viewer, origin }) => json(await getCurrentUser(db, viewer, origin)),
  }),
});
