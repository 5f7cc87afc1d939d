// The data import page (/create): the viewer's templates to start a chart from, and what it lists below
// the import, the viewer's latest changed grids, each opening the chart editor on it; and where Chart
// Studio's editor links (`/create/?fid=owner:n`) lead.
import 'server-only';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { listOwnGrids } from '@/lib/core/grids/grids';
import { listTemplates, type OwnStyleFile } from '@/lib/core/plots/themes';
import { canWrite } from '@/lib/core/permissions';
import { editorLinkFid, editPlotPath, filePath, newChartPath, withShareKey } from '@/lib/shared/urls';
import { pageContext, readableFile } from './page-context';

/** Grids the page lists (newest first); the rest are in the workspace. */
export const NEW_CHART_GRIDS = 50;

export interface GridChoice {
  n: number;
  filename: string;
  modified: string;
  /** The chart editor on this grid. */
  href: string;
}

export async function newChartGrids(db: Db, viewer: Viewer): Promise<{ grids: GridChoice[]; more: boolean }> {
  const rows = await listOwnGrids(db, viewer, NEW_CHART_GRIDS + 1);
  return {
    grids: rows.slice(0, NEW_CHART_GRIDS).map((r) => ({ ...r, modified: r.modified.toISOString(), href: newChartPath({ owner: viewer.username, n: r.n }) })),
    more: rows.length > NEW_CHART_GRIDS,
  };
}

/** The templates "Start from a template" offers (the viewer's latest made, at most MAX_LISTED_THEMES). */
export function newChartTemplates(db: Db, viewer: Viewer): Promise<OwnStyleFile[]> {
  return listTemplates(db, viewer);
}

/**
 * Where Chart Studio's editor link `/create/?fid=owner:n` leads: the chart editor on that plot when the
 * visitor may edit it, else its page (with the link's share key), which answers a plot they may not
 * read as a missing one; null when `fid` names no plot.
 */
export async function editorLinkTarget(fid: string | undefined, shareKey: string | undefined): Promise<string | null> {
  const named = editorLinkFid(fid);
  if (!named) return null;
  const ctx = await pageContext();
  const file = await readableFile(ctx, { owner: named.owner, n: String(named.n) }, shareKey);
  if (file?.filetype === 'plot' && canWrite(file, ctx.viewer)) return editPlotPath(file.owner, file.n);
  return withShareKey(filePath(named.owner, named.n), shareKey);
}
