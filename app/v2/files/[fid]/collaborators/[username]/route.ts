import { changeCollaborator, collaboratorChangeSchema, removeCollaborator } from '@/lib/core/files/collaborators';
import { fidParam } from '@/lib/core/records';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}/collaborators/{username}', {
  PATCH: endpoint({
    summary: "Change a collaborator's permission (the file's owner)",
    auth: 'required',
    body: collaboratorChangeSchema,
    responses: { 200: 'the changed entry' },
    handler: async ({ db, viewer, params, body }) => json(await changeCollaborator(db, viewer, fidParam(params.fid), params.username, body)),
  }),
  DELETE: endpoint({
    summary: 'Unshare a file with a collaborator (its owner), or leave it (the collaborator)',
    auth: 'required',
    responses: { 204: 'unshared' },
    handler: async ({ db, viewer, params }) => {
      await removeCollaborator(db, viewer, fidParam(params.fid), params.username);
      return new Response(null, { status: 204 });
    },
  }),
});
