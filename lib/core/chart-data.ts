// The figure a plot's chart draws, read on the server for its text alternative and data table: its
// content with the data the reader may see (inline_data and map_data, as the page's chart fetches it).
// Bounded: past the data a page draws at once, the figure is read without its grid data (and the
// words say so), so no page view reads or parses more than that.
import 'server-only';
import type { Db } from '@/db/client';
import type { Viewer } from './auth';
import { ApiError } from './errors';
import { LIVE_MAX_BYTES } from './live-drawing';
import { mergeMapData } from './map-data';
import { getPlotContent } from './plot-content';
import type { Fid } from './records';

export interface ChartFigure {
  figure: { data: unknown[]; layout?: unknown };
  /** Its grid data was too much to read here: the figure holds its srcs instead. */
  dataOmitted: boolean;
}

/**
 * The plot's figure with its data, as `viewer` (with the share key) sees the chart; `version`: an
 * earlier version (its writers only). An unreadable plot is the API's 404, as for its content.
 */
export async function readChartFigure(
  db: Db,
  viewer: Viewer | null,
  fid: Fid,
  opts: { shareKey?: string | null; version?: number } = {},
): Promise<ChartFigure> {
  const read = async (withData: boolean) => {
    const content = await getPlotContent(db, viewer, fid, {
      inlineData: withData,
      mapUnreadable: withData,
      shareKey: opts.shareKey,
      version: opts.version,
      maxBytes: LIVE_MAX_BYTES,
    });
    let text = '';
    for await (const part of content.parts()) text += part;
    const body = JSON.parse(text) as { data?: unknown; frames?: unknown[]; layout?: unknown; map_data?: Record<string, unknown> };
    return mergeMapData({ ...body, data: Array.isArray(body.data) ? body.data : [] });
  };
  try {
    return { figure: await read(true), dataOmitted: false };
  } catch (e) {
    // Over the bytes a page reads at once: the figure alone (a refusal of the plot is not this).
    if (!(e instanceof ApiError && e.status === 400)) throw e;
    return { figure: await read(false), dataOmitted: true };
  }
}
