import { after } from 'next/server';
import { deliverNotificationMail } from '@/lib/core/files/notifications';
import { commentBodySchema, createComment, listComments } from '@/lib/core/plots/comments';
import { COMMENT_MAX_CHARS } from '@/lib/shared/limits';
import { fidParam } from '@/lib/core/records';
import { versionsPageText } from '@/lib/core/files/versions';
import { feedQuerySchema, shareKeyQuery } from '@/lib/http/request/queries';
import { json, pageLinks } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/plots/{fid}/comments', {
  GET: endpoint({
    summary: "A plot's comments, newest first, keyset-paged: its readers",
    query: feedQuerySchema.extend(shareKeyQuery.shape),
    responses: {
      200: '{"next", "previous", "results": [{"id", "text", "author", "creation_time", "date_modified"}]}',
      404: 'No plot the caller may read at that fid.',
    },
    handler: async ({ db, viewer, params, query, origin, url }) =>
      json(versionsPageText(await listComments(db, viewer, fidParam(params.fid), query, query.share_key), pageLinks(origin, url))),
  }),
  POST: endpoint({
    summary: 'Comments on a plot the caller can read',
    description: `Plain text, 1..${COMMENT_MAX_CHARS} characters once trimmed. Limits (per plot, per person an hour): docs/limits.md.`,
    auth: 'required',
    query: shareKeyQuery,
    body: commentBodySchema,
    bodyLimit: 64 * 1024,
    responses: {
      201: 'the comment',
      403: 'Comments are turned off for this plot.',
      404: 'No plot the caller may read at that fid.',
      409: 'The plot holds the most comments it can.',
      429: 'The caller posted their hourly allowance of comments.',
    },
    handler: async ({ db, viewer, params, query, body }) => {
      const comment = await createComment(db, viewer, fidParam(params.fid), body, query.share_key);
      after(() => deliverNotificationMail(db));
      return json(comment, { status: 201 });
    },
  }),
});
