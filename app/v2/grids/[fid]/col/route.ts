import { clientOf } from '@/lib/http/request/client';
import { colsBodySchema } from '@/lib/core/grids/grid-input';
import { appendColumns, deleteColumns, readColumns, replaceColumns } from '@/lib/core/grids/column-verbs';
import { uidQuerySchema } from '@/lib/http/request/queries';
import { endpoint, routes } from '@/lib/http/routes';
import { json, jsonStream } from '@/lib/http/responses';
import { GRID_COLUMNS_BODY_LIMIT } from '@/lib/http/grid-bodies';
import { fidParam } from '@/lib/core/records';
import { shareKeyQuery } from '@/lib/http/request/queries';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/col', {
  GET: endpoint({
    summary: "Some of a grid's columns with their data, in the order asked",
    query: uidQuerySchema.extend(shareKeyQuery.shape),
    responses: { 200: '{"cols": [{"name", "uid", "order", "data"}]}' },
    handler: async ({ db, viewer, params, query }) => jsonStream(await readColumns(db, viewer, fidParam(params.fid), query.uid, query.share_key)),
  }),
  POST: endpoint({
    summary: 'Append columns to a grid, after the existing ones',
    auth: 'required',
    body: colsBodySchema,
    bodyLimit: GRID_COLUMNS_BODY_LIMIT,
    gridBody: 'append-cols',
    responses: { 201: '{"cols": [{"name", "uid"}]}: the new columns, in the order sent' },
    handler: async ({ req, db, viewer, params, body }) =>
      json(await appendColumns(db, viewer, fidParam(params.fid), body, clientOf(req.headers)), { status: 201 }),
  }),
  PUT: endpoint({
    summary: "Replace columns' data (and rename those given a name), one item per uid",
    auth: 'required',
    query: uidQuerySchema,
    body: colsBodySchema,
    bodyLimit: GRID_COLUMNS_BODY_LIMIT,
    gridBody: 'replace-cols',
    responses: { 200: '{"cols": [{"name", "uid"}]}' },
    handler: async ({ req, db, viewer, params, query, body }) =>
      json(await replaceColumns(db, viewer, fidParam(params.fid), query.uid, body, clientOf(req.headers))),
  }),
  DELETE: endpoint({
    summary: "Delete some of a grid's columns",
    auth: 'required',
    query: uidQuerySchema,
    responses: { 204: 'deleted' },
    handler: async ({ req, db, viewer, params, query }) => {
      await deleteColumns(db, viewer, fidParam(params.fid), query.uid, clientOf(req.headers));
      return new Response(null, { status: 204 });
    },
  }),
});
