import { blockSchema, blockUser, listBlocks } from '@/lib/core/accounts/blocks';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/users/current/blocks', {
  GET: endpoint({
    summary: 'The people you blocked: their shares to you are refused (latest first)',
    auth: 'required',
    responses: { 200: '{"results": [{"username", "date_blocked"}], "count"}' },
    handler: async ({ db, viewer }) => json(await listBlocks(db, viewer)),
  }),
  POST: endpoint({
    summary: 'Block a user: every file and folder they shared with you is unshared, and their shares to you are refused from then on',
    description:
      'A share to someone who blocked its owner is answered 400 at `username` ("this person does not take shares from you"). Declining one share is leaving it: `DELETE /v2/files/{fid}/collaborators/{your username}`.',
    auth: 'required',
    body: blockSchema,
    responses: { 201: 'the new entry, `removed`: how many shares went', 200: 'they were blocked already (`removed` as well)' },
    handler: async ({ db, viewer, body }) => {
      const { entry, created, removed } = await blockUser(db, viewer, body.username);
      return json({ ...entry, removed }, { status: created ? 201 : 200 });
    },
  }),
});
