// The API's errors as the web's forms say them (lib/web/forms.ts errorSentences): no field names or
// JSON paths a client needs and a person does not, each a sentence.
import { describe, expect, it } from 'vitest';
import { apiError, invalid, invalidMany } from '@/lib/core/errors';
import { errorSentences } from '@/lib/web/forms';

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
