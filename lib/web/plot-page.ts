// A file's web page (`/~owner/n/`), its embed and its CSV download: what they show, with the API's
// permissions (unreadable files are the one 404).
import 'server-only';
import { cache } from 'react';
import { z } from 'zod';
import { describePlotChart, readChartFigure } from '@/lib/core/plots/chart-data';
import { describeChart } from '@/lib/shared/figures/chart-description';
import { chartTable, type ChartTable } from '@/lib/shared/figures/chart-table';
import { csvColumns } from '@/lib/core/plots/csv-columns';
import { ApiError } from '@/lib/core/errors';
import type { OwnedFile } from '@/lib/core/files/files';
import { chartView, type ChartMode } from '@/lib/core/images/images';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { isDocumentType } from '@/lib/core/documents/dashboards';
import { type DocumentPageData, loadDocument } from './document-page';
import { pageContext, readableFile, type PageContext } from './page-context';
import { carriedShareKey, fileVisibility, shownShareKey, type Visibility } from '@/lib/core/permissions';
import { csvDownload } from './csv';
import { getPlotRecord, readablePlotAt } from '@/lib/core/plots/plots';
import { gridsOfPlots, listReferencers, type GridPlots, type PlotGrids } from '@/lib/core/files/references';
import type { PlotRecord } from '@/lib/core/records';
import { filePath, fileUrls, profilePath } from '@/lib/shared/urls';

/** `?share_key=`: a repeated or oversized value is ignored rather than an error page. */
const shareKeySchema = z.string().min(1).max(200).optional().catch(undefined);
export const shareKeyOf = (value: unknown): string | undefined => shareKeySchema.parse(value);

interface Lineage {
  /** The source plot's page, name and owner, when the viewer may read it (else it was still copied). */
  source: { href: string; name: string; owner: string; ownerHref: string } | null;
}

export interface PlotPageData {
  kind: 'plot';
  ctx: PageContext;
  file: OwnedFile;
  record: PlotRecord;
  visibility: Visibility;
  /** The share key to carry on this page's own requests: only when the plot needs it to be read. */
  shareKey: string | null;
  /** The secret link's key to print in its share link and embed code (shownShareKey), else null. */
  secretKey: string | null;
  lineage: Lineage | null;
  /** How its chart shows: live, on request (many values), or static (its render failed for good). */
  chart: ChartMode;
  /** The plotly.js bundle its chart loads (lib/shared/figures/plotly-bundles.ts). */
  bundle: PlotlyBundle;
  /** The grids it draws from: those the visitor may read named, the others counted. */
  grids: PlotGrids;
}

export interface GridPageData {
  kind: 'grid';
  ctx: PageContext;
  file: OwnedFile;
  visibility: Visibility;
  shareKey: string | null;
  urls: ReturnType<typeof fileUrls>;
  /** The plots drawing from it: those the visitor may read named, the others counted. */
  plots: GridPlots;
}

export type FilePageData = PlotPageData | GridPageData | DocumentPageData;

/**
 * The plot, grid, dashboard or presentation at `/~owner/n/` if the visitor may read it, else null (the 404 page). Cached per
 * request, so the metadata and the page body share one load.
 */
export const loadFilePage = cache(async (owner: string, n: string, shareKey: string | undefined): Promise<FilePageData | null> => {
  const ctx = await pageContext();
  const file = await readableFile(ctx, { owner, n }, shareKey);
  if (!file || file.filetype === 'fold') return null;
  const visibility = fileVisibility(file);
  const carried = carriedShareKey(file, shareKey);
  // The secret link (with its key) this page may print: the owner's, or the link the request came with.
  const secretKey = shownShareKey(file, ctx.viewer, shareKey);
  if (file.filetype === 'grid') {
    const plots = await listReferencers(ctx.db, ctx.viewer?.id ?? null, file);
    return { kind: 'grid', ctx, file, visibility, shareKey: carried, urls: fileUrls(ctx.origin, file.owner, file.n), plots };
  }
  if (isDocumentType(file.filetype)) return loadDocument(ctx, { ...file, filetype: file.filetype }, shareKey);
  let record: PlotRecord;
  try {
    record = await getPlotRecord(ctx.db, ctx.viewer, { owner: file.owner, n: file.n }, ctx.origin, shareKey);
  } catch {
    // Trashed or changed between the two reads: the same 404 as a missing plot.
    return null;
  }
  let lineage: Lineage | null = null;
  if (record.source_fid) {
    const source = await readablePlotAt(ctx.db, ctx.viewer, record.source_fid);
    lineage = {
      source: source ? { href: filePath(source.owner, source.n), name: source.filename, owner: source.owner, ownerHref: profilePath(source.owner) } : null,
    };
  }
  const [view, grids] = await Promise.all([chartView(ctx.db, file.id), gridsOfPlots(ctx.db, ctx.viewer?.id ?? null, [file.id])]);
  const drawsFrom = grids.get(file.id) ?? { grids: [], hidden: 0 };
  return { kind: 'plot', ctx, file, record, visibility, shareKey: carried, secretKey, lineage, chart: view.mode, bundle: view.bundle, grids: drawsFrom };
});

/** The plot's chart in words (its text alternative), from the data its chart draws for this visitor. */
export async function chartDescription(data: PlotPageData): Promise<string> {
  const words = { title: data.record.title.trim() || data.file.filename, caption: data.record.caption };
  try {
    return await describePlotChart(data.ctx.db, data.ctx.viewer, { owner: data.file.owner, n: data.file.n }, words, { shareKey: data.shareKey });
  } catch (e) {
    // Trashed since the page's first read: the figure it read, without data, still says what it was.
    if (!(e instanceof ApiError)) throw e;
    return describeChart(data.record.figure, { ...words, dataOmitted: true });
  }
}

/** `?page=`: a page number; anything else (repeated, not a number, out of range) is the first page. */
const pageSchema = z.coerce.number().int().min(1).max(1_000_000_000).catch(1);
export const tablePageOf = (value: unknown): number => pageSchema.parse(Array.isArray(value) ? value[0] : (value ?? 1));

export interface DataTablePageData {
  plot: PlotPageData;
  table: ChartTable;
  /** The figure's grid data was too much to read for a page: the table holds only its inline data. */
  dataOmitted: boolean;
}

/** `/~owner/n/data-table?page=k`: page k of the plot's data table, with the plot page's permissions; null for the 404. */
export async function loadDataTable(owner: string, n: string, shareKey: string | undefined, page: number): Promise<DataTablePageData | null> {
  const plot = await loadFilePage(owner, n, shareKey);
  if (plot?.kind !== 'plot') return null;
  try {
    const { figure, dataOmitted } = await readChartFigure(
      plot.ctx.db,
      plot.ctx.viewer,
      { owner: plot.file.owner, n: plot.file.n },
      { shareKey: plot.shareKey },
    );
    return { plot, table: chartTable(figure, page), dataOmitted };
  } catch (e) {
    // Trashed or changed between the two reads: the same 404 as a missing plot.
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** The iframe snippet offered for embedding; the title is escaped since it lands in others' HTML. */
export function embedCode(embedUrl: string, title: string): string {
  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<iframe src="${escapeHtml(embedUrl)}" width="100%" height="525" frameborder="0" title="${escapeHtml(title)}"></iframe>`;
}

/** The chart's height in pixels when the figure fixes one (else the page picks a responsive one). */
export function figureHeight(record: PlotRecord): number | null {
  const h = record.figure.layout?.height;
  return typeof h === 'number' && Number.isFinite(h) && h >= 100 && h <= 5000 ? Math.round(h) : null;
}

// ---------------------------------------------------------------------------------------------
// CSV

/** `/~owner/n.csv`: a grid's columns, or the columns a plot references; null for the one 404. */
export async function fileCsv(params: { owner: string; n: string }, shareKey: string | undefined) {
  const ctx = await pageContext();
  const file = await readableFile(ctx, params, shareKey);
  if (file?.filetype !== 'plot' && file?.filetype !== 'grid') return null;
  const columns = await csvColumns(ctx.db, ctx.viewer, file);
  return { filename: `${file.filename}.csv`, chunks: await csvDownload(ctx.db, columns) };
}
