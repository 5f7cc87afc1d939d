// What plotly's schema says of trace types, read through: the facts themselves are generated from the
// installed plotly.js (trace-facts.generated.ts, by `npm run trace-facts`).
import { DEFAULT_TRACE_TYPE } from './trace-types';
import { DATA_ARRAY_ATTRIBUTES } from './trace-facts.generated';

let union: string[] | null = null;

/**
 * The `data_array` attributes of a trace type as dotted paths (`x`, `node.label`): what the chart editor
 * offers as columns for a type it has no panel of its own for. A missing type is plotly's default;
 * any other type that is not plotly's gets every type's.
 */
export function dataAttributePaths(type: unknown): string[] {
  if (type === undefined || type === null) return [...DATA_ARRAY_ATTRIBUTES[DEFAULT_TRACE_TYPE]];
  if (typeof type === 'string' && Object.hasOwn(DATA_ARRAY_ATTRIBUTES, type)) return [...DATA_ARRAY_ATTRIBUTES[type]];
  union ??= [...new Set(Object.values(DATA_ARRAY_ATTRIBUTES).flat())];
  return [...union];
}
