// The figure a plot's chart draws, read on the server for its text alternative and data table: its
// content with the data the reader may see (inline_data and map_data, as the page's chart fetches it).
// Bounded: past the data a page draws at once, the figure is read without its grid data (and the
// words say so), so no page view reads or parses more than that. Text alternatives are kept by the
// content's tag (which moves with the figure, its data and which columns the reader gets), so a
// plot page viewed again reads no column.
import 'server-only';
import type { Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { describeChart, type ChartWords } from '@/lib/shared/figures/chart-description';
import { ApiError } from '../errors';
import { LIVE_MAX_BYTES } from '@/lib/shared/figures/live-drawing';
import { mergeMapData } from '@/lib/shared/figures/map-data';
import type { OwnedFile } from '../files/files';
import type { Readable } from '../permissions';
import { readableContent, type Content } from './plot-content';
import { pageChart, readPlotView } from './plot-views';

export interface ChartFigure {
  figure: { data: unknown[]; layout?: unknown };
  /** Its grid data was too much to read here: the figure holds its srcs instead. */
  dataOmitted: boolean;
}

interface ChartOptions {
  shareKey?: string | null;
  /** An earlier version (its writers only). */
  version?: number;
}

/** The content of a plot the caller checked readable as `viewer` (with the share key) gets it for the chart, or without its data past the bound. */
async function chartContent(
  db: Db,
  plot: Readable<OwnedFile>,
  viewer: Viewer | null,
  opts: ChartOptions,
  withData = true,
): Promise<{ content: Content; dataOmitted: boolean }> {
  const read = (withData: boolean) =>
    readableContent(db, plot, viewer, {
      inlineData: withData,
      mapUnreadable: withData,
      shareKey: opts.shareKey,
      version: opts.version,
      maxBytes: LIVE_MAX_BYTES,
    });
  if (!withData) return { content: await read(false), dataOmitted: true };
  try {
    return { content: await read(true), dataOmitted: false };
  } catch (e) {
    // Over the bytes a page reads at once: the figure alone (a refusal of the plot is not this).
    if (!(e instanceof ApiError && e.status === 400)) throw e;
    return { content: await read(false), dataOmitted: true };
  }
}

async function parseContent(content: Content): Promise<ChartFigure['figure']> {
  let text = '';
  for await (const part of content.parts()) text += part;
  const body = JSON.parse(text) as { data?: unknown; frames?: unknown[]; layout?: unknown; map_data?: Record<string, unknown> };
  return mergeMapData({ ...body, data: Array.isArray(body.data) ? body.data : [] });
}

/** The figure with its data of a plot the caller checked readable, as the viewer's chart draws it. */
export async function readChartFigure(db: Db, plot: Readable<OwnedFile>, viewer: Viewer | null, opts: ChartOptions = {}): Promise<ChartFigure> {
  const { content, dataOmitted } = await chartContent(db, plot, viewer, opts);
  return { figure: await parseContent(content), dataOmitted };
}

/** Pixel columns of the overview a large plot's words are read from. */
const DESCRIBED_PX = 500;

/** Text alternatives kept, least recently used first out (each at most MAX_DESCRIPTION_CHARS). */
const DESCRIPTIONS = new Map<string, string>();
const DESCRIPTIONS_KEPT = 1000;

/** The text alternative of a plot the caller checked readable, for this viewer (lib/shared/figures/chart-description.ts), kept by its content's tag. */
export async function describePlotChart(
  db: Db,
  plot: Readable<OwnedFile>,
  viewer: Viewer | null,
  words: Omit<ChartWords, 'dataOmitted'>,
  opts: ChartOptions = {},
): Promise<string> {
  // A chart drawn by the view is told from its overview (each stretch's extremes, so its ranges are exact), counting every row; its data is never read whole.
  const viewed =
    opts.version === undefined && (await pageChart(db, plot.id)).mode === 'reduced' ? await readPlotView(db, plot, viewer, { px: DESCRIBED_PX }) : null;
  const { content, dataOmitted } = await chartContent(db, plot, viewer, opts, !viewed?.traces.length);
  const key = JSON.stringify([content.etag, viewed?.etag ?? null, dataOmitted, words.title, words.caption]);
  const kept = DESCRIPTIONS.get(key);
  if (kept !== undefined) {
    DESCRIPTIONS.delete(key);
    DESCRIPTIONS.set(key, kept);
    return kept;
  }
  const figure = await parseContent(content);
  const counts: number[] = [];
  if (viewed?.traces.length) {
    figure.data = [...figure.data];
    for (const t of viewed.traces) {
      const x = t.xDate ? t.x.map((ms) => (ms === null ? null : new Date(ms).toISOString().slice(0, 19).replace('T', ' '))) : t.x;
      figure.data[t.index] = { ...(figure.data[t.index] as object), x, y: t.y };
      counts[t.index] = t.total;
    }
  }
  const text = describeChart(figure, { ...words, dataOmitted: dataOmitted && !viewed?.traces.length, counts });
  DESCRIPTIONS.set(key, text);
  if (DESCRIPTIONS.size > DESCRIPTIONS_KEPT) DESCRIPTIONS.delete(DESCRIPTIONS.keys().next().value as string);
  return text;
}
