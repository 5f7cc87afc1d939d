import { z } from 'zod';
import { fileDetail } from '@/lib/file-detail';
import { lookupPath, pathSchema } from '@/lib/files';
import { endpoint, json, routes } from '@/lib/http';
import { usernameSchema } from '@/lib/users';

const lookupQuery = z.object({
  path: pathSchema.meta({ description: 'the file\'s path, `a/b/name` (a leading `/` is ignored)' }),
  user: usernameSchema.optional().meta({ description: 'whose files (default: the caller)' }),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/lookup', {
  GET: endpoint({
    summary: 'The file at a path (`a/b/name`) of the caller or of `user`',
    query: lookupQuery,
    responses: { 404: 'No live file the caller may read at that path.' },
    handler: async ({ db, viewer, query, origin }) => json(await fileDetail(db, viewer, await lookupPath(db, viewer, query.path, query.user), origin)),
  }),
});
