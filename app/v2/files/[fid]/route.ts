import { fileDetail, fileUpdateSchema, updateFileDetail } from '@/lib/file-detail';
import { getFile } from '@/lib/files';
import { endpoint, json, MiB, routes } from '@/lib/http';
import { assertReadable } from '@/lib/permissions';
import { fidParam, shareKeyQuery } from '@/lib/records';

const update = endpoint({
  summary: "Update any file: the fields given change, the others keep their values (another type's field is 400)",
  auth: 'required',
  body: fileUpdateSchema,
  bodyLimit: 10 * MiB,
  responses: { 200: "the file's record (a plot's detail, a grid's or a folder's)" },
  handler: async ({ db, viewer, params, body, origin }) => json(await updateFileDetail(db, viewer, fidParam(params.fid), body, origin)),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}', {
  GET: endpoint({
    summary: "Any file's record (a plot's detail, a grid's or a folder's)",
    query: shareKeyQuery,
    handler: async ({ db, viewer, params, query, origin }) => {
      const file = assertReadable(await getFile(db, fidParam(params.fid)), viewer, query.share_key);
      return json(await fileDetail(db, viewer, file, origin, { shareKey: query.share_key, cols: false }));
    },
  }),
  PUT: update,
  PATCH: update,
});
