// The plots a person may put in a dashboard they are building: their own live charts (no themes or
// templates), newest first, or those matching a search (the workspace's own search rule), a page at a time.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { isoText } from '../records';
import { listOwnerPlotRows } from './plot-lists';
import { searchPlotRows } from './search';

/** Plots a page. */
export const PLOT_CHOICES_PAGE_SIZE = 24;

export interface PlotChoiceRow {
  owner: string;
  n: number;
  filename: string;
  title: string;
  /** When it last changed (ISO 8601). */
  updated: string;
}

const SELECT = sql`u.username AS owner, f.n, f.filename, coalesce(p.title, '') AS title, ${isoText(sql`f.updated_at`, 'millis')} AS updated`;

/** A page of the viewer's own live plots (matching `q` when given, by relevance; else newest first). */
export async function listPlotChoices(
  db: Db,
  viewer: Viewer,
  q: { q: string; cursor?: string },
  origin: string,
): Promise<{ rows: PlotChoiceRow[]; next: string | null }> {
  const page = q.q.trim()
    ? await searchPlotRows<PlotChoiceRow>(db, viewer, SELECT, { q: q.q, page_size: PLOT_CHOICES_PAGE_SIZE, cursor: q.cursor }, origin, {
        scope: 'own',
        chartsOnly: true,
      })
    : await listOwnerPlotRows<PlotChoiceRow>(db, viewer, viewer.id, SELECT, { page_size: PLOT_CHOICES_PAGE_SIZE, cursor: q.cursor }, origin, {
        chartsOnly: true,
      });
  return { rows: page.rows, next: page.next };
}
