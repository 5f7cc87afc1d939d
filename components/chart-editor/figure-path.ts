// Reading and writing one attribute of a figure by its plotly path ('layout.xaxis.title.text',
// 'data.0.marker.color'): what every editor control changes. Writes copy only the objects along the
// path, so an undo history can keep each figure it saw.

export type Path = string | readonly (string | number)[];

const partsOf = (path: Path): (string | number)[] => (typeof path === 'string' ? path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [...path]);

const isRecord = (v: unknown): v is Record<string | number, unknown> => typeof v === 'object' && v !== null;

/** The value at `path`, or undefined when any step is missing. */
export function getIn(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of partsOf(path)) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** A copy of `root` with `value` at `path` (undefined removes the key); missing steps become objects or arrays. */
export function setIn<T>(root: T, path: Path, value: unknown): T {
  const parts = partsOf(path);
  const write = (node: unknown, i: number): unknown => {
    const key = parts[i];
    const copy = (Array.isArray(node) ? [...node] : isRecord(node) ? { ...node } : typeof key === 'number' ? [] : {}) as Record<string | number, unknown>;
    if (i === parts.length - 1) {
      if (value === undefined && !Array.isArray(copy)) delete copy[key];
      else copy[key] = value;
    } else {
      copy[key] = write(copy[key], i + 1);
    }
    return copy;
  };
  return parts.length ? (write(root, 0) as T) : (value as T);
}
