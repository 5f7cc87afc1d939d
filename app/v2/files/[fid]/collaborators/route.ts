import { after } from 'next/server';
import { deliverNotificationMail } from '@/lib/core/files/notifications';
import { addCollaborator, collaboratorAddSchema, listCollaborators } from '@/lib/core/files/collaborators';
import { fidParam } from '@/lib/core/records';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}/collaborators', {
  GET: endpoint({
    summary: "The people a file is shared with by name (to its owner and its collaborators; a folder's reach what is in it but are listed on the folder)",
    auth: 'required',
    responses: { 200: '{"results": [{"username", "permission", "date_added"}], "count"}' },
    handler: async ({ db, viewer, params }) => json(await listCollaborators(db, viewer, fidParam(params.fid))),
  }),
  POST: endpoint({
    summary: 'Share a file with a user, `read` or `write` (its owner; naming someone already on it changes their permission)',
    auth: 'required',
    body: collaboratorAddSchema,
    responses: { 201: 'the new entry', 200: 'the changed entry (they were on it already)' },
    handler: async ({ db, viewer, params, body }) => {
      const { entry, created } = await addCollaborator(db, viewer, fidParam(params.fid), body);
      after(() => deliverNotificationMail(db));
      return json(entry, { status: created ? 201 : 200 });
    },
  }),
});
