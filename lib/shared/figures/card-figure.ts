// A figure as a plot card shows it: a box of about 300x220 CSS pixels where a figure laid out for a
// page comes out clipped or cramped (tick labels cut, menus over the plot, a legend over the data).
// The card drops what cannot fit (title, which the card shows as text; legend; menus; sliders;
// range sliders and selectors; colour bars; frames; annotations but a few short ones that stay
// inside), keeps margins just wide enough for the tick labels (automargin, pies' outside labels
// too) and draws smaller text and fewer ticks on every kind of axis. The renderer draws the stored
// card image with it and the card's live chart draws the same, so the two match.
//
// `cardFigure` runs in the browser and in the renderer's page, where it is injected as text
// (`cardFigureScript`): it must refer to nothing outside itself, so plotly's x/y trace types are handed in.
import { XY_TRACE_TYPES } from './trace-facts.generated';

/** The card's box in CSS pixels; its image is drawn at CARD_SCALE for sharp high-density screens. */
export const CARD_SIZE = [300, 220] as const;
export const CARD_SCALE = 2;

export interface CardFigureInput {
  data?: unknown;
  layout?: unknown;
}

export interface CardFigure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}

/** The card's figure for a box of `width` x `height`. */
export const cardFigure = (figure: CardFigureInput, width: number, height: number): CardFigure => cardFigureWith(XY_TRACE_TYPES, figure, width, height);

/** cardFigure, told which trace types are drawn on x and y axes. */
function cardFigureWith(xyTypes: readonly string[], figure: CardFigureInput, width: number, height: number): CardFigure {
  // Annotations a card keeps: a few, short, placed on the plot (paper ones outside it sit in margins the card does not have).
  const MAX_ANNOTATIONS = 3;
  const MAX_ANNOTATION_CHARS = 16;
  const FONT_SIZE = 10;
  const TICK_FONT_SIZE = 9;
  const MAX_TICKS = 5;
  const MARGIN = 6;

  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const plain = (v: unknown) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '') : typeof v === 'number' ? String(v) : '');
  const smaller = (font: unknown, size: number) => {
    const f = isObject(font) ? font : {};
    return { ...f, size: typeof f.size === 'number' ? Math.min(f.size, size) : size };
  };
  // An annotation on the paper stays if it is inside and its text does not reach out of the plot:
  // anchored at an edge and drawn outwards, it would sit in the margin the card does not have.
  // (Without a reference it is on the first axes, or on the paper when there are none.)
  const OUTWARD: Record<string, [string, string]> = { x: ['right', 'left'], y: ['top', 'bottom'] };
  const inPaper = (a: Record<string, unknown>, letter: 'x' | 'y', onPaper: boolean) => {
    const ref = a[`${letter}ref`] ?? (onPaper ? 'paper' : letter);
    if (ref !== 'paper') return true;
    const v = a[letter] ?? 0.5;
    if (typeof v !== 'number' || v < 0 || v > 1) return false;
    // With its arrow (plotly's default) the text sits above the point it marks.
    const anchor = letter === 'y' && a.showarrow !== false ? 'bottom' : a[`${letter}anchor`];
    const [low, high] = OUTWARD[letter];
    if (v > 0.9 && (anchor === high || anchor === 'middle' || anchor === 'center')) return false;
    return !(v < 0.1 && (anchor === low || anchor === 'middle' || anchor === 'center'));
  };

  // A 2D or 3D axis: its margin grown to fit its labels, its text smaller, its automatic ticks fewer.
  const axis = (a: unknown, letter = '') => {
    const ax: Record<string, unknown> = {
      ...(isObject(a) ? a : {}),
      automargin: true,
      tickfont: smaller(isObject(a) ? a.tickfont : undefined, TICK_FONT_SIZE),
    };
    fewerTicks(ax);
    const title = ax.title;
    if (isObject(title)) ax.title = { ...title, font: smaller(title.font, FONT_SIZE), standoff: 4 };
    // A range slider is a strip of the chart again under it, its selector buttons over it: a card has room for neither.
    // (A candlestick's or OHLC's x axis shows a range slider unless told not to.)
    if (letter === 'x') ax.rangeslider = { ...(isObject(ax.rangeslider) ? ax.rangeslider : {}), visible: false };
    if (isObject(ax.rangeselector)) ax.rangeselector = { ...ax.rangeselector, visible: false };
    return ax;
  };
  function fewerTicks(ax: Record<string, unknown>) {
    const auto = ax.tickmode === undefined || ax.tickmode === 'auto';
    if (auto && ax.dtick === undefined) ax.nticks = typeof ax.nticks === 'number' && ax.nticks > 0 ? Math.min(ax.nticks, MAX_TICKS) : MAX_TICKS;
  }
  // Polar, ternary and smith axes: smaller labels, fewer ticks (their subplots have no margins to grow).
  const roundAxis = (a: unknown) => {
    const ax: Record<string, unknown> = { ...(isObject(a) ? a : {}), tickfont: smaller(isObject(a) ? a.tickfont : undefined, TICK_FONT_SIZE) };
    fewerTicks(ax);
    return ax;
  };
  const ROUND_AXES: [RegExp, string[]][] = [
    [/^polar\d*$/, ['radialaxis', 'angularaxis']],
    [/^ternary\d*$/, ['aaxis', 'baxis', 'caxis']],
    [/^smith\d*$/, ['realaxis', 'imaginaryaxis']],
  ];

  const source = isObject(figure.layout) ? figure.layout : {};
  const layout: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (/^[xy]axis\d*$/.test(key)) layout[key] = axis(value, key[0]);
    else if (/^scene\d*$/.test(key) && isObject(value))
      layout[key] = { ...value, xaxis: axis(value.xaxis), yaxis: axis(value.yaxis), zaxis: axis(value.zaxis) };
    else if (/^coloraxis\d*$/.test(key) && isObject(value)) layout[key] = { ...value, showscale: false };
    else {
      const round = isObject(value) && ROUND_AXES.find(([re]) => re.test(key));
      layout[key] = round ? { ...value, ...Object.fromEntries(round[1].map((k) => [k, roundAxis(value[k])])) } : value;
    }
  }
  // Axes the layout leaves out get their defaults, margins not grown among them: they are added.
  const addAxis = (letter: 'x' | 'y', ref: unknown) => {
    const id: string = typeof ref === 'string' && new RegExp(`^${letter}\\d*$`).test(ref) ? ref : letter;
    const key = `${letter}axis${id.slice(1)}`;
    if (!(key in layout)) layout[key] = axis(undefined, letter);
  };
  for (const t of Array.isArray(figure.data) ? figure.data : []) {
    if (!isObject(t)) continue;
    if (t.type === 'splom') {
      // A scatter matrix makes an x and a y axis per dimension (x, x2, ...) unless it names them.
      const n = Array.isArray(t.dimensions) ? t.dimensions.length : 0;
      for (const letter of ['x', 'y'] as const) {
        const named = t[`${letter}axes`];
        const refs = Array.isArray(named) ? named : Array.from({ length: n }, (_, i) => (i === 0 ? letter : `${letter}${i + 1}`));
        for (const ref of refs) addAxis(letter, ref);
      }
      continue;
    }
    if (t.type !== undefined && !xyTypes.includes(String(t.type))) continue;
    addAxis('x', t.xaxis);
    addAxis('y', t.yaxis);
  }
  const onPaper = !Object.keys(layout).some((k) => /^[xy]axis\d*$/.test(k));
  const annotations = Array.isArray(source.annotations)
    ? source.annotations
        .filter(
          (a: unknown) =>
            isObject(a) && a.visible !== false && plain(a.text).length <= MAX_ANNOTATION_CHARS && inPaper(a, 'x', onPaper) && inPaper(a, 'y', onPaper),
        )
        .slice(0, MAX_ANNOTATIONS)
        .map((a: Record<string, unknown>) => ({ ...a, font: smaller(a.font, TICK_FONT_SIZE) }))
    : [];
  Object.assign(layout, {
    width,
    height,
    autosize: false,
    title: { text: '' },
    showlegend: false,
    updatemenus: [],
    sliders: [],
    annotations,
    font: smaller(source.font, FONT_SIZE),
    margin: { l: MARGIN, r: MARGIN, t: MARGIN, b: MARGIN, pad: 0, autoexpand: true },
    // A card is looked at, not worked in: no zooming or panning by dragging.
    dragmode: false,
  });

  // Colour bars take a quarter of a card's width: the colours stay, the scale goes.
  const data = (Array.isArray(figure.data) ? figure.data : []).map((t: unknown) => {
    if (!isObject(t)) return {};
    // Attributes a trace type does not have are ignored by plotly, so every trace is told the same.
    const trace: Record<string, unknown> = { ...t, showscale: false };
    if (isObject(trace.marker)) trace.marker = { ...trace.marker, showscale: false };
    // Text on the data at most the card's size; a pie's outside labels get room (its own automargin).
    for (const key of ['textfont', 'insidetextfont', 'outsidetextfont']) if (key in trace) trace[key] = smaller(trace[key], FONT_SIZE);
    if (trace.type === 'pie') trace.automargin = true;
    if (isObject(trace.title)) trace.title = { ...trace.title, font: smaller(trace.title.font, FONT_SIZE) };
    return trace;
  });
  return { data, layout };
}

/** `cardFigure` as a script for the renderer's page: `window.__cardFigure`. */
export const cardFigureScript = () =>
  [
    'var __name = __name || function (fn) { return fn; };',
    `window.__cardFigure = (function (withTypes, xyTypes) { return function (figure, width, height) { return withTypes(xyTypes, figure, width, height); }; })(${cardFigureWith.toString()}, ${JSON.stringify(XY_TRACE_TYPES)});`,
  ].join('\n');
