// The draw guard's counting, pure: the ticks plotly.js steps through for every axis type, tickmode
// and dtick form, an axis held to its share of the budget, and whole figures held to it on what
// their own text says (what needs drawn facts is left to tests/lib/draw-guard.test.ts, in Chromium).
import { describe, expect, it } from 'vitest';
import { budgetFigure, cleanDtick, dateMs, DRAW_LIMITS, linearCount, settlePart, type AxisFacts } from '@/lib/shared/figures/draw-guard';

const utc = (y: number, m = 1, d = 1, h = 0, min = 0, s = 0, ms = 0) => {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  t.setUTCHours(h, min, s, ms);
  return t.getTime();
};
const f8 = (values: number[]) => ({ dtype: 'f8', bdata: Buffer.from(new Float64Array(values).buffer).toString('base64') });
function range(n: number): number[];
function range<T>(n: number, f: (i: number) => T): T[];
function range(n: number, f: (i: number) => unknown = (i) => i): unknown[] {
  return Array.from({ length: n }, (_, i) => f(i));
}
type Fig = { data: Record<string, unknown>[]; layout?: Record<string, unknown>; frames?: Record<string, unknown>[] };
const budget = (figure: Fig, overflow: 'cut' | 'refuse' = 'cut') => budgetFigure(figure, overflow);
const axisOf = (figure: Fig, key = 'xaxis') => figure.layout![key] as Record<string, unknown>;

describe('linearCount: the ticks of tickmode linear, as plotly.js steps through them', () => {
  it.each([
    ['linear', 1, [0, 10], undefined, 11],
    ['linear', '0.5', [0, 10], undefined, 21],
    ['linear', 2, [10, 0], undefined, 6],
    // dticks plotly does not take on a linear axis become its default, 1
    ['linear', 'L1', [0, 10], undefined, 11],
    ['linear', 'M1', [0, 1e7], undefined, 1e7 + 1],
    ['linear', 0, [0, 10], undefined, 11],
    ['linear', -3, [0, 10], undefined, 11],
    ['linear', undefined, [0, 10], undefined, 11],
    ['linear', 'Infinity', [0, 10], undefined, 11],
    // log: a number steps in decades; L<f> every f in values; D1 every digit, D2 1, 2, 5
    ['log', 1, [0, 6], undefined, 7],
    ['log', 'L5', [0, 2], undefined, 20],
    ['log', 'D1', [-300, 300], undefined, 5401],
    ['log', 'D2', [0, 2], undefined, 7],
    ['log', 'D3', [0, 6], undefined, 7],
    ['log', 'M2', [0, 6], undefined, 7],
    // date: numbers are ms (at least 0.1), M<n> every n months, anything else a day
    ['date', 'M12', [utc(2000), utc(2010)], undefined, 11],
    ['date', 864e5, [utc(2000), utc(2000, 1, 11)], undefined, 11],
    ['date', undefined, [utc(2000), utc(2000, 1, 11)], undefined, 11],
    ['date', 'M1.5', [utc(2000), utc(2000, 1, 11)], undefined, 11],
    ['date', 'L1', [utc(2000), utc(2000, 1, 11)], undefined, 11],
    ['date', 0.01, [0, 10], undefined, 101],
    // category: whole steps of at least one, never past the last category
    ['category', 0.2, [0, 10], undefined, 11],
    ['category', 2.6, [0, 30], undefined, 11],
    ['category', 1, [-0.5, 1e6], 50, 51],
    ['multicategory', 1, [0, 10], undefined, 11],
  ] as const)('%s, dtick %j over %j (%s categories): %d', (type, dtick, r, categories, expected) => {
    expect(linearCount(dtick, type, [r[0], r[1]], categories)).toBe(expected);
  });

  it.each([
    // the issue's: a log axis every 1e-6 over 1..1e6, a date axis every ms over 60 years, months over years 1-9999
    ['log', 'L1e-6', [0, 6], 9e11],
    ['date', 1, [utc(1960), utc(2020)], 1.8e12],
    ['date', 'M1', [utc(1), utc(9999, 12, 31)], 119_000],
    ['log', 'L1e-300', [0, 300], 1e300],
    ['linear', 1e-9, [0, 3], 3e9],
  ] as const)('%s, dtick %j over %j: over %d', (type, dtick, r, atLeast) => {
    expect(linearCount(dtick, type, [r[0], r[1]])).toBeGreaterThan(atLeast);
  });

  it('cleans dticks as plotly does', () => {
    expect(cleanDtick('D1', 'log')).toBe('D1');
    expect(cleanDtick('D1', 'linear')).toBe(1);
    expect(cleanDtick('M3', 'date')).toBe('M3');
    expect(cleanDtick('M0', 'date')).toBe(864e5);
    expect(cleanDtick(' 5 ', 'linear')).toBe(5);
    expect(cleanDtick(0.4, 'category')).toBe(1);
  });
});

describe('dateMs: plotly date strings and ms', () => {
  it.each([
    ['2000-01-01', utc(2000)],
    ['2000-1-2', utc(2000, 1, 2)],
    ['0001-01-01', utc(1)],
    ['9999-12-31 23:59:59.5', utc(9999, 12, 31, 23, 59, 59, 500)],
    ['2000-01-01T12:30Z', utc(2000, 1, 1, 12, 30)],
    ['-0100-06-15', utc(-100, 6, 15)],
    ['2024', utc(2024)],
    [1234.5, 1234.5],
  ] as const)('%j', (text, ms) => expect(dateMs(text)).toBe(ms));
  it.each([['soon'], ['20-01-01'], [{}], [Number.NaN], [null]])('%j is not a date', (v) => expect(dateMs(v)).toBeUndefined());
});

describe('settlePart: one axis (or its minor ticks) held to its limit', () => {
  const LINEAR: AxisFacts = { type: 'linear', range: [0, 4], toLinear: (v) => (typeof v === 'number' ? v : undefined) };

  it.each<[string, Record<string, unknown>, AxisFacts, number | undefined, Record<string, unknown>]>([
    ['a log axis every L1e-6 over 1..1e6: plotly picks', { type: 'log', dtick: 'L1e-6' }, { type: 'log', range: [0, 6] }, 10, { type: 'log' }],
    ['D1 over 600 decades: plotly picks', { dtick: 'D1', tickmode: 'linear' }, { type: 'log', range: [-300, 300] }, 10, {}],
    ['M1 over years 1-9999: plotly picks', { dtick: 'M1' }, { type: 'date', range: [utc(1), utc(9999, 12, 31)] }, 10, {}],
    ['1 ms over decades: plotly picks', { dtick: 1 }, { type: 'date', range: [utc(1960), utc(2020)] }, 10, {}],
    ['tickmode linear with no dtick over 0..1e7: plotly picks', { tickmode: 'linear' }, { type: 'linear', range: [0, 1e7] }, 10, {}],
    ['a sensible dtick is kept', { dtick: 0.1, tick0: 0 }, { type: 'linear', range: [0, 2] }, 21, { dtick: 0.1, tick0: 0 }],
    ['M12 over a decade is kept', { dtick: 'M12' }, { type: 'date', range: [utc(2000), utc(2010)] }, 11, { dtick: 'M12' }],
    ['nticks is clamped', { nticks: 1e9 }, { type: 'linear' }, 200, { nticks: 200 }],
    ['a small nticks is kept', { nticks: 7 }, {}, 7, { nticks: 7 }],
    ['tickmode array with no tickvals is auto', { tickmode: 'array', nticks: 1e6 }, {}, 200, { tickmode: 'array', nticks: 200 }],
    [
      'texts past the values are trimmed',
      { tickvals: [1, 2], ticktext: ['a', 'b', ...range(1e5, String)] },
      LINEAR,
      2,
      { tickvals: [1, 2], ticktext: ['a', 'b'] },
    ],
    ['a dtick on a category axis waits for its categories', { dtick: 1 }, { type: 'category', range: [-0.5, 1e6] }, undefined, { dtick: 1 }],
    ['... which may end it soon enough', { dtick: 1 }, { type: 'category', range: [-0.5, 1e6], categories: 40 }, 41, { dtick: 1 }],
    ['... or not', { dtick: 1 }, { type: 'category', range: [-0.5, 1e6], categories: 4000 }, 10, {}],
    ['an unknown range waits for the measuring draw', { dtick: 1e-9 }, { type: 'linear' }, undefined, { dtick: 1e-9 }],
    ['so does an unknown type', { dtick: 1 }, { range: [0, 1e6] }, undefined, { dtick: 1 }],
    ['values of an axis plotly has not typed wait too', { tickvals: range(300) }, { range: [0, 4] }, undefined, { tickvals: range(300) }],
  ])('%s', (_, part, facts, count, after) => {
    expect(settlePart(part, facts, 200, false)).toBe(count);
    expect(part).toEqual(after);
  });

  it('once measured, what is still unknown counts as too many', () => {
    const part = { dtick: 1e-9, tickmode: 'linear', tick0: 0 };
    expect(settlePart(part, { type: 'linear' }, 200, true)).toBe(10);
    expect(part).toEqual({ tick0: 0 });
    const values = { tickvals: range(1000), ticktext: range(1000, (i) => `t${i}`) };
    expect(settlePart(values, {}, 200, true)).toBe(200);
    expect(values.tickvals).toEqual(range(200, (i) => i * 5));
    expect(values.ticktext).toEqual(range(200, (i) => `t${i * 5}`));
  });

  it('80,000 tickvals keep every k-th in range with its own text, at most the limit', () => {
    const part = { tickvals: range(80_000, (i) => i / 20_000), ticktext: range(80_000, (i) => `t${i}`) };
    const count = settlePart(part, LINEAR, 200, false)!;
    expect(count).toBeLessThanOrEqual(200);
    expect(count).toBeGreaterThan(150);
    expect(part.tickvals).toHaveLength(count);
    for (const [j, v] of part.tickvals.entries()) expect(part.ticktext[j]).toBe(`t${Math.round((v as number) * 20_000)}`);
  });

  it('tickvals mostly off the range keep those on it', () => {
    const part = { tickvals: range(80_000, (i) => i / 20_000), ticktext: range(80_000, (i) => `t${i}`) };
    expect(settlePart(part, { ...LINEAR, range: [1, 1.001] }, 200, false)).toBe(21);
    expect(part.tickvals).toEqual(range(21, (i) => (20_000 + i) / 20_000));
    expect(part.ticktext[0]).toBe('t20000');
  });

  it('typed-array tickvals are decoded and thinned; a short text list stays aligned', () => {
    const part: Record<string, unknown> = { tickvals: f8(range(80_000, (i) => i / 20_000)), ticktext: ['zero', 'one'] };
    const count = settlePart(part, LINEAR, 200, false)!;
    expect(count).toBeLessThanOrEqual(200);
    expect(Array.isArray(part.tickvals)).toBe(true);
    expect((part.tickvals as number[])[0]).toBe(0);
    expect(part.ticktext).toEqual(['zero']);
  });

  it('log and date tickvals are read in their axis units', () => {
    const log = { tickvals: range(1000, (i) => 10 ** (i / 100)) };
    expect(settlePart(log, { type: 'log', range: [0, 1], toLinear: (v) => Math.log10(v as number) }, 200, false)).toBe(101);
    const dates = { tickvals: range(1000, (i) => new Date(utc(2000) + i * 864e5).toISOString().slice(0, 10)) };
    expect(settlePart(dates, { type: 'date', range: [utc(2000), utc(2000, 1, 31)], toLinear: dateMs }, 200, false)).toBe(31);
  });

  it('a zero limit leaves plotly its own ticks', () => {
    const part = { tickvals: range(10), ticktext: range(10, String), tickmode: 'array', nticks: 50 };
    expect(settlePart(part, LINEAR, 0, true)).toBe(10);
    expect(part).toEqual({});
  });

  it('minor ticks: a tiny dtick is dropped, then split major intervals within the limit', () => {
    const minor = { dtick: 1e-7, showgrid: true };
    expect(settlePart(minor, { type: 'linear', range: [0, 10] }, 1000, false, 11)).toBe(55);
    expect(minor).toEqual({ showgrid: true });
    const many = { nticks: 1e6 };
    expect(settlePart(many, { type: 'linear' }, 1000, false, 200)).toBe(1000);
    expect(many).toEqual({ nticks: 5 });
    expect(settlePart({ nticks: 2 }, {}, 100, false, 200)).toBeUndefined();
    const values = { tickvals: range(50_000, (i) => i / 5000) };
    expect(settlePart(values, LINEAR, 1000, false, 10)).toBeLessThanOrEqual(1000);
  });
});

describe('budgetFigure: a figure held to the budget on its own text', () => {
  it.each<[string, Record<string, unknown>]>([
    ['log L1e-6', { type: 'log', range: [0, 6], dtick: 'L1e-6' }],
    ['date, 1 ms over 60 years', { type: 'date', range: ['1960-01-01', '2020-01-01'], dtick: 1 }],
    ['date, M1 over years 1-9999', { type: 'date', range: ['0001-01-01', '9999-12-31'], dtick: 'M1' }],
    ['log D1 over [-300, 300]', { type: 'log', range: [-300, 300], dtick: 'D1' }],
    ['linear 1e-9, tickmode linear', { type: 'linear', range: [0, 3], tickmode: 'linear', dtick: 1e-9 }],
    ['numeric string dtick', { type: 'linear', range: [0, 3], dtick: '1e-9' }],
  ])("the issue's %s: plotly picks the ticks, nothing left to measure", (_, xaxis) => {
    const figure = { data: [{ y: [1, 2] }], layout: { xaxis } };
    const { copy, pending } = budget(figure);
    expect(pending).toEqual([]);
    expect(axisOf(copy).dtick).toBeUndefined();
    expect(axisOf(copy).tickmode).toBeUndefined();
    expect(axisOf(figure).dtick, 'the figure itself is left as it was').toBe(xaxis.dtick);
  });

  it("the issue's 80,000 tickvals: every k-th pair", () => {
    const figure = {
      data: [{ y: [1, 2] }],
      layout: { xaxis: { type: 'linear', range: [0, 4], tickvals: range(80_000, (i) => i / 20_000), ticktext: range(80_000, (i) => `t${i}`) } },
    };
    const { copy, pending } = budget(figure);
    expect(pending).toEqual([]);
    expect((axisOf(copy).tickvals as unknown[]).length).toBeLessThanOrEqual(DRAW_LIMITS.axisTicks);
    expect((axisOf(figure).tickvals as unknown[]).length).toBe(80_000);
  });

  it('axes plotly types or ranges from the data wait for the measuring draw, their tick settings out of the copy', () => {
    const figure = {
      data: [{ x: ['1960-01-01', '2020-01-01'], y: [1, 2], marker: { color: [0, 1e6], colorbar: { dtick: 1 } } }],
      layout: {
        xaxis: { dtick: 1 },
        yaxis: { type: 'log', dtick: 'L1e-6' },
        scene: { xaxis: { tickvals: range(5000) } },
        polar: { angularaxis: { dtick: 0.001 } },
      },
    };
    const { copy, pending } = budget(figure);
    expect(pending.map((p) => p.axis.path.join('.')).sort()).toEqual([
      'data.0.marker.colorbar',
      'layout.polar.angularaxis',
      'layout.scene.xaxis',
      'layout.xaxis',
      'layout.yaxis',
    ]);
    expect(axisOf(copy)).toEqual({});
    expect(axisOf(copy, 'yaxis')).toEqual({ type: 'log' });
    expect(pending.find((p) => p.axis.path.join('.') === 'layout.xaxis')!.kept[0]).toEqual({ dtick: 1 });
  });

  it('every kind of axis with its range in the figure is settled on its own text', () => {
    const figure = {
      data: [
        { type: 'heatmap', z: [[0, 1]], zmin: 0, zmax: 1e6, colorbar: { dtick: 1 } },
        { type: 'scatter', y: [1], marker: { color: [1], cmin: 0, cmax: 1, colorbar: { dtick: 1e-7, minor: { dtick: 1e-9, showgrid: true } } } },
        { type: 'indicator', gauge: { axis: { range: [0, 1e9], dtick: 1 } } },
        { type: 'carpet', a: range(50), b: [1, 2], aaxis: { tickmode: 'linear', dtick: 1e-6, minorgridcount: 1e6 }, baxis: { minorgridcount: 3 } },
      ],
      layout: {
        ternary: { sum: 100, aaxis: { dtick: 1e-6 }, baxis: { dtick: 10 } },
        polar: { angularaxis: { type: 'linear', dtick: 0.001 }, radialaxis: { type: 'linear', range: [0, 1e6], dtick: 1 } },
        scene: { zaxis: { type: 'linear', range: [0, 1], nticks: 1e9, tickvals: f8(range(10_000, (i) => i / 10_000)) } },
        smith: { realaxis: { tickvals: range(1000) } },
        coloraxis: { cmin: 0, cmax: 10, colorbar: { dtick: 1 } },
      },
    };
    const { copy, pending } = budget(figure);
    // Smith axes have no range plotly would give: judged once measured.
    expect(pending.map((p) => p.axis.path.join('.'))).toEqual(['layout.smith.realaxis']);
    const [heatmap, scatter, gauge, carpet] = copy.data as Record<string, Record<string, Record<string, unknown>>>[];
    expect(heatmap.colorbar.dtick).toBeUndefined();
    expect(scatter.marker.colorbar.dtick).toBeUndefined();
    expect(scatter.marker.colorbar.minor).toEqual({ showgrid: true });
    expect(gauge.gauge.axis.dtick).toBeUndefined();
    expect(carpet.aaxis.tickmode).toBeUndefined();
    expect(Number(carpet.aaxis.minorgridcount) * 50).toBeLessThanOrEqual(DRAW_LIMITS.axisMinorTicks);
    expect(carpet.baxis.minorgridcount).toBe(3);
    const layout = copy.layout as Record<string, Record<string, Record<string, unknown>>>;
    expect(layout.ternary.aaxis.dtick).toBeUndefined();
    expect(layout.ternary.baxis.dtick).toBe(10);
    expect(layout.polar.angularaxis.dtick).toBeUndefined();
    expect(layout.polar.radialaxis.dtick).toBeUndefined();
    expect(layout.scene.zaxis.nticks).toBeLessThanOrEqual(DRAW_LIMITS.axisTicks);
    expect((layout.scene.zaxis.tickvals as unknown as unknown[]).length).toBeLessThanOrEqual(DRAW_LIMITS.axisTicks);
    expect(layout.coloraxis.colorbar.dtick).toBe(1);
  });

  it('axes that set their own ticks share the figure budget', () => {
    // 60 ticks each: three axes fit, ten do not (each gets a tenth of the figure's ticks).
    const axes = (n: number) => Object.fromEntries(range(n, (i) => [`yaxis${i + 1}`, { type: 'linear', range: [0, 59], dtick: 1 }]));
    const few = budget({ data: [{ y: [1] }], layout: axes(3) }).copy;
    expect(axisOf(few, 'yaxis3').dtick).toBe(1);
    const many = budget({ data: [{ y: [1] }], layout: axes(10) }).copy;
    expect(axisOf(many, 'yaxis3').dtick).toBeUndefined();
    expect(DRAW_LIMITS.figureTicks / 10).toBeLessThan(60);
  });

  it("a frame's axes are held to the same limit without taking from the figure's share", () => {
    const figure = {
      data: [{ y: [1] }],
      layout: { xaxis: { type: 'linear', range: [0, 80], dtick: 1 } },
      frames: range(50, (i) => ({ name: `f${i}`, layout: { xaxis: { type: 'linear', range: [0, 80 + i * 1e6], dtick: 1 } } })),
    };
    const { copy } = budget(figure);
    expect(axisOf(copy).dtick).toBe(1);
    const frames = copy.frames as { layout: Record<string, Record<string, unknown>> }[];
    expect(frames[0].layout.xaxis.dtick).toBe(1);
    expect(frames[1].layout.xaxis.dtick).toBeUndefined();
  });

  const many = (n: number, f: (i: number) => Record<string, unknown>) => range(n, f) as Record<string, unknown>[];
  it.each([
    ['annotations', { annotations: many(20_000, (i) => ({ x: i, y: i, text: `a${i}` })) }, 'annotations', '20,000 annotations'],
    [
      'annotations in a scene and the template add up',
      {
        annotations: many(400, () => ({})),
        scene: { annotations: many(100, () => ({})) },
        template: { layout: { annotations: many(50, () => ({ name: 'n' })) } },
      },
      'annotations',
      '550 annotations',
    ],
    ['shapes', { shapes: many(5000, () => ({ type: 'line' })) }, 'shapes', '5,000 shapes'],
    ['images', { images: many(5000, () => ({ source: 'data:,' })) }, 'images', '5,000 images'],
    ['selections', { selections: many(5000, () => ({})) }, 'selections', '5,000 selections'],
    [
      'slider steps across sliders',
      { sliders: [{ steps: many(200, () => ({ label: 's' })) }, { steps: many(200, () => ({ label: 't' })) }] },
      'steps',
      '400 slider steps',
    ],
    [
      'menu and range-selector buttons',
      { updatemenus: [{ buttons: many(250, () => ({ label: 'b' })) }], xaxis: { rangeselector: { buttons: many(100, () => ({ step: 'day' })) } } },
      'buttons',
      '350 menu buttons',
    ],
  ] as const)('%s: pages draw the first ones, exports are refused at once', (_, layout, item, says) => {
    const figure = { data: [{ y: [1] }], layout };
    const cut = budget(figure).copy;
    const counts = JSON.stringify(cut.layout).match(new RegExp(`"${item}":\\[`, 'g'))?.length ?? 0;
    expect(counts).toBeGreaterThan(0);
    const total = (node: unknown): number =>
      Array.isArray(node)
        ? node.reduce((s: number, x) => s + total(x), 0)
        : node && typeof node === 'object'
          ? Object.entries(node).reduce((s, [k, v]) => s + (k === item && Array.isArray(v) ? v.length : 0) + total(v), 0)
          : 0;
    expect(total(cut.layout)).toBe(DRAW_LIMITS[item]);
    expect(() => budget(figure, 'refuse')).toThrow(`the figure has ${says}, more than the ${DRAW_LIMITS[item].toLocaleString('en-US')} a figure may draw`);
  });

  it('frames: pages keep the first ones, each frame its own items; exports over the limit are refused', () => {
    const frames = range(5000, (i) => ({ name: `f${i}`, layout: { annotations: many(600, () => ({ text: 'x' })) } }));
    const { copy } = budget({ data: [{ y: [1] }], frames });
    expect(copy.frames).toHaveLength(DRAW_LIMITS.frames);
    expect((copy.frames![0] as { layout: { annotations: unknown[] } }).layout.annotations.length).toBe(DRAW_LIMITS.annotations);
    expect(() => budget({ data: [{ y: [1] }], frames }, 'refuse')).toThrow('the figure has 5,000 frames');
  });

  it('more subplots than the budget: refused everywhere', () => {
    const traces = (n: number) => range(n, (i) => ({ y: [1, 2], xaxis: `x${i + 1}`, yaxis: `y${i + 1}` })) as Record<string, unknown>[];
    expect(() => budget({ data: traces(DRAW_LIMITS.subplots) })).not.toThrow();
    expect(() => budget({ data: traces(DRAW_LIMITS.subplots + 1) })).toThrow(`the figure has 101 subplots`);
    expect(() => budget({ data: traces(DRAW_LIMITS.subplots + 1) }, 'refuse')).toThrow('subplots');
    const polar = range(DRAW_LIMITS.subplots + 1, (i) => ({ type: 'scatterpolar', subplot: `polar${i + 1}` })) as Record<string, unknown>[];
    expect(() => budget({ data: polar })).toThrow('subplots');
    // Traces sharing axes are one subplot.
    expect(() => budget({ data: range(1000, () => ({ y: [1] })) as Record<string, unknown>[] })).not.toThrow();
  });

  it('a template carries ticks like any layout', () => {
    const { copy } = budget({
      data: [{ y: [1] }],
      layout: { template: { layout: { xaxis: { type: 'linear', range: [0, 1], dtick: 1e-9, minor: { dtick: 1e-12, ticks: 'outside' } } } } },
    });
    const xaxis = ((copy.layout!.template as Record<string, Record<string, unknown>>).layout as Record<string, Record<string, unknown>>).xaxis;
    expect(xaxis.dtick).toBeUndefined();
    expect(xaxis.minor).toEqual({ ticks: 'outside' });
  });

  it('data columns are shared, not copied', () => {
    const y = range(1000);
    const { copy } = budget({ data: [{ y }] });
    expect(copy.data[0].y).toBe(y);
  });
});
