// The grid editor's page (`/~owner/n/edit` on a grid): the owner's own live grid, its columns (their
// data is fetched by the browser) and the base its save sends back (lib/core/grids/grids.ts saveGridEdits).
import 'server-only';
import type { OwnedFile } from '@/lib/core/files/files';
import { gridEditBase } from '@/lib/core/grids/grid-edits';
import { listGridColumns, type ColumnInfo } from '@/lib/core/grids/grids';
import { fidOf } from '@/lib/core/records';
import type { PageContext } from './page-context';

export interface GridEditorData {
  fid: string;
  owner: string;
  n: number;
  name: string;
  /** The grid's state when the page was made: a save based on another is refused. */
  base: string;
  cols: ColumnInfo[];
}

/** `/~owner/n/edit` on a grid the viewer may write (edit-page.ts checked it): its columns and the base its save sends back. */
export async function gridEditorOf(ctx: PageContext, file: OwnedFile): Promise<GridEditorData> {
  // The base first: data read after it can only be newer, so a stale base refuses, never overwrites.
  const base = await gridEditBase(ctx.db, file.id);
  const cols = (await listGridColumns(ctx.db, [file.id])).get(file.id) ?? [];
  return { fid: fidOf(file.owner, file.n), owner: file.owner, n: file.n, name: file.filename, base, cols };
}
