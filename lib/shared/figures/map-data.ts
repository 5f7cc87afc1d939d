// A plot's content with `map_data` (columns of its owner's grids the reader may not read on their
// own, served because the plot draws them) merged back into its traces: what the chart draws. Pure:
// the browser's chart (components/plotly-client.ts) and the server's text alternative and data table
// read the figure the same way.

/** The content's figure, its `map_data` (if any) moved into the traces whose srcs name it. */
export function mergeMapData<T extends { data: unknown[]; frames?: unknown[]; map_data?: Record<string, unknown> }>(body: T): Omit<T, 'map_data'> {
  const map = body.map_data;
  if (map) {
    const frames = Array.isArray(body.frames) ? body.frames : [];
    const frameTraces = frames.flatMap((f) => {
      const data = f !== null && typeof f === 'object' ? (f as { data?: unknown }).data : undefined;
      return Array.isArray(data) ? data : [];
    });
    for (const trace of [...body.data, ...frameTraces]) fillSrcs(trace, map);
  }
  delete body.map_data;
  return body;
}

function fillSrcs(node: unknown, map: Record<string, unknown>): void {
  if (Array.isArray(node)) {
    for (const item of node) fillSrcs(item, map);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (key.endsWith('src') && typeof value === 'string' && Object.hasOwn(map, value)) {
      obj[key.slice(0, -3)] = map[value];
      delete obj[key];
    } else if (value && typeof value === 'object') fillSrcs(value, map);
  }
}
