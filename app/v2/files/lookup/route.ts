import { z } from 'zod';
import { fileDetail } from '@/lib/file-detail';
import { lookupPath, pathSchema } from '@/lib/files';
import { endpoint, json, routes } from '@/lib/http';
import { usernameSchema } from '@/lib/users';

const lookupQuery = z.object({ path: pathSchema, user: usernameSchema.optional() });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/lookup', {
  GET: endpoint({
    summary: 'The file at a path (`a/b/name`) of the caller or of `user`',
    query: lookupQuery,
    handler: async ({ db, viewer, query, origin }) => json(await fileDetail(db, viewer, await lookupPath(db, viewer, query.path, query.user), origin)),
  }),
});
