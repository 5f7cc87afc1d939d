// A grid's versions (lib/core/versions.ts keeps them): the list, one version with its columns, and its restore.
import 'server-only';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from './auth';
import type { RowsPage } from './cursors';
import { getFile, type OwnedFile } from './files';
import { getGrid, lockGrid, touchGrid } from './grids';
import { refreshPlotsOfGrids } from './images';
import { assertWriter } from './permissions';
import type { Fid } from './records';
import { gridVersionAt, listVersions, recordGridVersion, settleGridHistory, type Client, type VersionsQuery } from './versions';

/** The grid's writer's view of it (the 404 of a missing grid to anyone else). */
async function writableGrid(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  const file = await getFile(db, fid, viewer);
  return assertWriter(file?.filetype === 'grid' ? file : undefined, viewer);
}

/** GET /v2/grids/{fid}/versions: a page of `{version, date_modified, author, client}`, newest first. */
export async function listGridVersions(db: Db, viewer: Viewer | null, fid: Fid, q: VersionsQuery): Promise<RowsPage<{ version: number; rec: string }>> {
  return listVersions(db, 'grid', (await writableGrid(db, viewer, fid)).id, q);
}

/** The columns of a grid's version (the live ones for the current version), in order, without their data. */
const versionColumnsSql = (gridId: number, n: number, current: boolean) =>
  current
    ? sql`SELECT uid, name, ord FROM grid_columns WHERE grid_id = ${gridId} ORDER BY ord, id`
    : sql`SELECT uid, name, ord FROM grid_version_columns WHERE file_id = ${gridId} AND version = ${n}::int ORDER BY ord, uid`;

/**
 * GET /v2/grids/{fid}/versions/{n}: the version's record with its `cols` (`{name, uid, order, data}`,
 * data as stored), streamed a column at a time so a large grid's never sits in memory whole.
 */
export async function getGridVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number): Promise<AsyncIterable<string>> {
  const grid = await writableGrid(db, viewer, fid);
  const { head, current } = await gridVersionAt(db, grid.id, n);
  const cols = await queryRows<{ uid: string; name: string; ord: number }>(db, versionColumnsSql(grid.id, n, current));
  const dataSql = (uid: string) =>
    current
      ? sql`SELECT v.data::text AS data FROM grid_columns c JOIN column_values v ON v.id = c.values_id WHERE c.grid_id = ${grid.id} AND c.uid = ${uid}`
      : sql`SELECT v.data::text AS data FROM grid_version_columns c JOIN column_values v ON v.id = c.values_id
          WHERE c.file_id = ${grid.id} AND c.version = ${n}::int AND c.uid = ${uid}`;
  return (async function* () {
    yield `${head},"cols":[`;
    for (const [i, col] of cols.entries()) {
      yield `${i ? ',' : ''}{"name":${JSON.stringify(col.name)},"uid":${JSON.stringify(col.uid)},"order":${col.ord},"data":`;
      const [row] = await queryRows<{ data: string }>(db, dataSql(col.uid));
      yield row?.data ?? '[]';
      yield '}';
    }
    yield ']}';
  })();
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
