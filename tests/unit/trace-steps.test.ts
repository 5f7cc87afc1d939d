// The chart editor's data steps in a trace's transforms (lib/shared/figures/trace-steps.ts): one of each
// kind, in the order filter, aggregate, sort, other transforms left where they are; carried over a
// chart type change; and the first chart of rows of repeated categories sums them.
import { describe, expect, it } from 'vitest';
import { chartChoices, choiceFigure, type ChoiceColumn } from '@/lib/shared/figures/chart-choice';
import { convertTrace, kindById, roleProblem } from '@/lib/shared/figures/chart-kinds';
import { columnFacts } from '@/lib/shared/figures/column-facts';
import { aggregateFunc, stepOf, withAggregate, withStep } from '@/lib/shared/figures/trace-steps';

const XY = { group: 'x', value: 'y' };
const sort = { type: 'sort', target: 'y', order: 'descending' };
const filter = { type: 'filter', targetsrc: 'a:1:c', operation: '{}', value: ['Oslo'] };

describe('steps in a trace', () => {
  it('adds each in its place, replaces and removes it, and drops transforms when none is left', () => {
    let t: Record<string, unknown> = { type: 'bar', transforms: [{ type: 'groupby', groups: 'x' }] };
    t = withStep(t, 'sort', sort);
    t = withAggregate(t, XY, 'sum');
    t = withStep(t, 'filter', filter);
    expect((t.transforms as { type: string }[]).map((s) => s.type)).toEqual(['groupby', 'filter', 'aggregate', 'sort']);
    expect(aggregateFunc(stepOf(t, 'aggregate'), 'y')).toBe('sum');
    t = withAggregate(t, XY, 'count');
    expect(stepOf(t, 'aggregate')).toEqual({ type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'count', enabled: true }] });
    for (const type of ['filter', 'aggregate', 'sort'] as const) t = withStep(t, type, undefined);
    expect(t).toEqual({ type: 'bar', transforms: [{ type: 'groupby', groups: 'x' }] });
    expect(withStep({ type: 'bar', transforms: [sort] }, 'sort', undefined)).toEqual({ type: 'bar' });
  });

  it('follows a type change: a bar sum by x is a pie sum by labels; a histogram keeps only its filters', () => {
    const bar = { type: 'bar', xsrc: 'a:1:c', ysrc: 'a:1:n', transforms: [filter, { type: 'aggregate', aggregations: [{ target: 'y', func: 'sum' }] }, sort] };
    const pie = convertTrace(bar, {}, kindById('pie')!);
    expect(pie.transforms).toEqual([
      filter,
      { type: 'aggregate', groups: 'labels', aggregations: [{ target: 'values', func: 'sum' }] },
      { ...sort, target: 'values' },
    ]);
    expect(convertTrace(bar, {}, kindById('histogram')!).transforms).toEqual([filter]);
  });
});

describe('the first chart of repeated categories, and a heatmap of long data', () => {
  const col = (name: string, values: unknown[]): ChoiceColumn => ({ src: `a:1:${name}`, name, facts: columnFacts(name, values) });
  it('sums the rows of each category into one bar', () => {
    const cols = [col('city', ['Oslo', 'Lima', 'Oslo']), col('sales', [3, 1, 4])];
    const [first] = chartChoices(cols);
    expect(first.why).toBe('sales by city, summed');
    expect(choiceFigure(first, cols).data).toEqual([
      {
        type: 'bar',
        xsrc: 'a:1:city',
        ysrc: 'a:1:sales',
        transforms: [{ type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'sum', enabled: true }] }],
      },
    ]);
    expect(choiceFigure(chartChoices([col('city', ['Oslo', 'Lima']), col('sales', [3, 1])])[0], cols).data[0].transforms).toBeUndefined();
  });

  it('says what one Z column needs to be drawn', () => {
    const heatmap = kindById('heatmap')!;
    const z = heatmap.roles.find((r) => r.attr === 'z')!;
    expect(roleProblem(heatmap, z, { type: 'heatmap', zsrc: 'a:1:v', xsrc: 'a:1:x' })).toBe(
      'One Z column is long data, each row a cell at its X and Y: choose a column for Y too, or several Z columns (one row of cells each).',
    );
    expect(roleProblem(heatmap, z, { type: 'heatmap', zsrc: 'a:1:v', xsrc: 'a:1:x', ysrc: 'a:1:y' })).toBeNull();
    expect(roleProblem(heatmap, z, { type: 'heatmap', zsrc: 'a:1:v,w' })).toBeNull();
  });
});
