// A figure with its data inline (as plotly writes figures) made a plot: its raw arrays uploaded as a
// grid, the plot created on src references, as the official clients do. The demo gallery and
// "Bring your charts" (lib/core/imports) make their plots with it.
import 'server-only';
import type { Db } from '@/db/client';
import { createGrid } from '../grids/grids';
import { setAt, splitFigure } from '../figures/figure';
import { createPlot } from './plots';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a figure's layout title, markup left out (plotly titles may hold <b>, <br>…). */
export function figureTitle(figure: { layout?: unknown }): string {
  const t = isObject(figure.layout) ? figure.layout.title : undefined;
  const text = typeof t === 'string' ? t : isObject(t) && typeof t.text === 'string' ? t.text : '';
  return text.replace(/<[^>]*>/g, '').trim();
}

/** Uploads a raw figure's data as a grid and creates the plot on src references; returns its fid. */
export async function createPlotFromRawFigure(
  db: Db,
  viewer: { id: number; username: string },
  raw: unknown,
  opts: { filename: string; gridFilename?: string; parentPath?: string[]; title?: string; worldReadable?: boolean; secret?: boolean; origin?: string },
): Promise<string> {
  const origin = opts.origin ?? 'http://localhost:3000';
  const place = opts.parentPath?.length ? { parent_path: opts.parentPath } : {};
  const { figure, columns } = splitFigure(raw);
  if (columns.length) {
    const cols = Object.fromEntries(columns.map((c, i) => [c.name, { data: c.data, order: i }]));
    const { file: grid } = await createGrid(
      db,
      viewer,
      { data: { cols }, filename: opts.gridFilename ?? `${opts.filename}_grid`, world_readable: opts.worldReadable ?? true, ...place },
      origin,
    );
    const uidByName = new Map(grid.cols.map((c) => [c.name, c.uid]));
    for (const c of columns) setAt(figure, c.path, `${grid.fid}:${uidByName.get(c.name)}`);
  }
  const text = await createPlot(
    db,
    viewer,
    {
      figure,
      filename: opts.filename,
      world_readable: opts.worldReadable ?? true,
      share_key_enabled: opts.secret ?? false,
      ...place,
      ...(opts.title ? { title: opts.title } : {}),
    },
    origin,
  );
  return (JSON.parse(text) as { file: { fid: string } }).file.fid;
}
