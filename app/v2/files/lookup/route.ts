import { z } from 'zod';
import { authenticate } from '@/lib/auth';
import { fileDetail } from '@/lib/file-detail';
import { lookupPath, pathSchema } from '@/lib/files';
import { json, parseWith, publicOrigin, queryObject, routes } from '@/lib/http';
import { usernameSchema } from '@/lib/users';

const lookupQuery = z.object({ path: pathSchema, user: usernameSchema.optional() });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: async ({ req, url, db }) => {
    const query = parseWith(lookupQuery, queryObject(url));
    const viewer = await authenticate(db, req);
    const file = await lookupPath(db, viewer, query.path, query.user);
    return json(await fileDetail(db, viewer, file, publicOrigin(req)));
  },
});
