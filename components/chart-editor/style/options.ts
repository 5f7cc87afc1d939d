// The choices the style panels offer, written out because the browser does not load plotly.js's
// plot-schema (a few MiB): tests/unit/style-options.test.ts holds every value here to that schema,
// so a plotly.js upgrade that drops one fails there instead of drawing a chart plotly ignores. The
// trace types a schema rule picks (x/y or 3D, colour scale, opacity, legend) are generated from it
// instead (lib/shared/figures/trace-facts.generated.ts).
import { DRAW_LIMITS } from '@/lib/shared/figures/draw-guard';

export interface Option<T = string> {
  label: string;
  value: T;
}

/** Axis types; "Auto" (plotly's '-') is the attribute removed. */
export const AXIS_TYPES: Option[] = [
  { label: 'Linear', value: 'linear' },
  { label: 'Log', value: 'log' },
  { label: 'Date', value: 'date' },
  { label: 'Category', value: 'category' },
];

/** d3-format and d3-time-format strings for tick labels; "Auto" is the attribute removed. */
export const TICK_FORMATS: Option[] = [
  { label: '1,234.5', value: ',' },
  { label: '1.2k (SI)', value: '~s' },
  { label: '1.23 (two decimals)', value: '.2f' },
  { label: '12% (from 0.12)', value: '.0%' },
  { label: '1.2e+3', value: '.1e' },
  { label: '2024-01-31 (date)', value: '%Y-%m-%d' },
  { label: 'Jan 2024 (date)', value: '%b %Y' },
  { label: '2024 (date)', value: '%Y' },
];

export const LINE_DASHES: Option[] = [
  { label: 'Solid', value: 'solid' },
  { label: 'Dotted', value: 'dot' },
  { label: 'Dashed', value: 'dash' },
  { label: 'Long dashes', value: 'longdash' },
  { label: 'Dash and dot', value: 'dashdot' },
  { label: 'Long dash and dot', value: 'longdashdot' },
];

/** A few of plotly's marker symbols; 3D traces draw fewer (MARKER_SYMBOLS_3D). */
export const MARKER_SYMBOLS: Option[] = [
  { label: 'Circle', value: 'circle' },
  { label: 'Square', value: 'square' },
  { label: 'Diamond', value: 'diamond' },
  { label: 'Cross', value: 'cross' },
  { label: 'X', value: 'x' },
  { label: 'Triangle up', value: 'triangle-up' },
  { label: 'Triangle down', value: 'triangle-down' },
  { label: 'Star', value: 'star' },
  { label: 'Hexagon', value: 'hexagon' },
  { label: 'Circle (open)', value: 'circle-open' },
  { label: 'Square (open)', value: 'square-open' },
  { label: 'Diamond (open)', value: 'diamond-open' },
];
export const MARKER_SYMBOLS_3D: Option[] = MARKER_SYMBOLS.filter((o) =>
  ['circle', 'square', 'diamond', 'cross', 'x', 'circle-open', 'square-open', 'diamond-open'].includes(o.value),
);

const LINE_SHAPES: Option[] = [
  { label: 'Straight', value: 'linear' },
  { label: 'Smooth', value: 'spline' },
  { label: 'Steps (across, then up)', value: 'hv' },
  { label: 'Steps (up, then across)', value: 'vh' },
  { label: 'Steps (centred across)', value: 'hvh' },
  { label: 'Steps (centred up)', value: 'vhv' },
];
/** Line shapes by trace type: WebGL lines have no splines, polar-like ones only straight or smooth. */
export const LINE_SHAPES_BY_TYPE: Record<string, Option[]> = {
  scatter: LINE_SHAPES,
  scattergl: LINE_SHAPES.filter((o) => o.value !== 'spline'),
  scattercarpet: LINE_SHAPES.slice(0, 2),
  scatterpolar: LINE_SHAPES.slice(0, 2),
  scattersmith: LINE_SHAPES.slice(0, 2),
  scatterternary: LINE_SHAPES.slice(0, 2),
};

export const SCATTER_MODES: Option[] = [
  { label: 'Lines', value: 'lines' },
  { label: 'Markers', value: 'markers' },
  { label: 'Lines and markers', value: 'lines+markers' },
  { label: 'Markers and text', value: 'markers+text' },
];

/** Fills by trace type: polar, ternary, map and geo traces only fill shapes, cartesian ones to an axis too. */
const FILLS_XY: Option[] = [
  { label: 'None', value: 'none' },
  { label: 'Area down to zero', value: 'tozeroy' },
  { label: 'Area to the next trace', value: 'tonexty' },
  { label: 'Closed shape', value: 'toself' },
];
const FILLS_SHAPE: Option[] = [
  { label: 'None', value: 'none' },
  { label: 'Closed shape', value: 'toself' },
];
export const FILLS: Record<string, Option[]> = {
  scatter: FILLS_XY,
  scattergl: FILLS_XY,
  scattercarpet: FILLS_SHAPE,
  scatterpolar: FILLS_SHAPE,
  scatterpolargl: FILLS_SHAPE,
  scatterternary: FILLS_SHAPE,
  scattersmith: FILLS_SHAPE,
  scattergeo: FILLS_SHAPE,
  scattermap: FILLS_SHAPE,
};

/** Traces drawn as points and lines (mode, line, marker). */
export const SCATTER_TYPES = [
  'scatter',
  'scattergl',
  'scatter3d',
  'scattercarpet',
  'scattergeo',
  'scattermap',
  'scatterpolar',
  'scatterpolargl',
  'scattersmith',
  'scatterternary',
];
/** Traces whose line has a dash style (scattermap's lines are drawn by the map and have none). */
export const DASHED_TYPES = SCATTER_TYPES.filter((t) => t !== 'scattermap');
/** Traces with plotly's full marker symbol set (3D has its own few, maps use icons). */
export const SYMBOL_TYPES = SCATTER_TYPES.filter((t) => t !== 'scattermap');

/** Traces drawn as bars: one colour (marker.color). */
export const BAR_TYPES = ['bar', 'barpolar', 'histogram', 'funnel'];
/** How bars of several traces share a place (layout.barmode, for bar and histogram traces); plotly groups them. */
export const BAR_MODE_TYPES = ['bar', 'histogram'];
export const BAR_MODES: Option[] = [
  { label: 'Grouped side by side', value: 'group' },
  { label: 'Stacked', value: 'stack' },
  { label: 'Stacked, negatives below zero', value: 'relative' },
  { label: 'Overlaid', value: 'overlay' },
];
/** Box-like traces: one colour (marker.color, which the box outline follows) and which points to show. */
export const BOX_TYPES = ['box', 'violin'];
/** Financial traces: a colour for rising and one for falling. */
export const FINANCE_TYPES = ['candlestick', 'ohlc'];

/** plotly.js's named colour scales (a trace may also hold its own list of stops, which is kept). */
export const COLORSCALES: Option[] = [
  'Viridis',
  'Cividis',
  'Blues',
  'Greens',
  'Greys',
  'Reds',
  'YlOrRd',
  'YlGnBu',
  'RdBu',
  'Bluered',
  'Portland',
  'Picnic',
  'Jet',
  'Hot',
  'Blackbody',
  'Earth',
  'Electric',
  'Rainbow',
].map((name) => ({ label: name, value: name }));

/** Which points a box or violin draws beside it; plotly's default is the outliers. */
export const BOX_POINTS: Option<string | false>[] = [
  { label: 'All points', value: 'all' },
  { label: 'Outliers', value: 'outliers' },
  { label: 'Suspected outliers', value: 'suspectedoutliers' },
  { label: 'None', value: false },
];

export interface Palette extends Option<string[]> {
  key: string;
}

/** Palettes for layout.colorway (and pies' layout.piecolorway): well-known qualitative and sequential sets. */
export const PALETTES: Palette[] = [
  {
    key: 'plotly',
    label: 'Plotly',
    value: ['#636efa', '#ef553b', '#00cc96', '#ab63fa', '#ffa15a', '#19d3f3', '#ff6692', '#b6e880', '#ff97ff', '#fecb52'],
  },
  {
    key: 'd3',
    label: 'D3 Category10',
    value: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'],
  },
  {
    key: 'tableau',
    label: 'Tableau 10',
    value: ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'],
  },
  {
    key: 'okabe-ito',
    label: 'Okabe-Ito (colour-blind safe)',
    value: ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#0072b2', '#d55e00', '#cc79a7', '#000000'],
  },
  { key: 'viridis', label: 'Viridis (sequence)', value: ['#440154', '#46327e', '#365c8d', '#277f8e', '#1fa187', '#4ac16d', '#a0da39', '#fde725'] },
  { key: 'greys', label: 'Greys', value: ['#252525', '#525252', '#737373', '#969696', '#bdbdbd', '#d9d9d9'] },
];

/** The palettes as a select's options. */
export const PALETTE_OPTIONS: Option<string[]>[] = PALETTES.map(({ label, value }) => ({ label, value }));

/** plotly.js's own colours where a figure sets none: what a colour field shows until one is chosen. */
export const PLOTLY_DEFAULTS = {
  colorway: PALETTES.find((p) => p.key === 'd3')!.value,
  background: '#fff',
  font: '#444',
  increasing: '#3D9970',
  decreasing: '#FF4136',
} as const;

/** Font stacks of fonts already on the reader's machine: nothing is fetched to draw a chart. */
export const FONT_FAMILIES: Option[] = [
  { label: 'System sans-serif', value: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif' },
  { label: 'Helvetica / Arial', value: '"Helvetica Neue", Helvetica, Arial, sans-serif' },
  { label: 'Verdana', value: 'Verdana, Geneva, sans-serif' },
  { label: 'Georgia (serif)', value: 'Georgia, "Times New Roman", serif' },
  { label: 'Times (serif)', value: '"Times New Roman", Times, serif' },
  { label: 'Monospace', value: 'ui-monospace, Menlo, Consolas, "Courier New", monospace' },
];

/** Where the legend sits: the attributes each preset sets (others of LEGEND_POSITION_KEYS removed). */
export const LEGEND_POSITION_KEYS = ['orientation', 'x', 'y', 'xanchor', 'yanchor'] as const;
export const LEGEND_PRESETS: (Option & { set: Record<string, string | number> })[] = [
  { label: 'Right (default)', value: 'right', set: {} },
  { label: 'Top', value: 'top', set: { orientation: 'h', x: 0, y: 1.02, xanchor: 'left', yanchor: 'bottom' } },
  { label: 'Bottom', value: 'bottom', set: { orientation: 'h', x: 0, y: -0.15, xanchor: 'left', yanchor: 'top' } },
  { label: 'Inside, top right', value: 'inside-right', set: { x: 0.99, y: 0.99, xanchor: 'right', yanchor: 'top' } },
  { label: 'Inside, top left', value: 'inside-left', set: { x: 0.01, y: 0.99, xanchor: 'left', yanchor: 'top' } },
];

/** Bounds of the number fields: plotly's own minimums, and the image side limits of docs/limits.md. */
export const BOUNDS = {
  /** layout.width/height: what an image export draws (lib/render/renderer.ts MIN_SIDE..MAX_SIDE). */
  side: { min: 50, max: 4096 },
  margin: { min: 0, max: 1000 },
  fontSize: { min: 1, max: 200 },
  lineWidth: { min: 0, max: 100 },
  markerSize: { min: 0, max: 200 },
  opacity: { min: 0, max: 1 },
  hole: { min: 0, max: 0.95 },
  /** layout.bargap: a fraction of each bar's place. */
  fraction: { min: 0, max: 1 },
} as const;

/** The annotations a figure draws (the draw guard's budget, docs/limits.md). */
export const MAX_ANNOTATIONS = DRAW_LIMITS.annotations;
