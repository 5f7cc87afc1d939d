// Which plotly.js bundle a figure loads: the rule by trace types and layout subplots, the partial
// bundles' trace types checked against plotly's own bundle definitions, and every demo mock.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { figureBundle, needsMapOutlines, plotlyBundle, type PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';

/** The trace modules plotly's partial bundle registers (node_modules/plotly.js/lib/index-<name>.js), scatter always. */
function registered(name: string): string[] {
  const text = readFileSync(`node_modules/plotly.js/lib/index-${name}.js`, 'utf8');
  const traces = text.slice(text.indexOf('// traces'), text.indexOf('// components'));
  return ['scatter', ...[...traces.matchAll(/require\('\.\/(\w+)'\)/g)].map((m) => m[1])];
}

describe('plotly bundles', () => {
  it.each<[string, string[], string[], PlotlyBundle]>([
    ['no traces', [], [], 'basic'],
    ['scatter, bar, pie', ['scatter', 'bar', 'pie'], ['xaxis', 'yaxis', 'title'], 'basic'],
    ['a heatmap', ['scatter', 'heatmap'], [], 'cartesian'],
    ['violin and image', ['violin', 'image'], [], 'cartesian'],
    ['a ternary subplot without traces', ['scatter'], ['ternary2'], 'cartesian'],
    ['a 3D scene without traces', ['scatter'], ['scene'], 'full'],
    ['a geo subplot', ['bar'], ['geo'], 'full'],
    ['polar', [], ['polar3'], 'full'],
    ['a WebGL trace', ['scattergl'], [], 'full'],
    ['an unknown type', ['nosuchtrace'], [], 'full'],
    ['a key that only starts like a subplot', ['scatter'], ['geography', 'mapped', 'scenery'], 'basic'],
  ])('%s', (_, types, keys, want) => {
    expect(plotlyBundle(types, keys)).toBe(want);
  });

  it('basic and cartesian name exactly the trace types of plotly’s own partial bundles', () => {
    for (const type of registered('basic')) expect(plotlyBundle([type], []), type).toBe('basic');
    for (const type of registered('cartesian')) expect(['basic', 'cartesian'], type).toContain(plotlyBundle([type], []));
    // And nothing else is given to them.
    const all = readdirSync('node_modules/plotly.js/lib')
      .filter((f) => /^[a-z0-9]+\.js$/.test(f) && !['core.js', 'index.js', 'calendars.js'].includes(f))
      .map((f) => f.slice(0, -3));
    const partial = new Set([...registered('basic'), ...registered('cartesian')]);
    for (const type of all.filter((t) => !partial.has(t))) expect(plotlyBundle([type], []), type).toBe('full');
  });

  it('a figure: untyped traces are scatters, frames’ typed traces count, malformed parts are ignored', () => {
    expect(figureBundle({ data: [{}, { type: '' }], layout: {} })).toBe('basic');
    expect(figureBundle({ data: [{ type: 'bar' }], frames: [{ data: [{ y: [1] }] }, { data: [{ type: 'heatmap' }] }] })).toBe('cartesian');
    expect(figureBundle({ data: [{ type: 'bar' }], frames: [null, 7, { data: 'x' }], layout: null })).toBe('basic');
    expect(figureBundle({ data: 'nope', layout: { scene: {} } })).toBe('full');
  });

  it('the demo mocks: each trace type picks a bundle that draws it', () => {
    const seen = new Map<PlotlyBundle, number>();
    for (const file of readdirSync('fixtures/plotly-mocks').filter((f) => f.endsWith('.json'))) {
      const figure = JSON.parse(readFileSync(`fixtures/plotly-mocks/${file}`, 'utf8')) as { data: { type?: string }[] };
      const bundle = figureBundle(figure);
      seen.set(bundle, (seen.get(bundle) ?? 0) + 1);
      const partial = bundle === 'full' ? null : new Set(bundle === 'basic' ? registered('basic') : registered('cartesian'));
      for (const trace of figure.data) if (partial) expect(partial.has(trace.type ?? 'scatter'), `${file}: ${trace.type}`).toBe(true);
    }
    expect([...seen.keys()].sort(), 'the mocks use every bundle').toEqual(['basic', 'cartesian', 'full']);
  });

  it.each<[string, string[], string[], boolean]>([
    ['bars', ['bar'], ['xaxis'], false],
    ['a scattergeo', ['scatter', 'scattergeo'], [], true],
    ['a choropleth', ['choropleth'], [], true],
    ['a geo subplot without traces', ['bar'], ['geo2'], true],
    ['tile maps (no outlines)', ['scattermap', 'choroplethmap'], ['map', 'mapbox'], false],
    ['a key that only starts like geo', ['scatter'], ['geography'], false],
  ])('map outlines: %s', (_, types, keys, want) => {
    expect(needsMapOutlines(types, keys)).toBe(want);
  });

  it('map outlines are asked for by exactly the trace types plotly draws on a geo subplot', () => {
    const dir = 'node_modules/plotly.js/src/traces';
    const geo = readdirSync(dir).filter((t) => readFileSync(`${dir}/${t}/index.js`, 'utf8').includes("require('../../plots/geo')"));
    expect(geo.sort()).toEqual(['choropleth', 'scattergeo']);
    for (const type of readdirSync(dir)) expect(needsMapOutlines([type], []), type).toBe(geo.includes(type));
  });
});
