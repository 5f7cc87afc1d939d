import { z } from 'zod';
import { folderDetail, folderUpdateSchema, updateFileDetail } from '@/lib/file-detail';
import { endpoint, json, routes } from '@/lib/http';
import { fidParam } from '@/lib/records';

const update = endpoint({
  summary: 'Rename, move or share a folder: the fields given change, the others keep their values',
  auth: 'required',
  body: folderUpdateSchema,
  responses: { 200: "the folder's record" },
  handler: async ({ db, viewer, params, body, origin }) => json(await updateFileDetail(db, viewer, fidParam(params.fid), body, origin, 'fold')),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/folders/{fid}', {
  GET: endpoint({
    summary: 'A folder with the children the caller may see (`home?user=U`: the top level)',
    query: z.object({ user: z.string().max(100).optional() }),
    handler: async ({ db, viewer, params, query, origin }) => json(await folderDetail(db, viewer, params.fid, query.user ?? null, origin)),
  }),
  PUT: update,
  PATCH: update,
});
