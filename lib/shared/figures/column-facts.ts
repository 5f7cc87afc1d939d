// What a column holds, as a chart needs to know it: numbers, dates or categories (plotly's own axis
// types: a string is a date when plotly would draw it on a date axis), and whether a category names
// countries (choropleth's location modes) or a number is a latitude or longitude. The editor chooses
// the first chart and fits columns to roles by these facts (chart-choice.ts). Pure: the server reads
// them off a column's first values; the browser takes them as given.
import { drawAxes } from './draw-axes';

/** plotly's reading of every date form (draw-axes.ts): the rule the fast path below keeps to. */
const { dateMs: slowDateMs } = drawAxes();

export type ValueKind = 'number' | 'date' | 'category';
/** plotly's choropleth `locationmode` for a column of country names or ISO 3166 alpha-3 codes. */
export type PlaceMode = 'country names' | 'ISO-3';

export interface ColumnFacts {
  kind: ValueKind;
  /** Set for a category column whose values name countries (nearly all of them). */
  place?: PlaceMode;
  /** Set for a number column named and ranged as a latitude or a longitude. */
  coordinate?: 'lat' | 'lon';
  /** Distinct values among those read. */
  distinct: number;
  /** Set when a value repeats among those read (rows to aggregate, not one bar each). */
  repeats?: true;
  /** A category column's values, in the order they first come, when all of them were read and they are few (FACT_VALUES): a line for each. */
  values?: string[];
}

/** Distinct values of a category column the facts list. */
export const FACT_VALUES = 12;

const given = (values: unknown[]) => values.filter((v) => v !== null && v !== undefined && v !== '');
const isNumeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
/** plotly's date strings (yyyy-mm[-dd[ hh[:mm[:ss[.s]]]]], with T or a space); a bare year is a number. */
const DATE = /^\s*-?\d{4}-\d{1,2}(-\d{1,2}([ T]\d{1,2}(:\d{1,2}(:\d{1,2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?)?)?\s*$/;

/** Numbers when every value is one, dates when every value is a date string, else categories (blanks aside; none given: categories). */
export function valueKind(values: unknown[]): ValueKind {
  // One pass, the common date forms read without the regex: a long column is millions of values.
  let some = false;
  let numbers = true;
  let dates = true;
  for (const v of values) {
    if (v === null || v === undefined || v === '') continue;
    some = true;
    if (numbers && !isNumeric(v)) numbers = false;
    if (dates && !(typeof v === 'string' && (commonDateMs(v) !== null || DATE.test(v)))) dates = false;
    if (!numbers && !dates) return 'category';
  }
  return !some ? 'category' : numbers ? 'number' : 'date';
}

const LAT = /^(lat|latitude)$/i;
const LON = /^(lon|lng|long|longitude)$/i;

/** A number column's coordinate role, by its name and its values' range. */
export function coordinateOf(name: string, values: unknown[]): 'lat' | 'lon' | undefined {
  const nums = given(values).map(Number);
  const within = (limit: number) => nums.every((v) => Math.abs(v) <= limit);
  if (LAT.test(name.trim()) && within(90)) return 'lat';
  if (LON.test(name.trim()) && within(180)) return 'lon';
  return undefined;
}

/**
 * The facts of a column from its first values, or from all of them (`whole`: then a category column of
 * few values lists them); `placeOf` says which location mode names all (or nearly all) of them.
 */
export function columnFacts(name: string, values: unknown[], placeOf?: (values: string[]) => PlaceMode | undefined, whole = false): ColumnFacts {
  const kind = valueKind(values);
  const some = given(values);
  const distinct = new Set(some.map(String));
  const facts: ColumnFacts = { kind, distinct: distinct.size };
  if (facts.distinct < some.length) facts.repeats = true;
  if (whole && kind === 'category' && distinct.size <= FACT_VALUES) facts.values = [...distinct];
  if (kind === 'number') {
    const coordinate = coordinateOf(name, values);
    if (coordinate) facts.coordinate = coordinate;
  }
  if (kind === 'category' && placeOf && some.length) {
    const place = placeOf(some.map(String));
    if (place) facts.place = place;
  }
  return facts;
}

/**
 * A date string (the DATE form) as epoch milliseconds, read as plotly reads it: as written, in UTC,
 * its time zone (if any) dropped; NaN for anything else. How long date columns are drawn by the view
 * (lib/shared/figures/trace-views.ts) and how a zoomed date axis's range is asked for.
 */
export function dateMs(value: string): number {
  return commonDateMs(value) ?? slowDateMs(value) ?? Number.NaN;
}

/** The usual forms, `yyyy-mm-dd` and `yyyy-mm-dd hh:mm:ss` (or with T), read without a regex or a Date: a long date column is millions of them. */
function commonDateMs(v: string): number | null {
  if ((v.length !== 10 && v.length !== 19) || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45) return null;
  const y = digitsAt(v, 0, 4);
  const mo = digitsAt(v, 5, 2);
  const d = digitsAt(v, 8, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 0) return null;
  let ms = daysFromCivil(y, mo, d) * 86_400_000;
  if (v.length === 19) {
    const t = v.charCodeAt(10);
    if ((t !== 32 && t !== 84) || v.charCodeAt(13) !== 58 || v.charCodeAt(16) !== 58) return null;
    const h = digitsAt(v, 11, 2);
    const mi = digitsAt(v, 14, 2);
    const sec = digitsAt(v, 17, 2);
    if (h < 0 || mi < 0 || sec < 0) return null;
    ms += ((h * 60 + mi) * 60 + sec) * 1000;
  }
  return ms;
}

/** The number written at v[from, from + count), or -1 when a character there is not a digit. */
function digitsAt(v: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = v.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's days_from_civil; Date.UTC's answer, days past a month's end rolling over as it does). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}
