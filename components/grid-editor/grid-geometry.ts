// Where the grid editor's rows and columns are drawn: only those in view are (a million rows scroll
// as ten do), and past the height a browser allows an element, scroll positions map onto rows.

export const ROW_H = 28;
export const HEAD_H = 32;
export const ROWHEAD_W = 80;
export const COL_W = 144;
/** Scroll height at most: browsers cap an element's height (Chromium near 33 million pixels, Firefox near 18), so beyond it scroll positions map onto rows. */
const MAX_SCROLL_H = 8_000_000;

/** The scroller's size and scroll position. */
export interface View {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface GridWindow {
  /** The content's height below the header, and its width. */
  scrollH: number;
  width: number;
  /** The rows' area in view. */
  bodyH: number;
  maxTop: number;
  /** The row (fractional) at the top of the view, and the last row that can be there. */
  first: number;
  maxFirst: number;
  /** Rows r0..r1 and columns c0..c1 are in view. */
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

export function gridWindow(view: View, rows: number, ncols: number): GridWindow {
  const total = rows * ROW_H;
  const scrollH = Math.min(total, MAX_SCROLL_H);
  const bodyH = Math.max(ROW_H, view.height - HEAD_H);
  const maxTop = Math.max(0, scrollH - bodyH);
  const maxFirst = Math.max(0, total - bodyH) / ROW_H;
  const first = maxTop > 0 ? (Math.min(view.top, maxTop) / maxTop) * maxFirst : 0;
  return {
    scrollH,
    width: ROWHEAD_W + ncols * COL_W,
    bodyH,
    maxTop,
    first,
    maxFirst,
    r0: Math.floor(first),
    r1: Math.min(rows - 1, Math.ceil(first + bodyH / ROW_H)),
    c0: Math.floor(view.left / COL_W),
    c1: Math.min(ncols - 1, Math.floor((view.left + Math.max(0, view.width - ROWHEAD_W)) / COL_W)),
  };
}

/** Row r's top in the content. */
export const rowTop = (w: GridWindow, view: View, r: number) => HEAD_H + Math.min(view.top, w.maxTop) + (r - w.first) * ROW_H;

/** Rows a Page Up or Page Down moves. */
export const pageRows = (w: GridWindow) => Math.max(1, Math.floor(w.bodyH / ROW_H) - 1);

/** Scrolls `el` so the cell (r, c) is in view. */
export function reveal(el: HTMLElement, w: GridWindow, r: number, c: number): void {
  const topFor = (row: number) => (w.maxFirst > 0 ? (Math.max(0, Math.min(row, w.maxFirst)) / w.maxFirst) * w.maxTop : 0);
  const visible = Math.floor(w.bodyH / ROW_H);
  if (r < w.first) el.scrollTop = topFor(r);
  else if (r > w.first + visible - 1) el.scrollTop = topFor(r - visible + 1);
  const x = c * COL_W;
  const width = Math.max(COL_W, el.clientWidth - ROWHEAD_W);
  if (x < el.scrollLeft) el.scrollLeft = x;
  else if (x + COL_W > el.scrollLeft + width) el.scrollLeft = x + COL_W - width;
}

/** The numbers from `from` to `to`, both in (none when `to` is below `from`). */
export const span = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - Math.max(0, from) + 1) }, (_, i) => Math.max(0, from) + i);
