// JSON text under the API's rules (lib/core/json-text.ts): the nesting limit counted outside strings
// only (escapes included), and the characters Postgres cannot store refused, before any parse.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonText } from '@/lib/core/json-text';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const refusal = (text: string) => {
  try {
    parseJsonText(text);
    return null;
  } catch (error) {
    return (error as { errors: { message: string }[] }).errors[0].message;
  }
};

describe('nesting', () => {
  it.each([
    ['exactly the limit', nested(MAX_JSON_DEPTH), null],
    ['one level past it', nested(MAX_JSON_DEPTH + 1), `JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.`],
    [
      'objects count too',
      `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`,
      `JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.`,
    ],
    ['brackets inside strings do not count', JSON.stringify(['['.repeat(500), '{'.repeat(500)]), null],
    ['an escaped quote does not end a string', JSON.stringify([`\\"${'['.repeat(500)}`, 'x"[[[']), null],
    ['an escaped backslash before the closing quote', `["a\\\\", ${nested(MAX_JSON_DEPTH - 1)}]`, null],
    [
      'levels after a long run of numbers',
      `[${Array.from({ length: 10000 }, (_, i) => i).join(',')},${nested(MAX_JSON_DEPTH)}]`,
      `JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.`,
    ],
  ])('%s', (_, text, message) => {
    expect(refusal(text)).toBe(message);
  });

  it('an unterminated string is the parser’s to refuse', () => {
    expect(refusal('["abc')).toMatch(/^JSON parse error - /);
  });
});

describe('characters Postgres cannot store', () => {
  it.each([
    ['NUL', '["a\\u0000"]', 'JSON parse error - strings may not contain \\u0000.'],
    ['a lone high surrogate', '["\\ud800"]', 'JSON parse error - strings may not contain lone surrogate escapes.'],
    ['a lone low surrogate', '["\\udc00"]', 'JSON parse error - strings may not contain lone surrogate escapes.'],
    ['a pair', '["\\ud83d\\ude00"]', null],
    ['an escaped backslash before u0000', '["\\\\u0000"]', null],
  ])('%s', (_, text, message) => {
    expect(refusal(text)).toBe(message);
  });
});
