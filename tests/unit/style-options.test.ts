// The style panels' written-out choices (components/chart-editor/style/options.ts) held to plotly.js's
// plot-schema.json, so an upgrade that renames or drops a value fails here, not silently in a chart.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AXIS_TYPES,
  BAR_MODE_TYPES,
  BAR_MODES,
  BAR_TYPES,
  BOUNDS,
  BOX_POINTS,
  BOX_TYPES,
  COLORSCALES,
  DASHED_TYPES,
  FILLS,
  FINANCE_TYPES,
  LEGEND_PRESETS,
  LINE_DASHES,
  LINE_SHAPES_BY_TYPE,
  MARKER_SYMBOLS,
  MARKER_SYMBOLS_3D,
  PLOTLY_DEFAULTS,
  SCATTER_MODES,
  SCATTER_TYPES,
  SYMBOL_TYPES,
  TICK_FORMATS,
} from '@/components/chart-editor/style/options';
import { MAX_SIDE, MIN_SIDE } from '@/lib/render/render-jobs';
import { COLORSCALE_TRACE_TYPES } from '@/lib/shared/figures/trace-facts.generated';

const schema = JSON.parse(readFileSync('node_modules/plotly.js/dist/plot-schema.json', 'utf8'));
const traces: Record<string, { attributes: Record<string, any>; layoutAttributes?: Record<string, any> }> = schema.traces;
const layout = schema.layout.layoutAttributes;

/** The schema's definition of `attr` ('marker.symbol') in trace type `type`. */
const attrOf = (type: string, attr: string): any => attr.split('.').reduce((node, key) => node?.[key], traces[type]?.attributes);
const values = (def: any): unknown[] => def?.values ?? [];

describe('the style panels offer only what plotly.js accepts', () => {
  it('axis types, for 2D and 3D axes', () => {
    for (const def of [layout.xaxis.type, layout.yaxis.type, layout.scene.xaxis.type, layout.scene.zaxis.type]) {
      expect(values(def)).toEqual(expect.arrayContaining(AXIS_TYPES.map((o) => o.value)));
    }
    expect(layout.xaxis.tickformat.valType).toBe('string');
    expect(TICK_FORMATS.length).toBeGreaterThan(0);
  });

  it.each(SCATTER_TYPES)('%s: modes, line dashes, symbols and fills', (type) => {
    const mode = attrOf(type, 'mode');
    for (const { value } of SCATTER_MODES)
      expect(
        value.split('+').every((flag) => mode.flags.includes(flag)),
        value,
      ).toBe(true);
    expect(attrOf(type, 'line.color').valType).toBe('color');
    expect(attrOf(type, 'line.width').valType).toBe('number');
    expect(attrOf(type, 'marker.color').valType).toBe('color');
    expect(attrOf(type, 'marker.size').valType).toBe('number');
    if (DASHED_TYPES.includes(type)) {
      const dash = attrOf(type, 'line.dash');
      for (const { value } of LINE_DASHES) expect(values(dash), value).toContain(value);
    } else expect(values(attrOf(type, 'line.dash'))).toEqual([]);
    if (SYMBOL_TYPES.includes(type)) {
      const symbols = values(attrOf(type, 'marker.symbol'));
      for (const { value } of type === 'scatter3d' ? MARKER_SYMBOLS_3D : MARKER_SYMBOLS) expect(symbols, value).toContain(value);
    }
    if (FILLS[type]) for (const { value } of FILLS[type]) expect(values(attrOf(type, 'fill')), value).toContain(value);
    else expect(attrOf(type, 'fill')).toBeUndefined();
  });

  it('line shapes, on the traces whose lines have them', () => {
    expect(SCATTER_TYPES.filter((t) => attrOf(t, 'line.shape')).sort()).toEqual(Object.keys(LINE_SHAPES_BY_TYPE).sort());
    for (const [type, shapes] of Object.entries(LINE_SHAPES_BY_TYPE))
      for (const { value } of shapes) expect(values(attrOf(type, 'line.shape')), `${type} ${value}`).toContain(value);
  });

  it('bar modes and gaps, for the trace types that share them', () => {
    for (const type of BAR_MODE_TYPES) {
      const bar = traces[type].layoutAttributes!;
      expect(values(bar.barmode)).toEqual(expect.arrayContaining(BAR_MODES.map((o) => o.value)));
      expect(bar.barmode.dflt).toBe('group');
      expect(bar.bargap).toMatchObject({ min: BOUNDS.fraction.min, max: BOUNDS.fraction.max });
    }
  });

  it('every scatter-like trace that fills is offered fills', () => {
    expect(SCATTER_TYPES.filter((t) => attrOf(t, 'fill')).sort()).toEqual(Object.keys(FILLS).sort());
  });

  it('colour scales are plotly.js named scales, on the traces that take one', () => {
    const named = /Alternatively, `colorscale` may be a palette name string of the following list: ([^.]+)\./
      .exec(attrOf('heatmap', 'colorscale').description)![1]
      .split(',');
    expect(named).toEqual(expect.arrayContaining(COLORSCALES.map((o) => o.value)));
    for (const type of COLORSCALE_TRACE_TYPES) expect(attrOf(type, 'reversescale').valType).toBe('boolean');
    expect(attrOf('scatter', 'marker.colorscale').valType).toBe('colorscale');
  });

  it('bars, boxes, pies and financial traces have the attributes their fields write', () => {
    for (const type of BAR_TYPES) expect(attrOf(type, 'marker.color').valType, type).toBe('color');
    for (const [type, attr] of BOX_TYPES.map((t) => [t, t === 'box' ? 'boxpoints' : 'points'])) {
      expect(attrOf(type, 'marker.color').valType).toBe('color');
      expect(values(attrOf(type, attr))).toEqual(expect.arrayContaining(BOX_POINTS.map((o) => o.value)));
      expect(attrOf(type, attr).dflt ?? 'outliers').toBe('outliers');
    }
    expect(attrOf('pie', 'hole')).toMatchObject({ min: 0, max: 1 });
    expect(BOUNDS.hole.max).toBeLessThanOrEqual(1);
    // Pie slice colours are a layout palette: marker.colors is data, which a stored figure may not hold.
    expect(traces.pie.layoutAttributes!.piecolorway.valType).toBe('colorlist');
    expect(attrOf('pie', 'marker.colors').valType).toBe('data_array');
    for (const type of FINANCE_TYPES) for (const side of ['increasing', 'decreasing']) expect(attrOf(type, `${side}.line.color`).valType).toBe('color');
  });

  it('layout attributes: legend presets, colorway, fonts, margins, size', () => {
    for (const preset of LEGEND_PRESETS) for (const key of Object.keys(preset.set)) expect(layout.legend[key], key).toBeDefined();
    for (const preset of LEGEND_PRESETS) if (preset.set.orientation) expect(values(layout.legend.orientation)).toContain(preset.set.orientation);
    expect(layout.colorway.valType).toBe('colorlist');
    expect(layout.font.size.min).toBeLessThanOrEqual(BOUNDS.fontSize.min);
    expect(layout.margin.l.min).toBeLessThanOrEqual(BOUNDS.margin.min);
    expect(layout.width.min).toBeLessThanOrEqual(BOUNDS.side.min);
    expect(layout.template.valType).toBe('any');
  });

  it("plotly.js's defaults, which colour fields show until a colour is set", () => {
    expect(PLOTLY_DEFAULTS.colorway).toEqual(layout.colorway.dflt);
    expect([layout.plot_bgcolor.dflt, layout.paper_bgcolor.dflt, layout.font.color.dflt]).toEqual([
      PLOTLY_DEFAULTS.background,
      PLOTLY_DEFAULTS.background,
      PLOTLY_DEFAULTS.font,
    ]);
    for (const type of FINANCE_TYPES) {
      expect(attrOf(type, 'increasing.line.color').dflt).toBe(PLOTLY_DEFAULTS.increasing);
      expect(attrOf(type, 'decreasing.line.color').dflt).toBe(PLOTLY_DEFAULTS.decreasing);
    }
  });

  it('a fixed size is one an image export draws as it is (the renderer clamps to MIN_SIDE..MAX_SIDE)', () => {
    expect(BOUNDS.side).toEqual({ min: MIN_SIDE, max: MAX_SIDE });
  });
});
