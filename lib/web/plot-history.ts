// A file's history on the web: a plot's or grid's versions (`/~owner/n/history`), one version
// (`/~owner/n/history/k`: a plot's drawn, a grid's first rows), and the restore form. Its writers'
// alone: anyone else gets the 404 of a missing file, as from the API (lib/core/plots/plot-versions.ts
// and grid-versions.ts hold the rules).
import 'server-only';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { describePlotChart } from '@/lib/core/plots/chart-data';
import { CursorRefused } from '@/lib/core/cursors';
import { ApiError } from '@/lib/core/errors';
import { getFile, type OwnedFile } from '@/lib/core/files/files';
import { restoreGridVersion } from '@/lib/core/grids/grid-versions';
import { figureBundle, type PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { restorePlotVersion } from '@/lib/core/plots/plot-versions';
import { assertWriter, isOwner, type Readable } from '@/lib/core/permissions';
import { parseFid, type PlotRecord } from '@/lib/core/records';
import { filePath, historyPath, versionContentPath } from '@/lib/shared/urls';
import { gridVersionAt, listVersions, plotVersionAt, versionParam, type Client } from '@/lib/core/files/versions';
import { GRID_PREVIEW_ROWS, gridPreview } from '@/lib/core/grids/grid-preview';
import { versionSources } from '@/lib/core/plots/version-data';
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

/** The viewer's own live plot or grid at `/~owner/n/`, else null (the 404 page). */
async function ownFile(ctx: PageContext, owner: string, n: string): Promise<Readable<OwnedFile> | null> {
  const fid = parseFid(`${owner}:${n}`);
  if (!fid) return null;
  try {
    const file = await getFile(ctx.db, fid, ctx.viewer);
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
  const file = await ownFile(ctx, owner, n);
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

/**
 * `/~owner/n/history/k`: version k of the owner's plot (what its chart draws from, and whether its
 * data is gone) or grid (its size and first rows); null for the 404.
 */
export async function loadFileVersion(owner: string, n: string, k: string) {
  const ctx = await pageContext();
  const file = await ownFile(ctx, owner, n);
  if (!file) return null;
  try {
    const number = versionParam(k);
    if (file.filetype === 'grid') {
      const { head, current } = await gridVersionAt(ctx.db, file.id, number);
      const record = JSON.parse(`${head}}`) as VersionItem;
      const preview = await gridPreview(ctx.db, file.id, current ? undefined : number);
      return { kind: 'grid' as const, ctx, file, record, current, preview: { ...preview, shown: Math.min(preview.rowCount, GRID_PREVIEW_ROWS) } };
    }
    const version = await plotVersionAt(ctx.db, file.id, number, isOwner(ctx.viewer, file));
    const record = JSON.parse(version.rec) as VersionItem & { title: string; figure: PlotRecord['figure'] };
    const [description, sources] = await Promise.all([
      // Versions keep the figure and title, not the caption.
      describePlotChart(ctx.db, file, ctx.viewer, { title: record.title.trim() || file.filename, caption: '' }, { version: record.version }),
      versionSources(ctx.db, file.id, number),
    ]);
    const bundle: PlotlyBundle = figureBundle(record.figure);
    const contentUrl = versionContentPath(file.owner, file.n, record.version);
    return { kind: 'plot' as const, ctx, file, record, current: version.current, dataGone: sources.gone.length > 0, bundle, description, contentUrl };
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
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
