// What the renderer is asked to draw (sizes, export jobs) and what it answers when it cannot: its
// errors, told apart by name.
import { DEFAULT_SIZE } from '@/lib/core/images/images';

/** Image sides in pixels, smallest and largest (a figure's own size is clamped to them). */
export const MIN_SIDE = 50;
export const MAX_SIDE = 4096;

/** The default image's size: the figure's own width and height, else 700x500. */
export function figureSize(layout: unknown): [number, number] {
  const l = (layout && typeof layout === 'object' ? layout : {}) as Record<string, unknown>;
  const side = (v: unknown, fallback: number) =>
    typeof v === 'number' && Number.isFinite(v) ? Math.min(MAX_SIDE, Math.max(MIN_SIDE, Math.round(v))) : fallback;
  return [side(l.width, DEFAULT_SIZE[0]), side(l.height, DEFAULT_SIZE[1])];
}

export interface ExportSize {
  /** The size the figure is drawn at. */
  width: number;
  height: number;
  /** The output's size: the drawing scaled. */
  outWidth: number;
  outHeight: number;
}

/** What an export draws: the figure's text ({data, layout}) at its size. */
export interface ExportJob extends ExportSize {
  figureText: string;
  format: 'png' | 'jpeg' | 'webp' | 'svg' | 'pdf';
  /** The figure draws a geo map (lib/shared/figures/plotly-bundles.ts needsMapOutlines). */
  mapOutlines?: boolean;
}

export class RenderTimeoutError extends Error {
  override name = 'RenderTimeoutError';
}

/** plotly.js refused the figure, or the page drawing it died: the figure's doing. */
export class FigureError extends Error {
  override name = 'FigureError';
}
/** The browser went away under an export (another render crashed or hung it) or could not start. */
export class BrowserLostError extends Error {
  override name = 'BrowserLostError';
}

/**
 * Whether `error` is the renderer's error of that name. By name, not instanceof: the app's bundles
 * (instrumentation, routes) may each hold a copy of this module, and the process's one renderer
 * (appRenderer) throws the classes of whichever copy made it.
 */
export const isRenderError = (error: unknown, name: 'RenderTimeoutError' | 'FigureError' | 'BrowserLostError'): boolean =>
  error instanceof Error && error.name === name;
