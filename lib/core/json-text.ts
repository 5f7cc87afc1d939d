// JSON text under the API's rules, wherever it comes from (request bodies, grid data sent as a
// string): at most MAX_JSON_DEPTH levels, no `__proto__`, no NUL characters or lone surrogates
// (Postgres cannot store them), repeated column names kept; and zod validation naming each field.
import sjson from 'secure-json-parse';
import type { z } from 'zod';
import { invalidMany, parseError } from './errors';

export const MiB = 1024 * 1024;
export const MAX_JSON_DEPTH = 100;

/** Parses JSON text under the same rules as bodies (used too for grid data sent as a string). */
export function parseJsonText(text: string, what = 'the request body'): unknown {
  if (!text.trim()) throw parseError(`JSON parse error - ${what} is empty.`);
  checkDepth(text);
  checkEscapes(text);
  try {
    return sjson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw parseError(`JSON parse error - ${(error as Error).message}`);
  }
}

/**
 * Postgres cannot store NUL characters or unpaired surrogates (JSON.parse accepts both): refuse
 * them up front. Escapes are read in order, so an escaped backslash never starts one.
 */
function checkEscapes(text: string): void {
  let pendingHigh = -1;
  for (const m of text.matchAll(/\\(?:u([0-9a-fA-F]{4})|[^u])/g)) {
    const code = m[1] ? parseInt(m[1], 16) : -1;
    if (pendingHigh >= 0 && !(m.index === pendingHigh && code >= 0xdc00 && code <= 0xdfff)) throw loneSurrogate();
    if (pendingHigh >= 0) {
      pendingHigh = -1;
      continue;
    }
    if (code === 0) throw parseError('JSON parse error - strings may not contain \\u0000.');
    if (code >= 0xd800 && code <= 0xdbff) pendingHigh = m.index + m[0].length;
    else if (code >= 0xdc00 && code <= 0xdfff) throw loneSurrogate();
  }
  if (pendingHigh >= 0) throw loneSurrogate();
}

const loneSurrogate = () => parseError('JSON parse error - strings may not contain lone surrogate escapes.');

// The characters that open or close a level, or a string (whose contents are skipped).
const STRUCTURE = /["[\]{}]/g;
// The rest of a string after its opening quote, through its closing one.
const STRING_REST = /[^"\\]*(?:\\[\s\S][^"\\]*)*"/y;

/** Rejects nesting deeper than MAX_JSON_DEPTH before parsing, in one pass over the text (the regular
 * expressions skip runs of numbers and string contents far faster than a loop over each character). */
function checkDepth(text: string): void {
  let depth = 0;
  STRUCTURE.lastIndex = 0;
  for (let m = STRUCTURE.exec(text); m; m = STRUCTURE.exec(text)) {
    const c = text.charCodeAt(m.index);
    if (c === 34) {
      STRING_REST.lastIndex = m.index + 1;
      // An unterminated string: the parser says so.
      if (!STRING_REST.test(text)) return;
      STRUCTURE.lastIndex = STRING_REST.lastIndex;
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) throw parseError(`JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.`);
    } else depth--;
  }
}

/**
 * Renames repeated keys of the object at `path` ("x", "x" -> "x", "x (2)") in JSON text, where
 * JSON.parse would keep only the last. Malformed text is returned as is for the parser to reject.
 */
export function renameRepeatedKeys(text: string, path: string[]): string {
  interface Frame {
    object: boolean;
    key: string | null;
    expectKey: boolean;
    seen: Map<string, number> | null;
  }
  const stack: Frame[] = [];
  const edits: { start: number; end: number; value: string }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 34) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      if (top?.object && top.expectKey) {
        top.key = text.slice(start, i + 1);
        top.expectKey = false;
        if (top.seen) {
          const count = (top.seen.get(top.key) ?? 0) + 1;
          top.seen.set(top.key, count);
          if (count > 1) {
            try {
              edits.push({ start, end: i + 1, value: JSON.stringify(`${JSON.parse(top.key)} (${count})`) });
            } catch {
              return text;
            }
          }
        }
      }
    } else if (c === 123 || c === 91) {
      const atPath = c === 123 && stack.length === path.length && stack.every((f, d) => f.object && f.key !== null && f.key === JSON.stringify(path[d]));
      stack.push({ object: c === 123, key: null, expectKey: c === 123, seen: atPath ? new Map() : null });
    } else if (c === 125 || c === 93) stack.pop();
    else if (c === 44 && top?.object) top.expectKey = true;
  }
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.value + out.slice(e.end);
  return out;
}

/** Parses with zod, turning its issues into the contract's 400 naming each field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidMany(
    result.error.issues.slice(0, 20).map((issue) => ({
      field: fieldPath(prefix, issue.path) || 'body',
      message: issue.message,
    })),
  );
}

/** `cols[1].name`: object keys joined with dots, array indexes in brackets (the contract's JSON paths). */
function fieldPath(prefix: string, path: PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), prefix);
}
