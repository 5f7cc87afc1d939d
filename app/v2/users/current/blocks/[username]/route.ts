import { unblockUser } from '@/lib/core/accounts/blocks';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/users/current/blocks/{username}', {
  DELETE: endpoint({
    summary: 'Unblock a user: they may share with you again (what the block unshared stays unshared)',
    auth: 'required',
    responses: { 204: 'unblocked' },
    handler: async ({ db, viewer, params }) => {
      await unblockUser(db, viewer, params.username);
      return new Response(null, { status: 204 });
    },
  }),
});
