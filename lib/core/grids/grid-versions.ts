// A grid's versions (lib/core/files/versions.ts keeps them): the list, one version with its columns, and its restore.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { batchedTexts, coalesced } from './column-reads';
import type { RowsPage } from '../cursors';
import { getFile, type OwnedFile } from '../files/files';
import { getGrid, lockGrid, touchGrid } from './grids';
import { refreshPlotsOfGrids } from '../images/images';
import { assertWriter } from '../permissions';
import type { Fid } from '../records';
import { gridVersionAt, listVersions, recordGridVersion, settleGridHistory, type Client, type VersionsQuery } from '../files/versions';

/** The grid's writer's view of it (the 404 of a missing grid to anyone else). */
async function writableGrid(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  const file = await getFile(db, fid, viewer);
  return assertWriter(file?.filetype === 'grid' ? file : undefined, viewer);
}

/** GET /v2/grids/{fid}/versions: a page of `{version, date_modified, author, client}`, newest first. */
export async function listGridVersions(db: Db, viewer: Viewer | null, fid: Fid, q: VersionsQuery): Promise<RowsPage<{ version: number; rec: string }>> {
  return listVersions(db, 'grid', (await writableGrid(db, viewer, fid)).id, q);
}

/** The columns of a grid's version (the live ones for the current version), in order, with their sizes but not their data. */
const versionColumnsSql = (gridId: number, n: number, current: boolean) =>
  current
    ? sql`SELECT uid, name, ord, bytes FROM grid_columns WHERE grid_id = ${gridId} ORDER BY ord, id`
    : sql`SELECT c.uid, c.name, c.ord, v.bytes FROM grid_version_columns c JOIN column_values v ON v.id = c.values_id
          WHERE c.file_id = ${gridId} AND c.version = ${n}::int ORDER BY c.ord, c.uid`;

/**
 * GET /v2/grids/{fid}/versions/{n}: the version's record with its `cols` (`{name, uid, order, data}`,
 * data as stored), streamed a batch of columns at a time (one statement a batch, lib/core/grids/column-reads.ts)
 * so a large grid's never sits in memory whole, nor costs a statement a column.
 */
export async function getGridVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number): Promise<AsyncIterable<string>> {
  const grid = await writableGrid(db, viewer, fid);
  const { head, current } = await gridVersionAt(db, grid.id, n);
  const cols = await queryRows<{ uid: string; name: string; ord: number; bytes: string | number }>(db, versionColumnsSql(grid.id, n, current));
  const batchSql = (uids: string[]) =>
    current
      ? sql`SELECT c.uid, v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id
            WHERE c.grid_id = ${grid.id} AND c.uid IN (SELECT json_array_elements_text(${JSON.stringify(uids)}::json))`
      : sql`SELECT c.uid, v.data::text AS data FROM grid_version_columns c JOIN column_values v ON v.id = c.values_id
            WHERE c.file_id = ${grid.id} AND c.version = ${n}::int AND c.uid IN (SELECT json_array_elements_text(${JSON.stringify(uids)}::json))`;
  const readBatch = async (batch: { uid: string }[]) =>
    new Map((await queryRows<{ uid: string; data: string }>(db, batchSql(batch.map((c) => c.uid)))).map((r) => [r.uid, r.data]));
  const items = cols.map((c) => ({ ...c, bytes: Number(c.bytes) }));
  return coalesced(
    (async function* () {
      yield `${head},"cols":[`;
      let i = 0;
      for await (const data of batchedTexts(items, (c) => c.uid, readBatch, '[]')) {
        const col = items[i];
        yield `${i++ ? ',' : ''}{"name":${JSON.stringify(col.name)},"uid":${JSON.stringify(col.uid)},"order":${col.ord},"data":${data}}`;
      }
      yield ']}';
    })(),
  );
}

/**
 * POST /v2/grids/{fid}/versions/{n}/restore: version n's columns become the grid's, as a new version
 * by `client` (copied in the database); plots drawn from the grid follow. Answers the grid's record.
 */
export async function restoreGridVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number, client: Client, origin: string) {
  const grid = await writableGrid(db, viewer, fid);
  await db.transaction(async (tx) => {
    await lockGrid(tx, grid.id);
    const { current } = await gridVersionAt(tx, grid.id, n);
    // The current version is the grid as it is: restoring it changes nothing.
    if (!current) {
      await recordGridVersion(tx, grid.id, { authorId: viewer!.id, client }, n);
      await touchGrid(tx, grid.id);
      await refreshPlotsOfGrids(tx, [grid]);
      await settleGridHistory(tx, grid.id, true);
    }
  });
  return getGrid(db, viewer, fid, origin);
}
