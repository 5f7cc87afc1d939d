// A file's history on the web: a plot's or grid's versions (`/~owner/n/history`), a plot's version
// drawn (`/~owner/n/history/k`), and the restore form. Its owner's alone: anyone else gets the 404 of
// a missing file, as from the API (lib/core/plots/plot-versions.ts and grid-versions.ts hold the rules).
import 'server-only';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { describePlotChart } from '@/lib/core/plots/chart-data';
import { CursorRefused } from '@/lib/core/cursors';
import { ApiError } from '@/lib/core/errors';
import { getFile, type OwnedFile } from '@/lib/core/files/files';
import { restoreGridVersion } from '@/lib/core/grids/grid-versions';
import { figureBundle, type PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { getPlotFile } from '@/lib/core/plots/plots';
import { restorePlotVersion } from '@/lib/core/plots/plot-versions';
import { assertWriter, type Readable } from '@/lib/core/permissions';
import { parseFid, type PlotRecord } from '@/lib/core/records';
import { filePath, historyPath, versionContentPath } from '@/lib/shared/urls';
import { listVersions, plotVersionAt, versionParam, type Client } from '@/lib/core/files/versions';
import { fidField, formAction, textField } from './forms';
import { pageContext, type PageContext } from './page-context';

/** One version as the history lists it. */
export interface VersionItem {
  version: number;
  date_modified: string;
  author: string | null;
  client: Client | null;
  /** A plot's; grids' versions have none. */
  title?: string;
}

/** Versions a history page shows. */
const HISTORY_PAGE_SIZE = 20;

/** The viewer's own live plot (or, with `grids`, plot or grid) at `/~owner/n/`, else null (the 404 page). */
async function ownFile(ctx: PageContext, owner: string, n: string, grids = false): Promise<Readable<OwnedFile> | null> {
  const fid = parseFid(`${owner}:${n}`);
  if (!fid) return null;
  try {
    const file = grids ? await getFile(ctx.db, fid, ctx.viewer) : await getPlotFile(ctx.db, fid, ctx.viewer);
    return assertWriter(file?.filetype === 'plot' || file?.filetype === 'grid' ? file : undefined, ctx.viewer);
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** `?cursor=`: a repeated, oversized or foreign one shows the first page. */
const cursorSchema = z.string().min(1).max(512).optional().catch(undefined);

/** `/~owner/n/history`: a page of the owner's plot's or grid's versions, newest first, with links to the pages beside it; null for the 404. */
export async function loadFileHistory(owner: string, n: string, cursorParam: unknown) {
  const ctx = await pageContext();
  const file = await ownFile(ctx, owner, n, true);
  if (!file) return null;
  const cursor = cursorSchema.parse(Array.isArray(cursorParam) ? cursorParam[0] : cursorParam);
  // Its writer's, found above: its versions read by its id (the API's listPlotVersions would look it up again).
  const kind = file.filetype === 'grid' ? 'grid' : 'plot';
  const page = await listVersions(ctx.db, kind, file.id, { page_size: HISTORY_PAGE_SIZE, cursor }).catch((e: unknown) => {
    if (e instanceof CursorRefused) return listVersions(ctx.db, kind, file.id, { page_size: HISTORY_PAGE_SIZE });
    throw e;
  });
  const link = (c: string | null) => c && `${historyPath(file.owner, file.n)}?cursor=${encodeURIComponent(c)}`;
  return {
    ctx,
    file,
    versions: page.rows.map((row) => JSON.parse(row.rec) as VersionItem),
    next: link(page.next),
    previous: link(page.previous),
  };
}

/** `/~owner/n/history/k`: version k of the owner's plot, what its chart draws from; null for the 404. */
export async function loadPlotVersion(owner: string, n: string, k: string) {
  const ctx = await pageContext();
  const file = await ownFile(ctx, owner, n);
  if (!file) return null;
  let version: Awaited<ReturnType<typeof plotVersionAt>>;
  try {
    version = await plotVersionAt(ctx.db, file.id, versionParam(k));
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
  const record = JSON.parse(version.rec) as VersionItem & { title: string; figure: PlotRecord['figure'] };
  const bundle: PlotlyBundle = figureBundle(record.figure);
  const description = await describePlotChart(
    ctx.db,
    file,
    ctx.viewer,
    // Versions keep the figure and title, not the caption.
    { title: record.title.trim() || file.filename, caption: '' },
    { version: record.version },
  );
  return { ctx, file, record, current: version.current, bundle, description, contentUrl: versionContentPath(file.owner, file.n, record.version) };
}

const restorers = { plot: restorePlotVersion, grid: restoreGridVersion };

const restoreSchema = z.object({
  fid: fidField,
  // A version that is no number is the 404 of a missing one.
  version: textField(z.string()).transform(versionParam),
  filetype: z.preprocess((value) => (value === 'grid' ? 'grid' : 'plot'), z.enum(['grid', 'plot'])),
});

/** The restore form: version `version` of the form's plot or grid becomes current (a new version, by the web), then its page shows it. */
export const restoreVersion = formAction(restoreSchema, async ({ fid, version, filetype }, caller) => {
  await restorers[filetype](caller.db, caller.viewer, fid, version, 'web', caller.origin);
  // The file's page, whoever restored it (a collaborator may).
  redirect(`${filePath(fid.owner, fid.n)}?notice=reverted`);
});
