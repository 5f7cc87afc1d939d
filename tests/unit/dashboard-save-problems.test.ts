// A refused dashboard save's problems where the builder shows them (lib/web/dashboard-builder.ts
// problemsOf): the API's errors on the content placed at their box (by its path in the layout), the
// title, the file name or the sharing, in a person's words.
import { describe, expect, it } from 'vitest';
import { invalid, invalidMany } from '@/lib/core/errors';
import { problemsOf } from '@/lib/web/dashboard-builder';

describe('dashboard save problems', () => {
  it('puts each problem at its box or field', () => {
    const e = invalidMany([
      { field: 'content.layout.first.second.fileId', message: "'ann:7' is not a plot you can read" },
      { field: 'content.layout.text', message: 'at most 65536 characters' },
      { field: 'content.settings.title', message: 'must be a string' },
      { field: 'filename', message: "a file named 'x' already exists" },
      { field: 'content.layout', message: 'at most 100 boxes in a dashboard' },
    ]);
    expect(problemsOf(e)).toEqual([
      { field: 'box:first.second', message: 'The plot ann:7 is not one you can see (any more): remove this box, or ask its owner to share the plot with you.' },
      { field: 'box:root', message: 'At most 65536 characters' },
      { field: 'title', message: 'Must be a string' },
      { field: 'filename', message: "A file named 'x' already exists" },
      { field: 'content', message: 'At most 100 boxes in a dashboard' },
    ]);
  });

  it('keeps a problem of no place as a sentence of its own', () => {
    expect(problemsOf(invalid(null, 'the body is not JSON'))).toEqual([{ field: null, message: 'The body is not JSON.' }]);
  });
});
