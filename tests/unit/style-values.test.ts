// The style panels' pure rules: colours as plotly.js reads them, bounded numbers, axis ranges in the
// axis's units, legend and size presets, annotations' placement, axis discovery and themes.
import { describe, expect, it } from 'vitest';
import { figureAxes } from '@/components/chart-editor/style/axes';
import { LEGEND_PRESETS } from '@/components/chart-editor/style/options';
import { THEMES } from '@/lib/shared/figures/builtin-themes';
import { themeOf } from '@/components/chart-editor/style/themes';
import {
  annotationPlace,
  axisWithRange,
  colorToHex,
  formatRangeEnd,
  isDateText,
  isDeepStrictEqual,
  isFixedSize,
  layoutWithSize,
  legendPresetOf,
  legendWithPreset,
  parseColorText,
  parseNumberText,
  parsePosition,
  parseRangeEnd,
  placedAnnotation,
} from '@/components/chart-editor/style/values';

describe('colours', () => {
  it.each([
    ['steelblue', true],
    ['SteelBlue', true],
    ['#3450c9', true],
    ['#fff', true],
    ['#3450c980', true],
    ['rgb(52, 80, 201)', true],
    ['RGB(1,2,3)', true],
    ['rgba(0,0,0,0.5)', true],
    ['hsl(220 60% 50%)', true],
    ['transparent', true],
    ['  red  ', true],
    ['3450c9', false], // bare hex: CSS and plotly.js refuse it
    ['fff', false],
    ['notacolour', false],
    ['rgb(0px 1 2)', false],
    ['#12', false],
    ['url(http://example.com/x)', false],
  ])('%s is a colour: %s', (text, ok) => {
    const parsed = parseColorText(text);
    expect(parsed.error === undefined).toBe(ok);
    if (ok) expect(parsed.value).toBe(text.trim());
  });

  it('an empty field clears the colour, back to the default', () => {
    expect(parseColorText('  ')).toEqual({ value: undefined });
  });

  it('the colour picker gets #rrggbb, black for what it cannot show', () => {
    expect(colorToHex('steelblue')).toBe('#4682b4');
    expect(colorToHex('rgb(255, 0, 0)')).toBe('#ff0000');
    expect(colorToHex('#abc')).toBe('#aabbcc');
    expect(colorToHex(undefined)).toBe('#000000');
    expect(colorToHex('nope')).toBe('#000000');
    expect(colorToHex(['red'])).toBe('#000000');
  });
});

describe('numbers', () => {
  const b = { min: 0, max: 100 };
  it('within bounds, empty for the default, a message otherwise', () => {
    expect(parseNumberText('12', b)).toEqual({ value: 12 });
    expect(parseNumberText('12.5', b)).toEqual({ value: 12.5 });
    expect(parseNumberText('', b)).toEqual({ value: undefined });
    expect(parseNumberText('abc', b).error).toBe('Enter a number');
    expect(parseNumberText('Infinity', b).error).toBe('Enter a number');
    expect(parseNumberText('101', b).error).toBe('Enter a number from 0 to 100');
    expect(parseNumberText('-1', b).error).toBe('Enter a number from 0 to 100');
  });
});

describe('axis ranges', () => {
  it('dates: the forms plotly reads, real calendar days only', () => {
    for (const d of ['2024', '2024-02', '2024-02-29', '2024-02-29 13:05', '2024-02-29T13:05:09.5']) expect(isDateText(d), d).toBe(true);
    for (const d of ['2023-02-29', '2024-13-01', '24-01-01', 'yesterday', '2024-01-01 25:00', '']) expect(isDateText(d), d).toBe(false);
  });

  it('each end in the axis units: a log axis stores powers of ten', () => {
    expect(parseRangeEnd('1000', 'log')).toEqual({ value: 3 });
    expect(parseRangeEnd('0', 'log').error).toMatch(/above 0/);
    expect(formatRangeEnd(3, 'log')).toBe('1000');
    expect(formatRangeEnd(Math.log10(0.2), 'log')).toBe('0.2');
    expect(parseRangeEnd('2024-01-31', 'date')).toEqual({ value: '2024-01-31' });
    expect(parseRangeEnd('soon', 'date').error).toMatch(/date/);
    expect(parseRangeEnd('2.5', 'category')).toEqual({ value: 2.5 });
    expect(parseRangeEnd('2024-01-31', 'linear').error).toBe('Enter a number');
    // An axis left to plotly may turn out to be a date axis.
    expect(parseRangeEnd('2024-01-31', undefined)).toEqual({ value: '2024-01-31' });
    expect(parseRangeEnd('-4', '-')).toEqual({ value: -4 });
    expect(parseRangeEnd('x', undefined).error).toBe('Enter a number or a date');
  });

  it('both ends or neither, as one axis change', () => {
    const axis = { title: { text: 'T' }, range: [0, 1], autorange: false };
    expect(axisWithRange(axis, undefined, '2', '8')).toEqual({ value: { title: { text: 'T' }, range: [2, 8], autorange: false } });
    expect(axisWithRange(axis, undefined, '', ' ')).toEqual({ value: { title: { text: 'T' } } });
    expect(axisWithRange(axis, undefined, '2', '').error).toMatch(/both/);
    expect(axisWithRange(axis, 'log', '-1', '10').error).toMatch(/^Minimum: /);
    expect(axisWithRange(undefined, 'log', '1', '100')).toEqual({ value: { range: [0, 2], autorange: false } });
  });
});

describe('legend, size, annotations', () => {
  it('legend presets round-trip and keep the legend title', () => {
    for (const p of LEGEND_PRESETS) expect(legendPresetOf(legendWithPreset({ title: { text: 'Key' }, x: 0.3 }, p.value)), p.value).toBe(p.value);
    expect(legendWithPreset({ title: { text: 'Key' }, x: 0.3, orientation: 'h' }, 'right')).toEqual({ title: { text: 'Key' } });
    expect(legendPresetOf(undefined)).toBe('right');
    expect(legendPresetOf({ x: 0.3 })).toBe('custom');
  });

  it('fixed size keeps a valid size and falls back to plotly defaults; responsive removes all three', () => {
    expect(layoutWithSize({ title: 'x' }, true)).toEqual({ title: 'x', autosize: false, width: 700, height: 450 });
    expect(layoutWithSize({ width: 800, height: 9000 }, true)).toEqual({ autosize: false, width: 800, height: 450 });
    expect(layoutWithSize({ autosize: false, width: 800, height: 600, title: 'x' }, false)).toEqual({ title: 'x' });
    expect(isFixedSize({ width: 800 })).toBe(true);
    expect(isFixedSize({ width: 800, autosize: true })).toBe(false);
    expect(isFixedSize({})).toBe(false);
  });

  it('annotations on the chart area or at data values; other refs kept', () => {
    expect(annotationPlace({ xref: 'paper', yref: 'paper' })).toBe('paper');
    expect(annotationPlace({})).toBe('data');
    expect(annotationPlace({ xref: 'x2', yref: 'y' })).toBe('data');
    expect(annotationPlace({ xref: 'x domain', yref: 'y' })).toBe('x domain y');
    expect(placedAnnotation({ text: 'a', x: 12, y: 0.2 }, 'paper')).toEqual({ text: 'a', xref: 'paper', yref: 'paper', x: 0.5, y: 0.2 });
    expect(placedAnnotation({ text: 'a', xref: 'paper', yref: 'paper', x: 0.1, y: 0.2 }, 'data')).toEqual({ text: 'a', x: 0.1, y: 0.2 });
    expect(parsePosition('0.25', 'paper')).toEqual({ value: 0.25 });
    expect(parsePosition('2024-01-01', 'paper').error).toMatch(/number/);
    expect(parsePosition('2024-01-01', 'data')).toEqual({ value: '2024-01-01' });
    expect(parsePosition('', 'data')).toEqual({ value: undefined });
  });
});

describe('axis discovery', () => {
  const labels = (figure: { data: Record<string, unknown>[]; layout: Record<string, unknown> }) => figureAxes(figure).map((a) => `${a.path} ${a.label}`);

  it('the axes traces name, in order, with the layout’s own', () => {
    expect(labels({ data: [{ type: 'bar' }, { y: [], yaxis: 'y2' }], layout: { xaxis10: {}, xaxis1: {}, legend: {} } })).toEqual([
      'layout.xaxis X axis',
      'layout.yaxis Y axis',
      'layout.yaxis2 Y axis 2',
      'layout.xaxis10 X axis 10',
    ]);
  });

  it('none for pies and maps, defaults for an empty chart, three for each 3D scene', () => {
    expect(labels({ data: [{ type: 'pie' }, { type: 'scattergeo' }], layout: {} })).toEqual([]);
    expect(labels({ data: [], layout: {} })).toEqual(['layout.xaxis X axis', 'layout.yaxis Y axis']);
    expect(labels({ data: [{ type: 'surface' }, { type: 'scatter3d', scene: 'scene2' }], layout: {} })).toEqual([
      'layout.scene.xaxis 3D X axis',
      'layout.scene.yaxis 3D Y axis',
      'layout.scene.zaxis 3D Z axis',
      'layout.scene2.xaxis 3D scene 2 X axis',
      'layout.scene2.yaxis 3D scene 2 Y axis',
      'layout.scene2.zaxis 3D scene 2 Z axis',
    ]);
    expect(figureAxes({ data: [{ type: 'surface' }], layout: {} })[2].templatePath).toBe('layout.template.layout.scene.zaxis');
    expect(figureAxes({ data: [{ xaxis: 'x3' }], layout: {} }).map((a) => a.templatePath)).toEqual([
      'layout.template.layout.yaxis',
      'layout.template.layout.xaxis',
    ]);
  });

  it('ignores axis names plotly does not draw', () => {
    expect(labels({ data: [{ xaxis: 'x0', yaxis: 'banana' }], layout: { xaxis01: {}, scene1: {} } })).toEqual([]);
  });
});

describe('themes', () => {
  it('each theme is recognised from its template, a copy included; anything else is custom', () => {
    for (const t of THEMES) expect(themeOf(t.template === undefined ? undefined : structuredClone(t.template)), t.key).toBe(t.key);
    expect(themeOf({ layout: { plot_bgcolor: 'pink' } })).toBe('custom');
    expect(new Set(THEMES.map((t) => t.key)).size).toBe(THEMES.length);
  });

  it('themes are small: a figure holds at most 1 MiB', () => {
    for (const t of THEMES) expect(JSON.stringify(t.template ?? {}).length, t.key).toBeLessThan(2048);
  });

  it('deep equality: key order does not matter, arrays and objects differ', () => {
    expect(isDeepStrictEqual({ a: [1, { b: 2 }], c: 3 }, { c: 3, a: [1, { b: 2 }] })).toBe(true);
    expect(isDeepStrictEqual({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(isDeepStrictEqual({ a: undefined }, {})).toBe(false);
    expect(isDeepStrictEqual(null, {})).toBe(false);
  });
});
