// Which trace attributes hold data, per plotly.js's own schema: the rule the official client uses to
// decide what goes into a grid, and the rule create/update use to refuse raw data in a figure (and,
// walked by scripts/trace-facts.ts, each type's data arrays in lib/shared/figures/trace-facts.generated.ts).
import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TRACE_TYPE } from '@/lib/shared/figures/trace-types';

/**
 * One level of a trace's attributes. `data`: leaf attributes that hold data (valType `data_array` or
 * `arrayOk`), whose reference form is `{name}src`. `objects`: nested attribute objects (`marker`,
 * `error_y`, ...). `arrays`: object arrays (`dimensions`), mapped to the node of one item.
 */
export interface AttrNode {
  data: Set<string>;
  /** Those of `data` whose valType is `data_array` (always data; the rest take one value too). */
  dataArrays: Set<string>;
  objects: Map<string, AttrNode>;
  arrays: Map<string, AttrNode>;
}

interface SchemaAttrs {
  [key: string]: unknown;
}

interface PlotSchema {
  defs: { metaKeys: string[] };
  traces: Record<string, { attributes: SchemaAttrs }>;
}

interface Compiled {
  traces: Map<string, AttrNode>;
  union: AttrNode | null;
}

let compiled: Compiled | null = null;

const isObject = (v: unknown): v is SchemaAttrs => v !== null && typeof v === 'object' && !Array.isArray(v);
const emptyNode = (): AttrNode => ({ data: new Set(), dataArrays: new Set(), objects: new Map(), arrays: new Map() });

function compileNode(attrs: SchemaAttrs, meta: Set<string>): AttrNode {
  const node = emptyNode();
  for (const [key, def] of Object.entries(attrs)) {
    // Meta keys (role, description, editType, impliedEdits, _deprecated, ...) describe the level
    // itself; plain-valued keys (`type: "scatter"`) are not attribute definitions either.
    if (meta.has(key) || !isObject(def)) continue;
    if ('valType' in def) {
      if (def.valType === 'data_array' || def.arrayOk === true) node.data.add(key);
      if (def.valType === 'data_array') node.dataArrays.add(key);
    } else if (def.role === 'object' && isObject(def.items)) {
      // An object array: `items` holds one entry keyed by the singular name (`dimension`).
      const item = emptyNode();
      for (const itemAttrs of Object.values(def.items)) if (isObject(itemAttrs)) merge(item, compileNode(itemAttrs, meta));
      node.arrays.set(key, item);
    } else {
      node.objects.set(key, compileNode(def, meta));
    }
  }
  return node;
}

/** Adds `from` into `into`: data anywhere stays data (the conservative union for unknown types). */
function merge(into: AttrNode, from: AttrNode): AttrNode {
  for (const k of from.data) into.data.add(k);
  for (const k of from.dataArrays) into.dataArrays.add(k);
  for (const [k, child] of from.objects) merge(into.objects.get(k) ?? setNew(into.objects, k), child);
  for (const [k, child] of from.arrays) merge(into.arrays.get(k) ?? setNew(into.arrays, k), child);
  return into;
}

function setNew(map: Map<string, AttrNode>, key: string): AttrNode {
  const node = emptyNode();
  map.set(key, node);
  return node;
}

/**
 * plotly.js 2's `transforms`, which plotly 4's schema no longer has: an aggregate's `groups` and a
 * filter's or sort's `target` take a column (`groupssrc`, `targetsrc`), as in plotly 2's schema, so
 * their srcs are found, resolved and inlined like any other (lib/core/figures/transforms.ts checks the rest).
 */
function withTransforms(node: AttrNode): AttrNode {
  const step = emptyNode();
  step.data.add('groups').add('target');
  step.arrays.set('aggregations', emptyNode());
  node.arrays.set('transforms', step);
  return node;
}

function load(): Compiled {
  if (compiled) return compiled;
  // Read from the installed plotly.js at runtime (the app and the scripts run from the project root);
  // a bundler would otherwise turn a resolve() into a module id or inline the 3.9 MB file.
  const file = path.join(/*turbopackIgnore: true*/ process.cwd(), 'node_modules/plotly.js/dist/plot-schema.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as PlotSchema;
  const meta = new Set([...schema.defs.metaKeys, 'impliedEdits', 'items']);
  const traces = new Map<string, AttrNode>();
  for (const [type, trace] of Object.entries(schema.traces)) traces.set(type, withTransforms(compileNode(trace.attributes, meta)));
  compiled = { traces, union: null };
  return compiled;
}

/** The attribute tree of a trace type: a missing type is plotly's default (lib/shared/figures/trace-types.ts); any
 *  other type that is not plotly's, odd values ('', numbers) included, gets the union of all types, so
 *  anything that is data in some type is treated as data: refusing data does not lean on plotly
 *  drawing an odd type as a scatter, as the rest of the app may. */
export function traceNode(type: unknown): AttrNode {
  const c = load();
  if (type === undefined || type === null) return c.traces.get(DEFAULT_TRACE_TYPE)!;
  const node = typeof type === 'string' ? c.traces.get(type) : undefined;
  if (node) return node;
  if (!c.union) {
    const union = emptyNode();
    for (const n of c.traces.values()) merge(union, n);
    c.union = union;
  }
  return c.union;
}
