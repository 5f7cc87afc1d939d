// The trace facts (lib/shared/figures/trace-facts.generated.ts) are what the installed plotly.js says
// now: the committed file is what `npm run trace-facts` writes (stale after an upgrade until it is
// run again), each fact agrees with a plain reading of plot-schema.json and of the partial bundles'
// definitions, and no product file writes a long list of trace types by hand instead.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataAttributePaths } from '@/lib/shared/figures/trace-facts';
import * as facts from '@/lib/shared/figures/trace-facts.generated';
import { FACTS_FILE, traceFactsText } from '@/scripts/trace-facts';

const schema = JSON.parse(readFileSync('node_modules/plotly.js/dist/plot-schema.json', 'utf8'));
const traces: Record<string, { attributes: Record<string, any> }> = schema.traces;
const TYPES = Object.keys(traces).sort();
const typesWhere = (test: (attributes: Record<string, any>) => unknown) => TYPES.filter((t) => test(traces[t].attributes));

/** The trace modules a partial bundle's definition registers (node_modules/plotly.js/lib/index-<name>.js), scatter always. */
function registered(name: string): string[] {
  const text = readFileSync(`node_modules/plotly.js/lib/index-${name}.js`, 'utf8');
  const modules = text.slice(text.indexOf('// traces'), text.indexOf('// components'));
  return ['scatter', ...[...modules.matchAll(/require\('\.\/(\w+)'\)/g)].map((m) => m[1])].sort();
}

describe('the trace facts', () => {
  it('are what npm run trace-facts writes from the installed plotly.js', () => {
    expect(readFileSync(FACTS_FILE, 'utf8') === traceFactsText(), `${FACTS_FILE} is stale: run npm run trace-facts`).toBe(true);
  });

  it("agree with plotly's schema: subplots, opacity, legend entries, colour scales", () => {
    expect(facts.XY_TRACE_TYPES).toEqual(typesWhere((a) => a.xaxis && a.yaxis));
    expect(facts.XY_TRACE_TYPES).toEqual(expect.arrayContaining(['scatter', 'bar', 'heatmap', 'scattercarpet']));
    expect(facts.XY_TRACE_TYPES).not.toContain('splom');
    expect(facts.SCENE_TRACE_TYPES).toEqual(typesWhere((a) => a.scene));
    expect(facts.GEO_TRACE_TYPES).toEqual(['choropleth', 'scattergeo']);
    expect(facts.NO_OPACITY_TRACE_TYPES).toEqual(typesWhere((a) => !a.opacity));
    expect(facts.NO_LEGEND_TRACE_TYPES).toEqual(typesWhere((a) => !a.showlegend));
    expect(facts.COLORSCALE_TRACE_TYPES).toEqual(typesWhere((a) => a.colorscale?.valType === 'colorscale' && a.showscale));
  });

  it("name the trace types of plotly's partial bundles as their definitions do", () => {
    expect(facts.BUNDLE_TRACE_TYPES.basic).toEqual(registered('basic'));
    expect(facts.BUNDLE_TRACE_TYPES.cartesian).toEqual(registered('cartesian'));
  });

  it('give every type its data arrays, nested objects included, values that may be single left out', () => {
    expect(Object.keys(facts.DATA_ARRAY_ATTRIBUTES)).toEqual(TYPES);
    for (const type of TYPES)
      for (const p of facts.DATA_ARRAY_ATTRIBUTES[type])
        expect(p.split('.').reduce((n, k) => n?.[k], traces[type].attributes)?.valType, `${type} ${p}`).toBe('data_array');
    const violin = dataAttributePaths('violin');
    expect(violin).toEqual(expect.arrayContaining(['x', 'y', 'customdata', 'ids']));
    expect(violin.filter((p) => p.startsWith('hoverlabel') || p === 'text')).toEqual([]);
    expect(dataAttributePaths('sankey')).toEqual(expect.arrayContaining(['node.label', 'link.source', 'link.value']));
    // No `type` is plotly's scatter; a type plotly lacks gets every type's, once each.
    expect(dataAttributePaths(undefined)).toEqual(dataAttributePaths('scatter'));
    const any = dataAttributePaths('heatmapgl');
    expect(any).toEqual(expect.arrayContaining(['x', 'node.label', 'lat', 'values']));
    expect(new Set(any).size).toBe(any.length);
  });

  it('are the only long list of trace types in the product (12 or more written out are a hand copy)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.posix.join(dir, e.name);
        return e.isDirectory() ? files(p) : /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.generated.ts') ? [p] : [];
      });
    const known = new Set(TYPES);
    const lists = (text: string) => [...text.matchAll(/\[([^[\]]*)\]/g)].map((m) => [...m[1].matchAll(/'([a-z0-9]+)'/g)].filter((s) => known.has(s[1])).length);
    const copies = ['lib', 'components', 'app'].flatMap(files).filter((f) => lists(readFileSync(f, 'utf8')).some((n) => n >= 12));
    expect(copies).toEqual([]);
    expect(
      lists(`const X = ['scatter', 'scattergl', 'bar', 'box', 'violin', 'histogram', 'histogram2d', 'heatmap', 'contour', 'ohlc', 'candlestick', 'funnel'];`),
    ).toEqual([12]);
  });
});
