// A trace's data steps as a stored figure may hold them: plotly.js 2's `transforms` of the kinds
// this site applies before drawing (lib/shared/figures/apply-transforms.ts), within TRANSFORM_LIMITS.
// Their columns are srcs like any other (`groupssrc`, `targetsrc`: plot-schema.ts); the rest is
// checked here, so a figure this site would draw otherwise than plotly 2 (a `groupby`, a function
// plotly never had) or a step too big to apply cheaply is refused with what is wrong and where.
import { z } from 'zod';
import { TRANSFORM_LIMITS } from '@/lib/shared/limits';

type Path = (string | number)[];

const STEPS = ['aggregate', 'filter', 'sort'] as const;
/** plotly.js 2's aggregate functions. */
export const AGGREGATE_FUNCS = ['count', 'sum', 'avg', 'median', 'mode', 'rms', 'stddev', 'min', 'max', 'first', 'last', 'range', 'change'] as const;
/** plotly.js 2's filter operations. */
export const FILTER_OPERATIONS = ['=', '!=', '<', '>=', '>', '<=', '[]', '()', '[)', '(]', '][', ')(', '](', ')[', '{}', '}{'] as const;

const attribute = z
  .string()
  .max(100)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,4}$/, 'expected the name of a trace attribute, such as "x" or "marker.color"');
// An array here is data: the walker asks for its src instead (figure.ts), so it is not said twice.
const attributeOrData = z.union([attribute, z.array(z.unknown())]);
const src = z.string().optional();
const flag = z.boolean().optional();
const oneValue = (v: unknown) =>
  typeof v === 'number' || typeof v === 'boolean' || v === null || (typeof v === 'string' && v.length <= TRANSFORM_LIMITS.valueChars);
const values = z.unknown().superRefine((v, ctx) => {
  if (Array.isArray(v) && v.length > TRANSFORM_LIMITS.values)
    ctx.addIssue({ code: 'custom', message: `at most ${TRANSFORM_LIMITS.values} values to filter by` });
  else if (v !== undefined && !(Array.isArray(v) ? v : [v]).every(oneValue))
    ctx.addIssue({ code: 'custom', message: `expected a number or a text of at most ${TRANSFORM_LIMITS.valueChars} characters, or a list of them` });
});
const oneOf = (values: readonly string[], what: string) =>
  z.string().refine((v) => values.includes(v), { message: `expected ${what}: ${values.map((v) => `"${v}"`).join(', ')}` });

const SCHEMAS = {
  aggregate: z.looseObject({
    enabled: flag,
    groups: attributeOrData.optional(),
    groupssrc: src,
    aggregations: z
      .array(
        z.looseObject({
          target: attribute,
          func: oneOf(AGGREGATE_FUNCS, 'one of plotly\u2019s aggregate functions').optional(),
          funcmode: oneOf(['sample', 'population'], 'one of').optional(),
          enabled: flag,
        }),
      )
      .max(TRANSFORM_LIMITS.aggregations, `at most ${TRANSFORM_LIMITS.aggregations} aggregations a step`)
      .optional(),
  }),
  filter: z.looseObject({
    enabled: flag,
    target: attributeOrData.optional(),
    targetsrc: src,
    operation: oneOf(FILTER_OPERATIONS, 'one of plotly\u2019s filter operations').optional(),
    value: values.optional(),
    preservegaps: flag,
  }),
  sort: z.looseObject({
    enabled: flag,
    target: attributeOrData.optional(),
    targetsrc: src,
    order: oneOf(['ascending', 'descending'], 'one of').optional(),
  }),
};

/** What is wrong with a trace's `transforms` (at `path`, the trace's), each with the path it is at; [] when nothing is. */
export function transformProblems(transforms: unknown, path: Path): { path: Path; message: string }[] {
  const at = [...path, 'transforms'];
  if (!Array.isArray(transforms)) return [{ path: at, message: 'expected an array of transforms' }];
  if (transforms.length > TRANSFORM_LIMITS.transforms) return [{ path: at, message: `at most ${TRANSFORM_LIMITS.transforms} transforms a trace` }];
  const problems: { path: Path; message: string }[] = [];
  transforms.forEach((step, i) => {
    const type = step !== null && typeof step === 'object' && !Array.isArray(step) ? (step as { type?: unknown }).type : undefined;
    if (type === undefined && (step === null || typeof step !== 'object' || Array.isArray(step))) {
      problems.push({ path: [...at, i], message: 'expected an object' });
      return;
    }
    if (typeof type !== 'string' || !(STEPS as readonly string[]).includes(type)) {
      problems.push({
        path: [...at, i, 'type'],
        message: `${typeof type === 'string' ? `"${type.slice(0, 50)}" is` : 'this is'} not a transform this site draws (plotly.js 4 has none; it applies these itself): use "aggregate", "filter" or "sort"`,
      });
      return;
    }
    const parsed = SCHEMAS[type as (typeof STEPS)[number]].safeParse(step);
    if (!parsed.success)
      for (const issue of parsed.error.issues.slice(0, 5)) problems.push({ path: [...at, i, ...(issue.path as Path)], message: issue.message });
  });
  return problems;
}
