// The rules the browser shares with the server (lib/shared): the sharing words say who can see a file,
// people it is shared with included, and the components take their limits and words from there
// instead of writing copies (three had drifted: a dashboard name of 256 characters, "Only you can see
// it" on files shared with people).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_COLUMN_NAME_CHARS, MAX_FILENAME_CHARS } from '@/lib/shared/limits';
import { columnNameSchema, filenameSchema } from '@/lib/shared/names';
import { VISIBILITIES, VISIBILITY_LABEL, visibilityHint, visibilityOf } from '@/lib/shared/sharing';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });

describe('the sharing words', () => {
  it('name each visibility, as the badges and forms show it', () => {
    expect(VISIBILITIES.map((v) => VISIBILITY_LABEL[v])).toEqual(['Public', 'Private', 'Secret link']);
    expect([visibilityOf(true, false), visibilityOf(false, false), visibilityOf(false, true), visibilityOf(true, true)]).toEqual([
      'public',
      'private',
      'secret',
      'public',
    ]);
  });

  it.each([
    ['public', true, 'Anyone can see this plot.'],
    ['private', true, 'Only you and the people you share it with can see this plot.'],
    ['secret', true, 'Only you, the people you share it with and whoever has its secret link can see this plot.'],
    ['private', false, 'Only its owner and the people it is shared with can see this plot.'],
    ['secret', false, 'Only its owner, the people it is shared with and whoever has its secret link can see this plot.'],
  ] as const)('%s, to its owner: %s', (visibility, own, hint) => {
    expect(visibilityHint(visibility, { noun: 'plot', own })).toBe(hint);
  });

  it('never tell anyone that only the owner sees a file people may be shared', () => {
    for (const v of VISIBILITIES) for (const own of [true, false]) expect(visibilityHint(v, { own })).not.toMatch(/only (you|its owner) can/i);
    expect(visibilityHint('private')).toBe('Only its owner and the people it is shared with can see this file.');
  });
});

describe('names and limits', () => {
  it('a file name and a column name hold to their limits', () => {
    expect(filenameSchema.safeParse('x'.repeat(MAX_FILENAME_CHARS)).success).toBe(true);
    expect(filenameSchema.safeParse('x'.repeat(MAX_FILENAME_CHARS + 1)).success).toBe(false);
    expect(MAX_FILENAME_CHARS).toBe(255);
    expect(columnNameSchema.safeParse('c'.repeat(MAX_COLUMN_NAME_CHARS)).success).toBe(true);
    expect(columnNameSchema.safeParse('c'.repeat(MAX_COLUMN_NAME_CHARS + 1)).success).toBe(false);
    expect(columnNameSchema.safeParse('').success).toBe(false);
  });
});

describe('components take the shared rules, never copies', () => {
  const files = sources('components').map((f) => [f, readFileSync(f, 'utf8')] as const);
  const copies = (test: RegExp) => files.filter(([, text]) => test.test(text)).map(([f]) => f);
  const LIMIT = /(max|min)Length=\{\s*\d/;
  const HINT = /only you can see|only people with (its|the) secret link/i;

  it('a field’s length limit is imported (lib/shared/limits.ts), never written as a number', () => {
    expect(copies(LIMIT)).toEqual([]);
    expect(['<input maxLength={255} />', '<input maxLength={MAX_FILENAME_CHARS} />'].map((t) => LIMIT.test(t))).toEqual([true, false]);
  });

  it('sharing hints are lib/shared/sharing.ts’s', () => {
    expect(copies(HINT)).toEqual([]);
    expect(HINT.test("hint: 'Only you can see it.'")).toBe(true);
  });
});
