// A figure as a plot card shows it: a box of about 300x220 CSS pixels where a figure laid out for a
// page comes out clipped or cramped (tick labels cut, menus over the plot, a legend over the data).
// The card drops what cannot fit (title, which the card shows as text; legend; menus; sliders;
// colour bars; frames; annotations but a few short ones), keeps margins just wide enough for the
// tick labels (automargin) and draws smaller text and fewer ticks. The renderer draws the stored
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
  const inPaper = (ref: unknown, v: unknown) => ref !== 'paper' || (typeof v === 'number' && v >= 0 && v <= 1);

  // A 2D or 3D axis: its margin grown to fit its labels, its text smaller, its automatic ticks fewer.
  const axis = (a: unknown) => {
    const ax: Record<string, unknown> = {
      ...(isObject(a) ? a : {}),
      automargin: true,
      tickfont: smaller(isObject(a) ? a.tickfont : undefined, TICK_FONT_SIZE),
    };
    const auto = ax.tickmode === undefined || ax.tickmode === 'auto';
    if (auto && ax.dtick === undefined) ax.nticks = typeof ax.nticks === 'number' && ax.nticks > 0 ? Math.min(ax.nticks, MAX_TICKS) : MAX_TICKS;
    const title = ax.title;
    if (isObject(title)) ax.title = { ...title, font: smaller(title.font, FONT_SIZE), standoff: 4 };
    return ax;
  };

  const source = isObject(figure.layout) ? figure.layout : {};
  const layout: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (/^[xy]axis\d*$/.test(key)) layout[key] = axis(value);
    else if (/^scene\d*$/.test(key) && isObject(value))
      layout[key] = { ...value, xaxis: axis(value.xaxis), yaxis: axis(value.yaxis), zaxis: axis(value.zaxis) };
    else if (/^coloraxis\d*$/.test(key) && isObject(value)) layout[key] = { ...value, showscale: false };
    else layout[key] = value;
  }
  // Axes the layout leaves out get their defaults, margins not grown among them: they are added.
  for (const t of Array.isArray(figure.data) ? figure.data : []) {
    if (!isObject(t) || (t.type !== undefined && !xyTypes.includes(String(t.type)))) continue;
    for (const [letter, ref] of [
      ['x', t.xaxis],
      ['y', t.yaxis],
    ] as const) {
      const id: string = typeof ref === 'string' && new RegExp(`^${letter}\\d*$`).test(ref) ? ref : letter;
      const key = `${letter}axis${id.slice(1)}`;
      if (!(key in layout)) layout[key] = axis(undefined);
    }
  }
  const annotations = Array.isArray(source.annotations)
    ? source.annotations
        .filter(
          (a: unknown) => isObject(a) && a.visible !== false && plain(a.text).length <= MAX_ANNOTATION_CHARS && inPaper(a.xref, a.x) && inPaper(a.yref, a.y),
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
