// The import's fast reader (components/data-import/byte-table.ts) against the general one it stands in
// for: for files it reads, the same cells, rows, blank lines and column types as papaparse plus
// TypeTally; a plain number column's JSON is its cells joined; the same refusals; and the files it
// leaves to the general parser.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { NotSimple, readByteTable, TableError } from '@/components/data-import/byte-table';
import { columnJson, TypeTally } from '@/components/data-import/table-data';

const limits = { maxColumns: 4, maxRows: 5 };
const bytes = (text: string) => new TextEncoder().encode(text);
const read = (text: string, delimiter = ',') => readByteTable(bytes(text), 0, delimiter.charCodeAt(0), limits, () => {});

/** What the general path keeps: papaparse's rows, blank lines skipped (and where), each column's tally. */
function general(text: string, delimiter: string) {
  const rows = Papa.parse<string[]>(text, { delimiter }).data;
  const kept: string[][] = [];
  const blanks: number[] = [];
  for (const row of rows) {
    if (row.length === 1 && row[0] === '') blanks.push(kept.length);
    else kept.push(row);
  }
  const tallies = kept[0].map((_, k) => {
    const tally = new TypeTally();
    for (const row of kept.slice(1)) tally.add(row[k]);
    return tally;
  });
  return { kept, blanks, tallies };
}

describe('the fast reader reads what the general parser reads', () => {
  it.each([
    ['numbers with a header', 'a,b\n1,2.5\n-3,4e2\n'],
    ['no final newline', 'a,b\n1,2\n3,4'],
    ['CRLF lines', 'x,y\r\n1,2\r\n3,4\r\n'],
    ['blank lines', 'x,y\n\n1,2\n\n\n3,4\n'],
    ['empty cells and spaces', 'x,y\n1,\n ,2\n 3 ,4\n'],
    ['dates and text', 'd,t\n2024-01-31,hello\n2024-02-01,world\n'],
    ['numbers not written as JSON writes them', 'n\n007\n+5\n.5\n1e-100\n'],
    ['a first row of numbers', '1,2\n3,4\n'],
    ['tabs', 'a\tb\n1\t2\n', '\t'],
    ['semicolons', 'a;b\n1,5;2\n', ';'],
  ])('%s', (_, text, delimiter = ',') => {
    const t = read(text, delimiter);
    const g = general(text, delimiter);
    expect(t.rows).toBe(g.kept.length);
    expect(t.width).toBe(g.kept[0].length);
    expect(t.blanks).toEqual(g.blanks);
    for (let k = 0; k < t.width; k++) {
      expect(t.column(k)).toEqual(g.kept.map((row) => row[k]));
      expect({ ...t.tallies[k] }).toEqual({ ...g.tallies[k] });
      const cells = g.kept.slice(1).map((row) => row[k]);
      if (t.isPlain(k, 1)) expect(new TextDecoder().decode(t.plainJson(k, 1))).toBe((columnJson(cells, 'number') as { text: string }).text);
    }
  });

  it('a plain column is sent as written, with or without its first row', () => {
    const t = read('1,a\n2.50,b\n-3e5,c\n');
    expect(t.isPlain(0, 1)).toBe(true);
    expect(new TextDecoder().decode(t.plainJson(0, 1))).toBe('[2.50,-3e5]');
    expect(new TextDecoder().decode(t.plainJson(0, 0))).toBe('[1,2.50,-3e5]');
    expect(t.isPlain(1, 1)).toBe(false);
    expect(read('x\n1\n').isPlain(0, 0)).toBe(false);
    // Not finite, or not written as JSON writes numbers: the general check decides.
    expect(read('x\n1e400\n').isPlain(0, 1)).toBe(false);
    expect(read('x\n01\n').isPlain(0, 1)).toBe(false);
    expect(read(`x\n${'9'.repeat(400)}\n`).isPlain(0, 1)).toBe(false);
  });
});

describe('refusals and hand-offs', () => {
  it.each([
    ['a ragged row', 'a,b\n1,2\n3\n', 'Row 3 has 1 cell, but the first row has 2: every row needs one cell per column.'],
    ['a ragged row after blank lines', 'a,b\n\n1,2,3\n', 'Row 3 has 3 cells, but the first row has 2: every row needs one cell per column.'],
    ['too many columns', 'a,b,c,d,e,f\n', 'The first row has 6 cells; a grid holds at most 4 columns.'],
    ['too many rows', 'a\n1\n2\n3\n4\n5\n6\n7\n', 'The data has more than 5 rows after the header; a grid holds at most that many.'],
    ['only blank cells', ' , \n\n,\n', 'The file is empty: it holds no data, only blank lines.'],
  ])('%s', (_, text, message) => {
    expect(() => read(text)).toThrow(new TableError(message));
  });

  it.each([
    ['quotes', 'a,b\n"1,5",2\n'],
    ['a lone carriage return', 'a,b\r1,2\r'],
    ['text outside ASCII', 'name\nZoë\n'],
  ])('%s go to the general parser', (_, text) => {
    expect(() => read(text)).toThrow(NotSimple);
  });
});
