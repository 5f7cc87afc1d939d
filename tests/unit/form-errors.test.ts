// The API's errors as the web's forms say them (lib/web/forms.ts errorSentences): no field names or
// JSON paths a client needs and a person does not, each a sentence; and a form's fields read schema
// first (readForm), its first refused field the refusal.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, apiError, invalid, invalidMany } from '@/lib/core/errors';
import { checkbox, errorSentences, fidField, readForm, textField } from '@/lib/web/forms';

describe('form errors read as sentences', () => {
  it.each([
    ['a field', invalid('filename', "Sorry, a file named 'x' already exists"), "Sorry, a file named 'x' already exists."],
    ['a JSON path', invalid('figure.data[0].y', 'must be a src, not values'), 'Must be a src, not values.'],
    ['the body', invalid(null, 'expected a JSON object'), 'Expected a JSON object.'],
    ['a sentence already', invalid('parent', 'a folder cannot move into itself.'), 'A folder cannot move into itself.'],
    ['no field', apiError(404, 'NOT_FOUND', 'Not found.'), 'Not found.'],
    [
      'several',
      invalidMany([
        { field: 'title', message: 'at most 256 characters' },
        { field: 'caption', message: 'at most 2048 characters' },
      ]),
      'At most 256 characters. At most 2048 characters.',
    ],
    ['a field named inside the text is kept', invalid('path', 'the path: a/b has no folder'), 'The path: a/b has no folder.'],
  ])('%s', (_, error, sentence) => {
    expect(errorSentences(error)).toBe(sentence);
  });
});

describe('a form read schema first (readForm, as formAction reads it)', () => {
  const form = (fields: [string, string][]) => {
    const data = new FormData();
    for (const [name, value] of fields) data.append(name, value);
    return data;
  };
  const schema = z.object({ fid: fidField, name: textField(z.string().min(1, 'enter a name')), n: z.array(z.string()).optional(), sure: checkbox });
  const refusal = (fields: [string, string][]) => {
    try {
      readForm(schema, form(fields));
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      return errorSentences(e as ApiError);
    }
    return null;
  };

  it('reads each field, a repeated one as a list, a left-out text as empty and a box as ticked or not', () => {
    const read = readForm(
      schema,
      form([
        ['fid', 'ann:3'],
        ['name', 'x'],
        ['n', '1'],
        ['n', '2'],
        ['sure', 'yes'],
      ]),
    );
    expect(read).toEqual({ fid: { owner: 'ann', n: 3 }, name: 'x', n: ['1', '2'], sure: true });
    expect(readForm(z.object({ name: textField(z.string()), sure: checkbox }), form([]))).toEqual({ name: '', sure: false });
  });

  it('refuses with the first field it refuses, in that field’s words, as checking them in order by hand would', () => {
    expect(
      refusal([
        ['fid', 'not a fid'],
        ['name', ''],
      ]),
    ).toBe('Not found.');
    expect(refusal([['name', 'x']])).toBe('Not found.');
    expect(
      refusal([
        ['fid', 'ann:3'],
        ['name', ''],
      ]),
    ).toBe('Enter a name.');
    expect(refusal([['fid', 'ann:3']])).toBe('Enter a name.');
  });
});
