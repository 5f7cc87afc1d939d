// A file's web page (`/~owner/n/`), its embed, its data table and its CSV download: one loader a page,
// returning everything it shows, with the API's permissions (unreadable files are the one 404). The
// file is looked up and checked once (file-head.ts); everything else is read "of an already-checked file".
import 'server-only';
import { cache } from 'react';
import { z } from 'zod';
import { describePlotChart, readChartFigure } from '@/lib/core/plots/chart-data';
import { describeChart } from '@/lib/shared/figures/chart-description';
import { chartTable, type ChartTable } from '@/lib/shared/figures/chart-table';
import { csvColumns } from '@/lib/core/plots/csv-columns';
import { ApiError } from '@/lib/core/errors';
import type { ChartMode } from '@/lib/core/images/images';
import { pageChart } from '@/lib/core/plots/plot-views';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { isDocumentType } from '@/lib/core/documents/dashboards';
import { GRID_PREVIEW_ROWS, gridPreview } from '@/lib/core/grids/grid-preview';
import { type PlotData, plotDataOfOwn } from '@/lib/core/plots/plot-data-sharing';
import { type DocumentPageData, loadDocument } from './document-page';
import { fileHead, type FileHead } from './file-head';
import { pageContext, readableFile } from './page-context';
import { countPageView } from './page-views';
import { plotPeople, type PlotPeople } from './people';
import { csvDownload } from './csv';
import { plotRecordOf, readablePlotAt } from '@/lib/core/plots/plots';
import { gridsOfPlots, listReferencers, type GridPlots, type PlotGrids } from '@/lib/core/files/references';
import type { PlotRecord } from '@/lib/core/records';
import { filePath, profilePath } from '@/lib/shared/urls';

interface Lineage {
  /** The source plot's page, name and owner, when the viewer may read it (else it was still copied). */
  source: { href: string; name: string; owner: string; ownerHref: string } | null;
}

/** A plot as every page of it shows it: its record (title, caption, counts) and how its chart draws. */
interface PlotBase extends FileHead {
  kind: 'plot';
  record: PlotRecord;
  /** How its chart shows: live, on request (many values), or static (its render failed for good). */
  chart: ChartMode;
  /** The plotly.js bundle its chart loads (lib/shared/figures/plotly-bundles.ts). */
  bundle: PlotlyBundle;
}

export interface PlotPageData extends PlotBase {
  /** The chart in words (its text alternative). */
  description: string;
  lineage: Lineage | null;
  /** The grids it draws from: those the visitor may read named, the others counted. */
  grids: PlotGrids;
  /** Its stars and comments for this visitor. */
  people: PlotPeople;
  /** To its owner: its grids and what each does at its sharing. */
  plotData: PlotData | null;
}

export interface GridPageData extends FileHead {
  kind: 'grid';
  /** The plots drawing from it: those the visitor may read named, the others counted. */
  plots: GridPlots;
  /** Its first rows and columns, as the page's table shows them. */
  preview: Awaited<ReturnType<typeof gridPreview>> & { shown: number };
}

export type FilePageData = PlotPageData | GridPageData | DocumentPageData;

/** A plot's record and chart, for a head found to be a plot; null for the 404 (trashed or changed since it was found). */
async function plotBase(head: FileHead): Promise<PlotBase | null> {
  const { ctx, file } = head;
  const record = await plotRecordOf(ctx.db, file, ctx.viewer, ctx.origin);
  if (!record) return null;
  const view = await pageChart(ctx.db, file.id);
  return { ...head, kind: 'plot', record, chart: view.mode, bundle: view.bundle };
}

/** The plot's chart in words, from the data its chart draws for this visitor. */
async function chartDescription(plot: PlotBase): Promise<string> {
  const { ctx, file, record } = plot;
  const words = { title: record.title.trim() || file.filename, caption: record.caption };
  try {
    return await describePlotChart(ctx.db, file, ctx.viewer, words, { shareKey: plot.shareKey });
  } catch (e) {
    // Deleted since the page's first read: the figure it read, without data, still says what it was.
    if (!(e instanceof ApiError)) throw e;
    return describeChart(record.figure, { ...words, dataOmitted: true });
  }
}

/**
 * `/~owner/n/`: the plot, grid, dashboard or presentation with everything its page shows, if the
 * visitor may read it, else null (the 404 page); `commentsCursor` is the page's `?comments=`. Once a
 * request (the metadata and the page body share it). A plot's page counts its view, once it is sent.
 */
export const loadFilePage = cache(async (owner: string, n: string, shareKey: string | undefined, commentsCursor: string | undefined) => {
  const head = await fileHead(owner, n, shareKey);
  if (!head) return null;
  const { ctx, file } = head;
  if (file.filetype === 'grid') {
    const [plots, preview] = await Promise.all([listReferencers(ctx.db, ctx.viewer?.id ?? null, file), gridPreview(ctx.db, file.id)]);
    return { ...head, kind: 'grid', plots, preview: { ...preview, shown: Math.min(preview.rowCount, GRID_PREVIEW_ROWS) } } satisfies GridPageData;
  }
  if (isDocumentType(file.filetype)) return loadDocument({ ...head, file: { ...file, filetype: file.filetype } });
  const plot = await plotBase(head);
  if (!plot) return null;
  const { record } = plot;
  const source = record.source_fid ? await readablePlotAt(ctx.db, ctx.viewer, record.source_fid) : undefined;
  const lineage = record.source_fid
    ? { source: source ? { href: filePath(source.owner, source.n), name: source.filename, owner: source.owner, ownerHref: profilePath(source.owner) } : null }
    : null;
  const [grids, description, people, plotData] = await Promise.all([
    gridsOfPlots(ctx.db, ctx.viewer?.id ?? null, [file.id]),
    chartDescription(plot),
    plotPeople(ctx, file, record, commentsCursor),
    head.own ? plotDataOfOwn(ctx.db, file) : null,
  ]);
  // The count shown is as stored; this view counts once the page is sent (once per visitor a day).
  await countPageView(ctx, file.id);
  return { ...plot, description, lineage, grids: grids.get(file.id) ?? { grids: [], hidden: 0 }, people, plotData } satisfies PlotPageData;
});

/** `/~owner/n.embed`: the plot's chart with its words, or a dashboard's boxes or a presentation's slides; null for the 404. */
export const loadEmbed = cache(async (owner: string, n: string, shareKey: string | undefined) => {
  const head = await fileHead(owner, n, shareKey);
  if (!head || head.file.filetype === 'grid') return null;
  const { file } = head;
  if (isDocumentType(file.filetype)) return loadDocument({ ...head, file: { ...file, filetype: file.filetype } });
  const plot = await plotBase(head);
  return plot && { ...plot, description: await chartDescription(plot) };
});

/** `?page=`: a page number; anything else (repeated, not a number, out of range) is the first page. */
const pageSchema = z.coerce.number().int().min(1).max(1_000_000_000).catch(1);
export const tablePageOf = (value: unknown): number => pageSchema.parse(Array.isArray(value) ? value[0] : (value ?? 1));

export interface DataTablePageData {
  plot: PlotBase;
  table: ChartTable;
  /** The figure's grid data was too much to read for a page: the table holds only its inline data. */
  dataOmitted: boolean;
}

/** `/~owner/n/data-table?page=k`: page k of the plot's data table, with the plot page's permissions; null for the 404. */
export const loadDataTable = cache(async (owner: string, n: string, shareKey: string | undefined, page: number): Promise<DataTablePageData | null> => {
  const head = await fileHead(owner, n, shareKey);
  const plot = head?.file.filetype === 'plot' ? await plotBase(head) : null;
  if (!plot) return null;
  try {
    const { figure, dataOmitted } = await readChartFigure(plot.ctx.db, plot.file, plot.ctx.viewer, { shareKey: plot.shareKey });
    return { plot, table: chartTable(figure, page), dataOmitted };
  } catch (e) {
    // Deleted since it was found: the same 404 as a missing plot.
    if (e instanceof ApiError) return null;
    throw e;
  }
});

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
