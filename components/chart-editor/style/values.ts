// The style panels' rules for what a person types: colours, bounded numbers, axis ranges, and the
// attribute groups one choice sets together (a legend position, a fixed size). Pure, so unit-tested.
import { converter, formatHex } from 'culori';
import { BOUNDS, LEGEND_POSITION_KEYS, LEGEND_PRESETS } from './options';

type Bounds = { readonly min: number; readonly max: number };
export type Parsed<T> = { value: T; error?: undefined } | { value?: undefined; error: string };

const toRgb = converter('rgb');

/**
 * The colour a text names, as plotly.js 4 reads one (src/components/color: culori on the trimmed,
 * lower-cased text, bare hex digits refused), or undefined when plotly would draw black instead.
 */
function parseColor(text: string) {
  const s = text.trim().toLowerCase();
  if (!s || /^[0-9a-f]+$/.test(s)) return undefined;
  try {
    return toRgb(s);
  } catch {
    return undefined;
  }
}

/** A colour field's text: '' clears the attribute (undefined), anything plotly cannot read is an error. */
export function parseColorText(text: string): Parsed<string | undefined> {
  if (!text.trim()) return { value: undefined };
  return parseColor(text) ? { value: text.trim() } : { error: 'Not a colour: use a name (steelblue), #rrggbb, rgb(…) or hsl(…)' };
}

/** `#rrggbb` for an <input type="color"> (which knows no other form), black for anything unreadable. */
export function colorToHex(color: unknown): string {
  const rgb = typeof color === 'string' ? parseColor(color) : undefined;
  return rgb ? formatHex(rgb) : '#000000';
}

/** A number field's text: '' clears (undefined); otherwise a finite number within `bounds`. */
export function parseNumberText(text: string, bounds: Bounds): Parsed<number | undefined> {
  if (!text.trim()) return { value: undefined };
  const n = Number(text);
  if (!Number.isFinite(n)) return { error: 'Enter a number' };
  if (n < bounds.min || n > bounds.max) return { error: `Enter a number from ${bounds.min} to ${bounds.max}` };
  return { value: n };
}

// The forms plotly.js reads as dates (yyyy, yyyy-mm, yyyy-mm-dd, then a time), checked by the calendar too.
const DATE = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[ T](\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.\d+)?)?)?)?)?)?$/;

export function isDateText(text: string): boolean {
  const m = DATE.exec(text.trim());
  if (!m) return false;
  const [year, month = 1, day = 1, hour = 0, minute = 0, second = 0] = m.slice(1).map((p) => (p === undefined ? undefined : Number(p))) as number[];
  const d = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
}

/**
 * One end of an axis range as plotly stores it, from what a person types in the axis's own units:
 * a log axis stores powers of ten (10..1000 is [1, 3]), a date axis date text, others numbers
 * (a category axis counts categories from 0); an axis left to plotly ('-') takes numbers or dates.
 */
export function parseRangeEnd(text: string, type: unknown): Parsed<number | string> {
  const t = text.trim();
  const n = Number(t);
  const number = t !== '' && Number.isFinite(n);
  if (type === 'date') return isDateText(t) ? { value: t } : number ? { value: n } : { error: 'Enter a date, e.g. 2024-01-31' };
  if (type === 'log') return number && n > 0 ? { value: Math.log10(n) } : { error: 'Enter a number above 0 (log axis)' };
  if (number) return { value: n };
  if ((type === undefined || type === '-') && isDateText(t)) return { value: t };
  return { error: type === 'category' || type === 'linear' ? 'Enter a number' : 'Enter a number or a date' };
}

/** An axis range end as the person reads it (a log axis's power of ten back to its value). */
export function formatRangeEnd(value: unknown, type: unknown): string {
  if (typeof value === 'number') return type === 'log' ? String(Number((10 ** value).toPrecision(12))) : String(value);
  return typeof value === 'string' ? value : '';
}

/**
 * An axis with both range ends given (a fixed range), or neither (autorange): what the Min and Max
 * fields write, one change for undo. Returns an error naming what is missing when one is empty.
 */
export function axisWithRange(axis: Record<string, unknown> | undefined, type: unknown, minText: string, maxText: string): Parsed<Record<string, unknown>> {
  const rest = { ...axis };
  delete rest.range;
  delete rest.autorange;
  if (!minText.trim() && !maxText.trim()) return { value: rest };
  if (!minText.trim() || !maxText.trim()) return { error: 'Give both the minimum and the maximum, or neither for automatic' };
  const min = parseRangeEnd(minText, type);
  if (min.error !== undefined) return { error: `Minimum: ${min.error}` };
  const max = parseRangeEnd(maxText, type);
  if (max.error !== undefined) return { error: `Maximum: ${max.error}` };
  return { value: { ...rest, range: [min.value, max.value], autorange: false } };
}

/** `obj` with `patch` applied: undefined values remove their keys. */
export function patched(obj: Record<string, unknown> | undefined, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...obj };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The legend preset a legend's position is, or 'custom'. */
export function legendPresetOf(legend: unknown): string {
  const l = (legend && typeof legend === 'object' ? legend : {}) as Record<string, unknown>;
  return LEGEND_PRESETS.find((p) => LEGEND_POSITION_KEYS.every((k) => l[k] === p.set[k]))?.value ?? 'custom';
}

/** The legend with `preset`'s position (its other settings, e.g. the title, kept). */
export function legendWithPreset(legend: unknown, preset: string): Record<string, unknown> {
  const set = LEGEND_PRESETS.find((p) => p.value === preset)?.set ?? {};
  const base = legend && typeof legend === 'object' ? (legend as Record<string, unknown>) : {};
  return patched(base, { ...Object.fromEntries(LEGEND_POSITION_KEYS.map((k) => [k, undefined])), ...set });
}

/** The layout with a fixed size (width, height, no autosize) or responsive (all three removed). */
export function layoutWithSize(layout: Record<string, unknown>, fixed: boolean): Record<string, unknown> {
  if (!fixed) return patched(layout, { autosize: undefined, width: undefined, height: undefined });
  const side = (v: unknown, dflt: number) => (typeof v === 'number' && v >= BOUNDS.side.min && v <= BOUNDS.side.max ? v : dflt);
  // plotly.js's own default size, what the chart showed before.
  return patched(layout, { autosize: false, width: side(layout.width, 700), height: side(layout.height, 450) });
}

/** Whether the layout is drawn at a fixed size: a width or height, not overridden by autosize. */
export function isFixedSize(layout: Record<string, unknown>): boolean {
  return layout.autosize !== true && (typeof layout.width === 'number' || typeof layout.height === 'number');
}

/** Structural equality of JSON values (themes are recognised by their template's content). */
export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && isDeepStrictEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Where an annotation is placed: 'paper' (the chart area, 0 to 1 each way), 'data' (axis values), else its refs, kept. */
export function annotationPlace(ann: Record<string, unknown>): string {
  const { xref, yref } = ann;
  if (xref === 'paper' && yref === 'paper') return 'paper';
  const axis = (ref: unknown, letter: string) => ref === undefined || (typeof ref === 'string' && new RegExp(`^${letter}([2-9]|[1-9]\\d+)?$`).test(ref));
  return axis(xref, 'x') && axis(yref, 'y') ? 'data' : `${String(xref)} ${String(yref)}`;
}

/** The annotation placed on `place`: on the chart area a position outside it moves to the middle. */
export function placedAnnotation(ann: Record<string, unknown>, place: string): Record<string, unknown> {
  if (place !== 'paper') return patched(ann, { xref: undefined, yref: undefined });
  const inside = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : 0.5);
  return { ...ann, xref: 'paper', yref: 'paper', x: inside(ann.x), y: inside(ann.y) };
}

/** An annotation's x or y: on the chart area a number, at data values a number or a date; '' removes it. */
export function parsePosition(text: string, place: string): Parsed<number | string | undefined> {
  if (!text.trim()) return { value: undefined };
  if (place === 'paper') {
    const n = Number(text);
    return Number.isFinite(n) ? { value: n } : { error: 'Enter a number: 0 is the left or bottom edge, 1 the right or top' };
  }
  return parseRangeEnd(text, undefined);
}

export const formatPosition = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : '');

/** A boolean attribute's value, or `dflt` when it sets none. */
export const bool = (v: unknown, dflt: boolean) => (typeof v === 'boolean' ? v : dflt);
