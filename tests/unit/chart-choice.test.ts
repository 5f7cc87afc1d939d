// The first chart from what the columns hold (issue 37 point 2), a type change that keeps only the
// columns that fit, and the sentence a role that cannot be drawn says at its control.
import { describe, expect, it } from 'vitest';
import { placeModeOf } from '@/lib/core/figures/places';
import { applyTransforms } from '@/lib/shared/figures/apply-transforms';
import { chartChoices, choiceFigure, type ChoiceColumn, WEBGL_FROM_ROWS } from '@/lib/shared/figures/chart-choice';
import { convertTrace, kindById, roleProblem, type KnownColumns } from '@/lib/shared/figures/chart-kinds';
import { columnFacts, valueKind } from '@/lib/shared/figures/column-facts';

const col = (name: string, values: unknown[]): ChoiceColumn => ({ src: `a:1:${name}`, name, facts: columnFacts(name, values, placeModeOf) });
/** A column as a small grid's are known: from all its values. */
const wholeCol = (name: string, values: unknown[]): ChoiceColumn => ({ src: `a:1:${name}`, name, facts: columnFacts(name, values, placeModeOf, true) });
const known = (cols: ChoiceColumn[]): KnownColumns => ({ facts: (src) => cols.find((c) => c.src === src)?.facts, all: cols });
const kind = (id: string) => kindById(id)!;

const day = col('day', ['2024-01-01', '2024-02-01', '2024-03-01']);
const city = col('city', ['Oslo', 'Lima', 'Pune']);
const sales = col('sales', [3, 1, 4]);
const costs = col('costs', ['2', '7', '1']);
const country = col('country', ['Norway', 'Peru', 'India', 'Ivory Coast']);
const iso = col('iso', ['NOR', 'PER', 'IND', 'CIV']);

describe('column facts', () => {
  it.each([
    [[1, 2.5, '3'], 'number'],
    [['2024-01-01', '2024-02', '2024-03-01 10:00'], 'date'],
    [['2019', '2020'], 'number'],
    [['Oslo', '2024-01-01'], 'category'],
    [['', null, 'x'], 'category'],
  ])('%j is %s', (values, kind) => expect(valueKind(values)).toBe(kind));

  it('countries by name (aliases too) or ISO-3 code, as plotly places them; cities are not', () => {
    expect(country.facts.place).toBe('country names');
    expect(iso.facts.place).toBe('ISO-3');
    expect(city.facts.place).toBeUndefined();
    expect(col('lat', [59.9, -12]).facts.coordinate).toBe('lat');
    expect(col('lat', [500]).facts.coordinate).toBeUndefined();
  });
});

describe('the first chart', () => {
  const first = (...cols: ChoiceColumn[]) => chartChoices(cols)[0];

  it('a date and numbers: a line of each number over time, each trace named', () => {
    const choice = first(day, sales, costs);
    expect(choice.kind).toBe('line');
    expect(choiceFigure(choice, [day, sales, costs]).data).toEqual([
      { type: 'scatter', mode: 'lines', xsrc: day.src, ysrc: sales.src, name: 'sales' },
      { type: 'scatter', mode: 'lines', xsrc: day.src, ysrc: costs.src, name: 'costs' },
    ]);
  });

  it('long data (rows repeating a date): a line for each of a few categories, each keeping its rows; else one point a date, summed', () => {
    const when = wholeCol('month', ['2024-01-01', '2024-01-01', '2024-02-01', '2024-02-01', '2024-03-01', '2024-03-01']);
    const where = wholeCol('city', ['Oslo', 'Lima', 'Oslo', 'Lima', 'Oslo', 'Lima']);
    const sold = wholeCol('sales', [10, 5, 12, 7, 9, 11]);
    const choice = first(when, where, sold);
    expect(choice).toMatchObject({ kind: 'line', why: 'sales over month, a line for each city' });
    const values: Record<string, unknown[]> = {
      month: ['2024-01-01', '2024-01-01', '2024-02-01', '2024-02-01', '2024-03-01', '2024-03-01'],
      city: ['Oslo', 'Lima', 'Oslo', 'Lima', 'Oslo', 'Lima'],
      sales: [10, 5, 12, 7, 9, 11],
    };
    // What every page draws: each src filled with its column, then the data steps applied.
    const filled = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(filled)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => (k.endsWith('src') ? [k.slice(0, -3), values[String(x).split(':')[2]]] : [k, filled(x)])))
          : v;
    const drawn = applyTransforms({ data: choiceFigure(choice, [when, where, sold]).data.map((t) => filled(t) as Record<string, unknown>) }).data;
    expect(drawn.map((t) => [t.name, t.x, t.y])).toEqual([
      ['Oslo', ['2024-01-01', '2024-02-01', '2024-03-01'], [10, 12, 9]],
      ['Lima', ['2024-01-01', '2024-02-01', '2024-03-01'], [5, 7, 11]],
    ]);
    // Without a category of few values, a point a date: their sum.
    const many = wholeCol('shop', ['a', 'b', 'c', 'd', 'e', 'f']);
    expect(first(when, many, sold)).toMatchObject({
      kind: 'line',
      why: 'sales over month, summed',
      traces: [{ steps: [{ type: 'aggregate', aggregations: [{ func: 'sum' }] }] }],
    });
    // Facts from the first values alone never list a column's values: they may not be all of them.
    expect(col('city', ['Oslo', 'Lima']).facts.values).toBeUndefined();
  });

  it('a category and a number: bars; two numbers: a scatter; countries and a number: a map', () => {
    expect(first(city, sales)).toMatchObject({ kind: 'bar', traces: [{ roles: { x: city.src, y: sales.src } }] });
    expect(first(sales, costs)).toMatchObject({ kind: 'scatter', traces: [{ roles: { x: sales.src, y: costs.src } }] });
    const map = first(country, iso, sales);
    expect(map.kind).toBe('map-regions');
    expect(choiceFigure(map, [country, iso, sales]).data[0]).toMatchObject({ type: 'choropleth', locationmode: 'country names', zsrc: sales.src });
    expect(choiceFigure(first(iso, sales), [iso, sales]).data[0]).not.toHaveProperty('locationmode');
  });

  it('offers the next best ones, none twice, each with its columns fitting its roles', () => {
    const kinds = chartChoices([day, city, sales, costs]).map((c) => c.kind);
    expect(kinds.slice(0, 3)).toEqual(['line', 'area', 'bar']);
    expect(kinds).toContain('scatter');
    expect(new Set(kinds).size).toBe(kinds.length);
    // Dates make a time series first, even beside countries; the map is offered next.
    expect(
      chartChoices([day, country, sales])
        .map((c) => c.kind)
        .slice(0, 4),
    ).toEqual(['line', 'area', 'bar', 'map-regions']);
    // Words only: a count of each; nothing at all: an empty line to fill.
    expect(first(city)).toMatchObject({ kind: 'histogram', traces: [{ roles: { x: city.src } }] });
    expect(chartChoices([])).toEqual([{ kind: 'line', traces: [{ roles: {} }], why: 'choose its columns' }]);
  });
});

describe('a large grid', () => {
  it('draws its scatter family with WebGL, kept through a type change within the family', () => {
    const big = [
      { ...sales, length: WEBGL_FROM_ROWS },
      { ...costs, length: WEBGL_FROM_ROWS },
    ];
    const [trace] = choiceFigure(chartChoices(big)[0], big).data;
    expect(trace).toMatchObject({ type: 'scattergl', mode: 'markers' });
    expect(convertTrace(trace, {}, kind('line'))).toMatchObject({ type: 'scattergl', mode: 'lines' });
    expect(convertTrace(trace, {}, kind('bar')).type).toBe('bar');
    const small = [sales, costs];
    expect(choiceFigure(chartChoices(small)[0], small).data[0].type).toBe('scatter');
  });
});

describe('a type change keeps what fits', () => {
  const cols = known([city, sales, costs, day]);
  const bars = { type: 'bar', xsrc: city.src, ysrc: sales.src };

  it('never a city as a number: a scatter of city and sales takes a number for X', () => {
    expect(convertTrace(bars, {}, kind('scatter'), cols)).toMatchObject({ xsrc: costs.src, ysrc: sales.src });
    expect(convertTrace({ type: 'scatter', mode: 'lines', xsrc: sales.src, ysrc: city.src }, {}, kind('bar'), cols)).toMatchObject({
      xsrc: sales.src,
      ysrc: costs.src,
    });
  });

  it('fills required roles with fitting columns (a bubble size), and leaves a role empty when none fits', () => {
    const scatter = { type: 'scatter', mode: 'markers', xsrc: sales.src, ysrc: costs.src };
    const units = col('units', [5, 6, 7]);
    expect(convertTrace(scatter, {}, kind('bubble'), known([city, sales, costs, units]))).toMatchObject({ marker: { sizemode: 'area', sizesrc: units.src } });
    expect(convertTrace(scatter, {}, kind('bubble'), cols)).toEqual({ ...scatter, marker: { sizemode: 'area' } });
    const regions = convertTrace(bars, {}, kind('map-regions'), cols);
    expect(regions).not.toHaveProperty('locationssrc');
    expect(roleProblem(kind('map-regions'), kind('map-regions').roles[0], regions, cols)).toMatch(
      /^Map \(regions\) needs a column of countries .* this data has none/,
    );
  });

  it('a heatmap without its Z says so at the Z control', () => {
    const heat = convertTrace(bars, {}, kind('heatmap'), cols);
    expect(roleProblem(kind('heatmap'), kind('heatmap').roles[0], heat, cols)).toBe('Choose a column of numbers for Z: Heatmap draws nothing without it.');
    expect(roleProblem(kind('bar'), kind('bar').roles[1], { type: 'bar', ysrc: city.src }, cols)).toBeNull();
  });
});
