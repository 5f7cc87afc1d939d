// A plot's versions (lib/core/files/versions.ts keeps them): the list, one version, and its restore.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { plots } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import type { RowsPage } from '../cursors';
import { updateFile, type TypeUpdate } from '../files/file-changes';
import type { OwnedFile } from '../files/files';
import { assertWriter } from '../permissions';
import { getPlot, getPlotFile, plotUpdate, type PlotUpdate } from './plots';
import type { Fid } from '../records';
import { listVersions, plotVersionAt, type Client, type VersionsQuery } from '../files/versions';

/** The plot's writer's view of it (the 404 of a missing plot to anyone else). */
async function writablePlot(db: Db, viewer: Viewer | null, fid: Fid): Promise<OwnedFile> {
  return assertWriter(await getPlotFile(db, fid, viewer), viewer);
}

/** GET /v2/plots/{fid}/versions: a page of `{version, date_modified, author, client, title}`, newest first. */
export async function listPlotVersions(db: Db, viewer: Viewer | null, fid: Fid, q: VersionsQuery): Promise<RowsPage<{ version: number; rec: string }>> {
  return listVersions(db, 'plot', (await writablePlot(db, viewer, fid)).id, q);
}

/** GET /v2/plots/{fid}/versions/{n}: the version's record with its `figure` (srcs as stored), as JSON text. */
export async function getPlotVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number): Promise<string> {
  return (await plotVersionAt(db, (await writablePlot(db, viewer, fid)).id, n)).rec;
}

/**
 * POST /v2/plots/{fid}/versions/{n}/restore: version n's figure and title become current, as a new
 * version by `client`, under the update's rules (its srcs must still be readable grids: else the
 * update's 400 naming `figure`). Answers the plot's detail record.
 */
export async function restorePlotVersion(db: Db, viewer: Viewer | null, fid: Fid, n: number, client: Client, origin: string): Promise<string> {
  const file = await writablePlot(db, viewer, fid);
  const version = await plotVersionAt(db, file.id, n);
  // The current version is the plot as it is: restoring it changes nothing.
  if (version.current) return getPlot(db, viewer, fid, origin);
  // The figure through the update's own part, then the title as that version had it (given or the layout's).
  const write: TypeUpdate<PlotUpdate> = async (db, editor, input, plot) => {
    const figureWrite = await plotUpdate(db, editor, input, plot);
    return async (tx, row, save) => {
      await figureWrite?.(tx, row, save);
      await tx.update(plots).set({ title: version.title, titleGiven: version.title_given }).where(eq(plots.fileId, row.id));
    };
  };
  await updateFile(db, viewer, fid, { figure: JSON.parse(version.figure) }, { filetype: 'plot', types: { plot: write }, client });
  return getPlot(db, viewer, fid, origin);
}
