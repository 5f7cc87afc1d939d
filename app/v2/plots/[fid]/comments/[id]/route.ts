import { commentBodySchema, commentIdParam, deleteComment, updateComment } from '@/lib/core/plots/comments';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/comments/{id}', {
  PATCH: endpoint({
    summary: "Changes a comment's text: its author",
    auth: 'required',
    query: shareKeyQuery,
    body: commentBodySchema,
    bodyLimit: 64 * 1024,
    responses: {
      200: 'the comment',
      403: 'Not its author, or comments are turned off for this plot.',
      404: 'No plot the caller may read at that fid, or no such comment on it.',
    },
    handler: async ({ db, viewer, params, query, body }) =>
      json(await updateComment(db, viewer, fidParam(params.fid), commentIdParam(params.id), body, query.share_key)),
  }),
  DELETE: endpoint({
    summary: "Deletes a comment: its author or the plot's owner",
    auth: 'required',
    query: shareKeyQuery,
    responses: { 204: 'deleted', 403: "Neither its author nor the plot's owner.", 404: 'No plot the caller may read at that fid, or no such comment on it.' },
    handler: async ({ db, viewer, params, query }) => {
      await deleteComment(db, viewer, fidParam(params.fid), commentIdParam(params.id), query.share_key);
      return new Response(null, { status: 204 });
    },
  }),
});
