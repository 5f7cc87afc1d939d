// Hostile figures, their data inlined as an export sends them: the classes of layout that make
// plotly.js labour for 10 s to minutes (the issue's own payloads first), held to the drawing budget
// by lib/shared/figures/draw-guard.ts. Drawn by tests/lib/draw-guard.test.ts (a page, the renderer) and
// exported over HTTP by tests/hardening/draw-guard-budget.test.ts.
export type Figure = { data: Record<string, unknown>[]; layout?: Record<string, unknown> };
export const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
export const line = (x: unknown[], y: unknown[] = x.map((_, i) => i)) => ({ type: 'scatter', mode: 'markers', x, y });
const cats = range(5000, (i) => `c${i}`);
const f8 = (values: number[]) => ({ dtype: 'f8', bdata: Buffer.from(new Float64Array(values).buffer).toString('base64') });

/** Figures asking for millions of ticks: untamed, each draws for 10 s to minutes (Chromium, plotly.js 4). */
export const TICK_FIGURES: Record<string, Figure> = {
  // The issue's own.
  'log axis every L1e-6 over 1..1e6 (59 bytes)': { data: [line([1, 1e6])], layout: { xaxis: { type: 'log', range: [0, 6], dtick: 'L1e-6' } } },
  'date axis every ms over 60 years of data': { data: [line(['1960-01-01', '2020-01-01'])], layout: { xaxis: { dtick: 1 } } },
  '80,000 tickvals with ticktext': {
    data: [line([0, 4])],
    layout: { xaxis: { tickvals: range(80_000, (i) => i / 20_000), ticktext: range(80_000, (i) => `t${i}`) } },
  },
  'M1 over years 1-9999': { data: [line(['0001-01-01', '9999-12-31'])], layout: { xaxis: { type: 'date', range: ['0001-01-01', '9999-12-31'], dtick: 'M1' } } },
  'log D1 over [-300, 300]': { data: [line([1, 10])], layout: { xaxis: { type: 'log', range: [-300, 300], dtick: 'D1' } } },
  // Others of the same classes.
  'log D1 over data spanning 1e-300..1e300': {
    data: [line([1e-300, 1e300])],
    layout: { xaxis: { type: 'log', dtick: 'D1' }, yaxis: { type: 'log', dtick: 'L1' } },
  },
  'M1 on an autoranged date axis of years 1-9999': { data: [line(['0001-01-01', '9999-12-31'])], layout: { xaxis: { dtick: 'M1' } } },
  'tickmode linear with no dtick (1 by default) over 0..1e7': {
    data: [line([0, 1e7], [0, 1e7])],
    layout: { xaxis: { tickmode: 'linear' }, yaxis: { tickmode: 'linear', tick0: 3 } },
  },
  'a dtick the axis type does not take (its default: 1)': {
    data: [line([0, 1e7])],
    layout: { xaxis: { dtick: 'M1' }, yaxis: { dtick: 'L2', range: [0, 1e7] } },
  },
  'nticks 1e9 on both axes': { data: [line([0, 1e9], [0, 1e9])], layout: { xaxis: { nticks: 1e9 }, yaxis: { nticks: 1e9 } } },
  'minor ticks every ms on a date axis, every 1e-9 on another': {
    data: [line(['1960-01-01', '2020-01-01'], [0, 1])],
    layout: { xaxis: { minor: { dtick: 1, showgrid: true, ticks: 'outside' } }, yaxis: { minor: { dtick: 1e-9, showgrid: true } } },
  },
  '200,000 minor tickvals': { data: [line([0, 1])], layout: { xaxis: { minor: { tickvals: range(200_000, (i) => i / 200_000), showgrid: true } } } },
  'typed-array tickvals (80,000 f8)': { data: [line([0, 4])], layout: { xaxis: { tickvals: f8(range(80_000, (i) => i / 20_000)) } } },
  '5,000 categories ticked every one': { data: [{ type: 'bar', x: cats, y: cats.map((_, i) => i) }], layout: { xaxis: { dtick: 1 } } },
  '5,000 categories, tickvals of them all': {
    data: [{ type: 'bar', y: cats, x: cats.map((_, i) => i), orientation: 'h' }],
    layout: { yaxis: { tickvals: cats, ticktext: cats.map((c) => `<b>${c}</b>`) } },
  },
  'multicategory ticked every one': {
    data: [{ type: 'bar', x: [range(3000, (i) => `g${i % 50}`), range(3000, (i) => `c${i}`)], y: range(3000, (i) => i) }],
    layout: { xaxis: { tickmode: 'linear', dtick: 1 } },
  },
  'colorbars every 1 over 0..1e7, and 80,000 tickvals': {
    data: [
      {
        type: 'heatmap',
        z: [
          [0, 1e7],
          [5, 9],
        ],
        colorbar: { dtick: 1, x: 1 },
      },
      { type: 'scatter', x: [0, 1], y: [0, 1], marker: { color: [0, 1], colorbar: { tickvals: range(80_000, (i) => i / 80_000), x: 1.2 } } },
      { type: 'scatter', x: [0, 1], y: [1, 0], marker: { color: [0, 1e7], coloraxis: 'coloraxis' } },
    ],
    layout: { coloraxis: { colorbar: { tickmode: 'linear', dtick: 1, x: 1.4 } } },
  },
  '3D axes every 1 over 0..1e6, and 50,000 tickvals': {
    data: [{ type: 'scatter3d', x: [0, 1e6], y: [0, 1], z: [0, 1] }],
    layout: { scene: { xaxis: { dtick: 1 }, zaxis: { tickvals: range(50_000, (i) => i / 50_000) } } },
  },
  'polar radial every 1 over 0..1e6, angular every 0.001 degree': {
    data: [{ type: 'scatterpolar', r: [0, 1e6], theta: [0, 90] }],
    layout: { polar: { radialaxis: { dtick: 1 }, angularaxis: { dtick: 0.001 } } },
  },
  'polar angular axis of 5,000 categories ticked every one': {
    data: [{ type: 'barpolar', r: cats.map((_, i) => i), theta: cats }],
    layout: { polar: { angularaxis: { dtick: 1, tickmode: 'linear' } } },
  },
  'ternary axes every 1e-6': {
    data: [{ type: 'scatterternary', a: [1, 2], b: [1, 1], c: [1, 3] }],
    layout: { ternary: { aaxis: { dtick: 1e-6 }, baxis: { dtick: 1e-6 }, caxis: { dtick: 1e-6 } } },
  },
  'gauge axis every 1 over 0..1e9': { data: [{ type: 'indicator', mode: 'gauge+number', value: 5, gauge: { axis: { range: [0, 1e9], dtick: 1 } } }] },
  'a template ticking every 1e-9': {
    data: [line([0, 3])],
    layout: { template: { layout: { xaxis: { dtick: 1e-9 }, yaxis: { tickmode: 'linear', dtick: 1e-9 } } } },
  },
  '40 axes asking 150 ticks each': {
    data: range(40, (i) => ({ ...line([0, 149], [0, 149]), yaxis: `y${i + 1}` })),
    layout: Object.fromEntries(range(40, (i) => [`yaxis${i + 1}`, { dtick: 1, ...(i ? { overlaying: 'y' } : {}) }])),
  },
};

/** Figures over a limit on repeated items: pages draw the first ones, an export is refused saying so. */
export const CROWDED_FIGURES: Record<string, { figure: Figure; says: string }> = {
  '20,000 annotations': {
    figure: {
      data: [line([0, 100], [0, 100])],
      layout: { annotations: range(20_000, (i) => ({ x: i % 100, y: (i * 7) % 100, text: `a${i}`, showarrow: true })) },
    },
    says: 'the figure has 20,000 annotations, more than the 500 a figure may draw',
  },
  '50,000 labelled shapes and 50,000 selections': {
    figure: {
      data: [line([0, 100], [0, 100])],
      layout: {
        shapes: range(50_000, (i) => ({ type: 'line', x0: i % 100, x1: (i % 100) + 1, y0: 0, y1: 5, label: { text: `s${i}` } })),
        selections: range(50_000, (i) => ({ type: 'rect', x0: i % 100, x1: (i % 100) + 1, y0: 0, y1: 5 })),
      },
    },
    says: 'the figure has 50,000 shapes',
  },
  '20,000 slider steps and 20,000 menu buttons': {
    figure: {
      data: [line([0, 1])],
      layout: {
        sliders: [{ steps: range(20_000, (i) => ({ label: `step ${i}`, method: 'restyle', args: ['visible', true] })) }],
        updatemenus: [{ type: 'buttons', buttons: range(20_000, (i) => ({ label: `b${i}`, method: 'restyle', args: ['visible', true] })) }],
      },
    },
    says: 'the figure has 20,000 slider steps',
  },
  '50,000 images': {
    figure: {
      data: [line([0, 100], [0, 100])],
      layout: {
        images: range(50_000, (i) => ({ source: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', x: i % 100, y: 50, sizex: 1, sizey: 1, xref: 'x', yref: 'y' })),
      },
    },
    says: 'the figure has 50,000 images',
  },
};

/** More subplots than the budget: drawn nowhere. */
export const SUBPLOTS_FIGURE: Figure = { data: range(101, (i) => ({ y: [1, 2], xaxis: `x${i + 1}`, yaxis: `y${i + 1}` })) };

// A sankey of tens of thousands of nodes: plotly lays it out for minutes. (It is data: what the draw
// guard, lib/shared/figures/draw-guard.ts, holds to a budget, ticks and repeated layout items, is tamed or refused at once.)
export const HANGING: Figure = {
  data: [
    {
      type: 'sankey',
      node: { label: Array.from({ length: 30_000 }, (_, i) => `n${i}`) },
      link: {
        source: Array.from({ length: 120_000 }, (_, i) => i % 29_999),
        target: Array.from({ length: 120_000 }, (_, i) => (i % 29_999) + 1),
        value: Array.from({ length: 120_000 }, () => 1),
      },
    },
  ],
};
