// The chart editor's data steps of a trace, read from and written to its `transforms` (plotly.js 2's,
// applied before drawing by apply-transforms.ts): at most one aggregate, filter and sort each, kept in
// the order that makes sense of them (filter the rows, then aggregate them, then sort what is left), and
// any other transform left where it is. Pure: the editor's controls and its type changes use it.

export type StepType = 'aggregate' | 'filter' | 'sort';
export type Step = Record<string, unknown>;
type Trace = Record<string, unknown>;

/** The aggregate functions the editor offers, as plotly names them, with their words. */
export const AGGREGATE_CHOICES = [
  { func: 'count', label: 'Count' },
  { func: 'sum', label: 'Sum' },
  { func: 'avg', label: 'Average' },
  { func: 'median', label: 'Median' },
  { func: 'min', label: 'Min' },
  { func: 'max', label: 'Max' },
] as const;

const ORDER: StepType[] = ['filter', 'aggregate', 'sort'];
const isStep = (v: unknown): v is Step => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The trace's transforms (an empty list when it has none, or something else there). */
export const stepsOf = (trace: Trace): unknown[] => (Array.isArray(trace.transforms) ? trace.transforms : []);

/** The trace's first step of `type`, if any. */
export function stepOf(trace: Trace, type: StepType): Step | undefined {
  return stepsOf(trace).find((t): t is Step => isStep(t) && t.type === type);
}

/** The trace with its `type` step replaced by `step` (undefined removes it), a new one placed in ORDER; no `transforms` when none is left. */
export function withStep(trace: Trace, type: StepType, step: Step | undefined): Trace {
  const steps = [...stepsOf(trace)];
  const at = steps.findIndex((t) => isStep(t) && t.type === type);
  if (at >= 0) {
    if (step) steps[at] = step;
    else steps.splice(at, 1);
  } else if (step) {
    // Before the first step that comes after it in ORDER, else last.
    const later = ORDER.slice(ORDER.indexOf(type) + 1);
    const before = steps.findIndex((t) => isStep(t) && later.includes(t.type as StepType));
    steps.splice(before < 0 ? steps.length : before, 0, step);
  }
  const out = { ...trace };
  if (steps.length) out.transforms = steps;
  else delete out.transforms;
  return out;
}

/** An aggregate of the values by the categories, by `func`. */
export const aggregateStep = (roles: { group: string; value: string }, func: string): Step => ({
  type: 'aggregate',
  groups: roles.group,
  aggregations: [{ target: roles.value, func, enabled: true }],
});

/** A filter keeping the rows whose `src` column holds `value`. */
export const filterStep = (src: string, value: string): Step => ({ type: 'filter', targetsrc: src, operation: '{}', value: [value] });

/**
 * The trace with its aggregate of `roles.value` by `func` (undefined: no aggregate). An aggregate it
 * has already keeps what else it says (its groups, its other arrays' functions).
 */
export function withAggregate(trace: Trace, roles: { group: string; value: string }, func: string | undefined): Trace {
  const step = stepOf(trace, 'aggregate');
  if (!func) return withStep(trace, 'aggregate', undefined);
  if (!step) return withStep(trace, 'aggregate', aggregateStep(roles, func));
  const others = (Array.isArray(step.aggregations) ? step.aggregations : []).filter((a) => !isStep(a) || a.target !== roles.value);
  const { enabled: _, ...rest } = step;
  return withStep(trace, 'aggregate', { ...rest, aggregations: [{ target: roles.value, func, enabled: true }, ...others] });
}

/** The function an aggregate step applies to `value`, if it has one enabled. */
export function aggregateFunc(step: Step | undefined, value: string): string | undefined {
  if (!step || step.enabled === false || !Array.isArray(step.aggregations)) return undefined;
  const a = step.aggregations.find((x): x is Step => isStep(x) && x.target === value && x.enabled !== false);
  return a ? (typeof a.func === 'string' ? a.func : 'first') : undefined;
}

/**
 * A trace's steps when its chart kind changes: attributes named after the old kind's roles are named
 * after the new kind's (a bar's sum of `y` by `x` is a pie's of `values` by `labels`). A kind without
 * categories to work by (a histogram, a box) keeps only its filters: it counts or spreads values itself.
 */
export function convertSteps(trace: Trace, from: { group: string; value: string } | undefined, to: { group: string; value: string } | undefined): Trace {
  if (!Array.isArray(trace.transforms)) return trace;
  const renames = new Map(from && to ? [[from.group, to.group] as const, [from.value, to.value] as const] : []);
  const rename = (v: unknown) => (typeof v === 'string' ? (renames.get(v) ?? v) : v);
  const steps = trace.transforms
    .filter((t) => to || !isStep(t) || t.type === 'filter')
    .map((t) => {
      if (!isStep(t)) return t;
      const out: Step = { ...t };
      // Unset, a step works by `x`: said outright when `x` is named otherwise now.
      const by = out.type === 'aggregate' ? 'groups' : 'target';
      if (renames.size && !(by in out) && !(`${by}src` in out)) out[by] = 'x';
      for (const key of ['groups', 'target']) if (key in out) out[key] = rename(out[key]);
      if (Array.isArray(out.aggregations)) out.aggregations = out.aggregations.map((a) => (isStep(a) ? { ...a, target: rename(a.target) } : a));
      return out;
    });
  const out = { ...trace, transforms: steps };
  if (!steps.length) delete (out as Trace).transforms;
  return out;
}
