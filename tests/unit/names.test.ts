// File names made for people (issue 37 point 6): a chart's title as its file's name, and the numbered
// forms a taken name takes, within the file name's own rules.
import { describe, expect, it } from 'vitest';
import { MAX_FILENAME_CHARS } from '@/lib/shared/limits';
import { filenameSchema, nameFromTitle, numberedName } from '@/lib/shared/names';

describe('names', () => {
  it.each([
    ['Sales by city', 'Sales by city'],
    ['  Profit / loss\n2024 ', 'Profit - loss 2024'],
    ['\u0007\t', 'Untitled chart'],
    ['', 'Untitled chart'],
  ])('the title %j names the file %j', (title, name) => {
    expect(nameFromTitle(title, 'Untitled chart')).toBe(name);
    expect(filenameSchema.safeParse(name).success).toBe(true);
  });

  it('a long title is cut to a file name; its numbered forms still fit', () => {
    const long = nameFromTitle('x'.repeat(MAX_FILENAME_CHARS + 40), 'fallback');
    expect(long).toHaveLength(MAX_FILENAME_CHARS);
    expect(numberedName(long, 12)).toBe(`${'x'.repeat(MAX_FILENAME_CHARS - 5)} (12)`);
    expect(filenameSchema.safeParse(numberedName(long, 12)).success).toBe(true);
  });

  it('the first form is the name itself, then (2), (3)…', () => {
    expect([1, 2, 3].map((i) => numberedName('sales', i))).toEqual(['sales', 'sales (2)', 'sales (3)']);
  });
});
