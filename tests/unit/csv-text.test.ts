// The one CSV writer (lib/shared/csv-text.ts): the server's downloads and the grid editor's "Download
// CSV" make every field with it, so a cell reads the same from both, formulas neutralised alike.
import { describe, expect, it } from 'vitest';
import { csvParts } from '@/components/grid-editor/grid-text';
import { csvCell, csvLine } from '@/lib/shared/csv-text';
import { csvField } from '@/lib/web/csv';

/** [the cell's value, its field]: a string is text (neutralised when a spreadsheet would run it), anything else is not. */
const TABLE: [unknown, string][] = [
  ['plain', 'plain'],
  ['', ''],
  ['a,b', '"a,b"'],
  ['say "hi"', '"say ""hi"""'],
  ['two\nlines', '"two\nlines"'],
  ['=1+1', "'=1+1"],
  ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
  ['+1', "'+1"],
  ['-2+3', "'-2+3"],
  ['-2', "'-2"],
  ['@SUM(A1)', "'@SUM(A1)"],
  ['\tx', "'\tx"],
  ['\rx', `"'\rx"`],
  ['a=b', 'a=b'],
  [' =1', ' =1'],
  [-2, '-2'],
  [1.5, '1.5'],
  [true, 'true'],
];

describe('csvCell: one field, by what the cell holds', () => {
  it.each(TABLE)('%j -> %j', (value, field) => {
    const text = typeof value === 'string' ? value : String(value);
    expect(csvCell(text, typeof value === 'string')).toBe(field);
  });
});

describe('the server and the grid editor write every cell alike', () => {
  it.each(TABLE)('%j', (value, field) => {
    // The server reads a value's JSON text; the editor holds the value.
    expect(csvField(JSON.stringify(value))).toBe(field);
    const editor = csvParts({ names: ['c'], columns: [[value]], rows: 1 }).join('');
    expect(editor).toBe(csvLine(['c']) + csvLine([field]));
  });

  it('column names are text too, and lines end in CRLF', () => {
    expect(csvParts({ names: ['=cmd', 'b'], columns: [new Float64Array([-1, Number.NaN]), ['-x', null]], rows: 2 }).join('')).toBe(
      "'=cmd,b\r\n-1,'-x\r\n,\r\n",
    );
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });
});
