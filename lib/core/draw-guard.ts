// plotly.js measures every tick label and annotation it draws (bounding boxes, overlap checks), so an
// axis asking for thousands of ticks (`dtick: 1e-9`, `nticks: 1e9`) or a layout of thousands of
// annotations freezes a browser tab or the renderer for minutes. Before a figure is drawn, `tameFigure`
// caps tick counts: `nticks` is clamped, and a numeric `dtick` that would draw more than 200 ticks over
// its axis range is dropped (plotly then picks ticks itself); and, where asked, it draws only the first
// annotations. Where the range comes from the data (autorange), the figure is
// first drawn off-screen without that dtick to learn the range.
//
// `tameFigure` runs in the browser (lib/plotly-client.ts) and in the renderer's page, where it is
// injected as text (`tameFigure.toString()`): it must refer to nothing outside itself.

interface PlotlyLike {
  newPlot(el: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
  purge(el: HTMLElement): void;
}

/** Annotations drawn of a figure on pages and thumbnails: plotly measures every label, so thousands freeze a tab or a render. */
export const MAX_DRAWN_ANNOTATIONS = 500;

export async function tameFigure<F extends { data: unknown[]; layout?: unknown }>(Plotly: PlotlyLike, figure: F, maxAnnotations?: number): Promise<F> {
  const LIMIT = 200;
  type Node = Record<string, unknown>;
  const pending: { node: Node; dtick: number; tickmode: unknown; path: string[] }[] = [];
  const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);
  const walk = (node: Node, path: string[], depth: number): void => {
    if (depth > 12) return;
    if (typeof node.nticks === 'number' && node.nticks > LIMIT) node.nticks = LIMIT;
    const dtick = typeof node.dtick === 'string' && /^[0-9.eE+-]+$/.test(node.dtick) ? Number(node.dtick) : node.dtick;
    if (typeof dtick === 'number' && dtick > 0 && Number.isFinite(dtick) && node.type !== 'log' && node.type !== 'date') {
      const range = node.range;
      const known = Array.isArray(range) && range.length === 2 && range.every((r) => typeof r === 'number' && Number.isFinite(r));
      if (known) {
        if (Math.abs((range[1] as number) - (range[0] as number)) / dtick > LIMIT) drop(node);
      } else {
        pending.push({ node, dtick: node.dtick as number, tickmode: node.tickmode, path });
        drop(node);
      }
    }
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (isNode(child)) walk(child, [...path, key], depth + 1);
      else if (Array.isArray(child) && key !== 'range') child.forEach((c, i) => isNode(c) && walk(c, [...path, key, String(i)], depth + 1));
    }
  };
  function drop(node: Node): void {
    delete node.dtick;
    if (node.tickmode === 'linear') delete node.tickmode;
  }
  const copy = JSON.parse(JSON.stringify(figure)) as F;
  if (isNode(copy.layout) && maxAnnotations !== undefined && Array.isArray(copy.layout.annotations)) {
    copy.layout.annotations = copy.layout.annotations.slice(0, maxAnnotations);
  }
  if (isNode(copy.layout)) walk(copy.layout, ['layout'], 0);
  copy.data.forEach((trace, i) => isNode(trace) && walk(trace, ['data', String(i)], 0));
  if (!pending.length) return copy;

  // Learn the ranges plotly computes from the data, then put back each dtick that stays in bounds.
  const el = document.createElement('div');
  el.style.cssText = 'position:fixed;left:-10000px;top:0;width:700px;height:500px;visibility:hidden';
  document.body.appendChild(el);
  try {
    await Plotly.newPlot(el, copy.data, copy.layout, { staticPlot: true });
    const full = el as unknown as { _fullLayout?: Node; _fullData?: Node[] };
    for (const p of pending) {
      let at: unknown = p.path[0] === 'layout' ? full._fullLayout : full._fullData;
      let parent: unknown;
      for (const key of p.path.slice(1)) {
        parent = at;
        at = isNode(at) || Array.isArray(at) ? (at as Node)[key] : undefined;
      }
      // An axis knows its range; a trace's colorbar spans its parent's colour or z bounds.
      const bounds = (n: unknown, a: string, b: string) => (isNode(n) && typeof n[a] === 'number' ? [n[a], n[b]] : undefined);
      const range = isNode(at) ? (at.range ?? bounds(parent, 'cmin', 'cmax') ?? bounds(parent, 'zmin', 'zmax')) : undefined;
      const ok = Array.isArray(range) && range.length === 2 && Math.abs(Number(range[1]) - Number(range[0])) / p.dtick <= LIMIT;
      if (ok) {
        p.node.dtick = p.dtick;
        if (p.tickmode !== undefined) p.node.tickmode = p.tickmode;
      }
    }
  } catch {
    // Could not measure: keep the dticks dropped (plotly's own ticks are always safe).
  } finally {
    Plotly.purge(el);
    el.remove();
  }
  return copy;
}
