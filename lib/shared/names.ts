// Names as written, pure: a file's name, a folder path and a grid column's name. The server's schemas,
// also read off the event loop in the body worker that checks large grid bodies (lib/http/grid-bodies.ts);
// the editors' and the import's name fields hold to the same limits (lib/shared/limits.ts).
import { z } from 'zod';
import { MAX_COLUMN_NAME_CHARS, MAX_FILENAME_CHARS, MAX_PATH_CHARS, MAX_PATH_LEVELS } from './limits';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what a name may not hold
const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

export const filenameSchema = z
  .string()
  .trim()
  .min(1, 'may not be blank')
  .max(MAX_FILENAME_CHARS, `at most ${MAX_FILENAME_CHARS} characters`)
  .refine((s) => !s.includes('/'), 'may not contain "/"')
  .refine(noControl, 'may not contain control characters')
  .meta({ description: `the file's name: 1..${MAX_FILENAME_CHARS} characters, no \`/\`, unique among the owner's live files in its folder` });

export const pathSchema = z
  .string()
  .max(MAX_PATH_CHARS, `at most ${MAX_PATH_CHARS} characters`)
  .refine(noControl, 'may not contain control characters')
  .transform((s) => s.split('/').filter(Boolean))
  .refine((parts) => parts.every((p) => p.length <= MAX_FILENAME_CHARS && p !== '.' && p !== '..'), 'invalid folder name')
  .refine((parts) => parts.length <= MAX_PATH_LEVELS, `at most ${MAX_PATH_LEVELS} levels`)
  .meta({ description: `a path of folder names, \`a/b\` (at most ${MAX_PATH_LEVELS} levels)` });

/** A grid column's name (unique in its grid, which the grid's writes check). */
export const columnNameSchema = z.string().min(1, 'may not be empty').max(MAX_COLUMN_NAME_CHARS, `at most ${MAX_COLUMN_NAME_CHARS} characters`);

/** A copy's or a taken name's `i`th form (`sales`, `sales (2)`, `sales (3)`…), cut so it fits a file name. */
export function numberedName(base: string, i: number): string {
  const suffix = i <= 1 ? '' : ` (${i})`;
  return `${base.slice(0, MAX_FILENAME_CHARS - suffix.length).trimEnd()}${suffix}`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what a name may not hold
const CONTROLS = /[\u0000-\u001f\u007f]+/g;

/** A file name made of a chart's title: one line, no `/` or control characters, within the limit; `fallback` when nothing is left. */
export function nameFromTitle(title: string, fallback: string): string {
  const name = title.replace(CONTROLS, ' ').replace(/\//g, '-').replace(/\s+/g, ' ').trim().slice(0, MAX_FILENAME_CHARS).trimEnd();
  return name || fallback;
}
