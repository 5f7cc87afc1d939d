// The chart editor's pure parts: how a trace's chart type is recognised and changed (columns carried
// over role by role, other attributes kept), and the undo history (one step per attribute typed in a row).
import { describe, expect, it } from 'vitest';
import { CHART_KINDS, convertTrace, figureKind, kindById, kindOf, roleSrc, tracesSrcs, withRoleSrc } from '@/lib/shared/figures/chart-kinds';
import { historyReducer, startHistory } from '@/components/chart-editor/figure-history';

const kind = (id: string) => kindById(id)!;

describe('chart types', () => {
  it('every picker type is recognised as itself once a trace takes it (its layout too)', () => {
    for (const k of CHART_KINDS) {
      const trace = convertTrace({ type: 'scatter', mode: 'lines', xsrc: 'a:1:x', ysrc: 'a:1:y' }, {}, k);
      const layout = k.layout?.['layout.barmode'] ? { barmode: k.layout['layout.barmode'] } : {};
      expect(kindOf(trace, layout)?.label, k.label).toBe(k.label);
    }
  });

  it("recognises plotly's own forms as react-chart-editor does, and leaves other types to themselves", () => {
    expect(kindOf({}, {})?.id).toBe('line');
    expect(kindOf({ type: 'scatter', mode: 'markers' }, {})?.id).toBe('scatter');
    expect(kindOf({ type: 'scattergl', mode: 'lines+markers' }, {})?.id).toBe('line');
    expect(kindOf({ type: 'scatter', stackgroup: 'one' }, {})?.id).toBe('area');
    expect(kindOf({ type: 'bar' }, { barmode: 'stack' })?.id).toBe('stacked-bar');
    expect(kindOf({ type: 'pie', hole: 0.3 }, {})?.id).toBe('donut');
    expect(kindOf({ type: 'violin' }, {})).toBeNull();
    expect(figureKind([{ type: 'bar' }, { type: 'scatter', mode: 'lines' }], {})).toBe('mixed');
    expect(figureKind([], {})).toBeNull();
  });

  it('a type change carries the columns over by role and keeps every other attribute', () => {
    const line = { type: 'scatter', mode: 'lines', xsrc: 'a:1:x', ysrc: 'a:1:y', name: 'n', line: { dash: 'dot' }, customdatasrc: 'a:1:c' };
    const pie = convertTrace(line, {}, kind('pie'));
    expect(pie).toEqual({ type: 'pie', labelssrc: 'a:1:x', valuessrc: 'a:1:y', name: 'n', line: { dash: 'dot' }, customdatasrc: 'a:1:c' });
    expect(convertTrace(pie, {}, kind('bar'))).toEqual({ type: 'bar', xsrc: 'a:1:x', ysrc: 'a:1:y', name: 'n', line: { dash: 'dot' }, customdatasrc: 'a:1:c' });
    const bubble = convertTrace(line, {}, kind('bubble'));
    expect(bubble).toMatchObject({ mode: 'markers', marker: { sizemode: 'area' }, xsrc: 'a:1:x', ysrc: 'a:1:y' });
    // Leaving a bubble takes its size mode with it, not its mapped sizes.
    const scatter = convertTrace(withRoleSrc(bubble, 'marker.size', 'a:1:s'), {}, kind('scatter'));
    expect(scatter.marker).toEqual({ sizesrc: 'a:1:s' });
    expect(roleSrc(scatter, 'marker.size')).toBe('a:1:s');
    expect(convertTrace(line, {}, kind('line'))).toBe(line);
  });

  it('lists every src of a trace, nested and in object arrays', () => {
    expect(tracesSrcs({ xsrc: 'a:1:x', marker: { colorsrc: 'a:1:c' }, transforms: [{ targetsrc: 'a:1:t' }], name: 'src' })).toEqual([
      { path: 'xsrc', src: 'a:1:x' },
      { path: 'marker.colorsrc', src: 'a:1:c' },
      { path: 'transforms.0.targetsrc', src: 'a:1:t' },
    ]);
  });
});

describe('undo history', () => {
  const figure = { data: [{ type: 'bar' }], layout: {} };

  it('one step per attribute changed in a row; undo and redo walk the steps; a change clears redo', () => {
    let h = startHistory(figure);
    for (const text of ['H', 'He', 'Hey']) h = historyReducer(h, { type: 'change', path: 'layout.title.text', value: text });
    h = historyReducer(h, { type: 'change', path: 'data.0.name', value: 'n' });
    expect(h.past).toHaveLength(2);
    h = historyReducer(h, { type: 'undo' });
    expect(h.present.data[0].name).toBeUndefined();
    expect(h.present.layout).toEqual({ title: { text: 'Hey' } });
    h = historyReducer(h, { type: 'undo' });
    expect(h.present).toBe(figure);
    expect(historyReducer(h, { type: 'undo' })).toBe(h);
    h = historyReducer(h, { type: 'redo' });
    expect(h.present.layout).toEqual({ title: { text: 'Hey' } });
    h = historyReducer(h, { type: 'set', figure: { data: [], layout: {} } });
    expect(h.future).toEqual([]);
    expect(historyReducer(h, { type: 'redo' })).toBe(h);
  });
});

describe('2D types', () => {
  it("a heatmap keeps a line's X (one value a column row) but not its Y (one a Z column), and takes no one-column Z", () => {
    const heat = convertTrace({ type: 'scatter', mode: 'lines', xsrc: 'a:1:x', ysrc: 'a:1:y' }, {}, kindById('heatmap')!);
    expect(heat).toEqual({ type: 'heatmap', xsrc: 'a:1:x' });
  });
});
