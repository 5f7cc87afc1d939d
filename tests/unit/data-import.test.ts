// The data import's rules (components/data-import/table-data.ts): each cell's kind and a column's
// detected type, the json text stored for each type (or the cell at fault), header names, and where
// bytes stop being UTF-8.
import { describe, expect, it } from 'vitest';
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';
import { columnNameSchema } from '@/lib/shared/names';
import { cellKind, columnJson, columnNames, columnProblem, dateText, firstBadByte, TypeTally, typeWithFirst } from '@/components/data-import/table-data';

describe('cell kinds', () => {
  it.each([
    ['', 'empty'],
    ['  ', 'empty'],
    ['0', 'number'],
    ['-2e3', 'number'],
    ['+5', 'number'],
    ['.5', 'number'],
    ['5.', 'number'],
    [' 12 ', 'number'],
    ['007', 'number'],
    ['1e400', 'text'],
    ['0x1F', 'text'],
    ['0b101', 'text'],
    ['Infinity', 'text'],
    ['NaN', 'text'],
    ['1,5', 'text'],
    ['2024-01-31', 'date'],
    ['2024-1-5', 'date'],
    ['2024-01', 'date'],
    ['2024-01-31 23:59:59', 'date'],
    ['2024-01-31T08:00', 'date'],
    ['2024-01-31 08:00:00.25Z', 'date'],
    ['2024-13-01', 'text'],
    ['2024-01-32', 'text'],
    ['31/01/2024', 'text'],
    ['2024', 'number'],
    ['Oslo', 'text'],
  ])('%j is %s', (cell, kind) => expect(cellKind(cell)).toBe(kind));
});

describe('detected types', () => {
  const detect = (cells: string[]) => {
    const tally = new TypeTally();
    for (const c of cells) tally.add(c);
    return tally.type();
  };
  it('number or date when every non-empty cell is one, else text', () => {
    expect(detect(['1', '', '2.5'])).toBe('number');
    expect(detect(['2024-01-01', '', '2024-02-01 10:00'])).toBe('date');
    expect(detect(['1', '2024-01-01'])).toBe('text');
    expect(detect(['1', 'x'])).toBe('text');
    expect(detect(['', ''])).toBe('text');
  });
  it('the first row joins the column when it is data', () => {
    const tally = new TypeTally();
    for (const c of ['1', '2']) tally.add(c);
    expect(typeWithFirst(tally, 'price')).toBe('text');
    expect(typeWithFirst(tally, '0')).toBe('number');
    expect(tally.type()).toBe('number');
  });
  it('a column is plain (sent as its cells joined) only when every cell is written as JSON writes numbers', () => {
    const plain = (cells: string[]) => {
      const tally = new TypeTally();
      for (const c of cells) tally.add(c);
      return tally.plain;
    };
    expect(plain(['1', '-2.5', '3e5'])).toBe(true);
    expect(plain(['1', ''])).toBe(false);
    expect(plain(['1', '007'])).toBe(false);
    expect(plain(['1', '+2'])).toBe(false);
    expect(plain(['1', ' 2'])).toBe(false);
  });
});

describe('column json', () => {
  it('numbers as JSON numbers (as written when they are one), empty cells as ""', () => {
    expect(columnJson(['1', ' 2.50 ', '+3', '.5', '', '-0'], 'number')).toEqual({ text: '[1,2.50,3,0.5,"",-0]' });
    expect(JSON.parse((columnJson(['1', '2.50', '1e3'], 'number', true) as { text: string }).text)).toEqual([1, 2.5, 1000]);
  });
  it('the plain path gives what the checked path gives', () => {
    const cells = ['0', '-1.25', '3e-7', '12345678901234567890'];
    expect(columnJson(cells, 'number', true)).toEqual(columnJson(cells, 'number'));
  });
  it('dates and text as strings, text as given', () => {
    expect(columnJson(['2024-01-01', ' 2024-02-01 10:00 ', ''], 'date')).toEqual({ text: '["2024-01-01","2024-02-01 10:00",""]' });
    expect(columnJson(['007', ' a "b" ', ''], 'text')).toEqual({ text: '["007"," a \\"b\\" ",""]' });
  });
  it('the first cell that cannot be of the type, by index', () => {
    expect(columnJson(['1', 'x', 'y'], 'number')).toEqual({ index: 1, message: "'x' is not a number" });
    expect(columnJson(['1e400'], 'number')).toMatchObject({ index: 0 });
    expect(columnJson(['2024-01-01', '01/02/2024'], 'date')).toMatchObject({ index: 1, message: expect.stringContaining("'01/02/2024' is not a date") });
    expect(columnProblem(['1', '', 'x'], 'number')).toEqual({ index: 2, message: "'x' is not a number" });
    expect(columnProblem(['1', 'x'], 'text')).toBeNull();
  });
  it('a text cell over the API limit (64 KiB) is refused before anything is sent', () => {
    const long = 'é'.repeat(40 * 1024);
    expect(columnJson(['a', long], 'text')).toMatchObject({ index: 1, message: expect.stringContaining('64 KiB') });
    expect(columnProblem([long], 'text')).toMatchObject({ index: 0 });
    expect(columnProblem(['a'.repeat(64 * 1024)], 'text')).toBeNull();
  });
});

describe('names and bytes', () => {
  it('header names: blanks named by place, repeats numbered, no header: Column n', () => {
    expect(columnNames(['x', '', 'x', ' y '], 4)).toEqual(['x', 'Column 2', 'x (2)', 'y']);
    expect(columnNames(null, 2)).toEqual(['Column 1', 'Column 2']);
  });
  it('header names fit a column name, numbered repeats of the longest included', () => {
    const long = 'n'.repeat(MAX_COLUMN_NAME_CHARS + 10);
    const names = columnNames([long, long], 2);
    expect(names.map((n) => columnNameSchema.safeParse(n).success)).toEqual([true, true]);
    expect(names[1].endsWith(' (2)')).toBe(true);
    expect(new Set(names).size).toBe(2);
  });
  it('the first byte that is not UTF-8, and none in UTF-8 text', () => {
    const enc = new TextEncoder();
    expect(firstBadByte(enc.encode('héllo, wörld'))).toBe(-1);
    expect(firstBadByte(Uint8Array.from([...enc.encode('ab\n'), 0xfc, 0x41]))).toBe(3);
    // A character cut at the very end is incomplete, not bad... until the bytes end: then it is bad.
    expect(firstBadByte(Uint8Array.from([0x41, 0xc3]))).toBe(1);
    expect(firstBadByte(Uint8Array.from([0x41, 0xe2, 0x82, 0x41]))).toBe(3);
  });
  it('xlsx dates as plotly reads them', () => {
    expect(dateText(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02');
    expect(dateText(new Date(Date.UTC(2024, 0, 2, 12, 30, 5)))).toBe('2024-01-02 12:30:05');
  });
});
