// What the import page and its parsing worker say to each other. The table itself stays in the
// worker (a million rows never cross to the page): the page gets a preview and sends choices.
import type { Visibility } from '@/lib/shared/sharing';
import type { ColumnType } from './table-data';

export type Sharing = Visibility;

export type ToWorker =
  | { type: 'file'; file: File }
  | { type: 'paste'; text: string }
  /** Another sheet of the .xlsx file read. */
  | { type: 'sheet'; sheet: string }
  | { type: 'check'; header: boolean; types: ColumnType[] }
  | { type: 'import'; header: boolean; types: ColumnType[]; filename: string; sharing: Sharing };

export interface TablePreview {
  /** The data's name: the file name without its extension, or "Pasted data". */
  name: string;
  /** The first rows as read, the first row included. */
  rows: string[][];
  /** Rows in all, the first row included. */
  rowCount: number;
  width: number;
  /** Each column's type detected when the first row is the header, and when it is data. */
  detected: { header: ColumnType[]; data: ColumnType[] };
  /** Whether the first row looks like a header. */
  header: boolean;
  /** The sheet read (an .xlsx file). */
  sheet: string | null;
  /** An .xlsx file's sheets, in order, each with why it cannot be imported in a word or two (null: it can). */
  sheets: { name: string; note: string | null }[];
}

export type FromWorker =
  | { type: 'progress'; phase: 'read' | 'store'; fraction: number }
  | { type: 'table'; table: TablePreview }
  | { type: 'checked'; problems: (string | null)[] }
  /** Bad input: nothing was written. `field`: 'filename' when the name is at fault. */
  | { type: 'error'; message: string; field?: 'filename' }
  | { type: 'stored'; owner: string; n: number };
