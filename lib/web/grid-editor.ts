// The grid editor's page (`/~owner/n/edit` on a grid): the owner's own live grid, its columns (their
// data is fetched by the browser) and the base its save sends back (lib/core/grids/grids.ts saveGridEdits).
import 'server-only';
import { cache } from 'react';
import { getFile } from '@/lib/core/files/files';
import { canWrite } from '@/lib/core/permissions';
import { gridEditBase } from '@/lib/core/grids/grid-edits';
import { listGridColumns, type ColumnInfo } from '@/lib/core/grids/grids';
import { fidOf, parseFid } from '@/lib/core/records';
import { pageContext } from './page-context';

export interface GridEditorData {
  fid: string;
  owner: string;
  n: number;
  name: string;
  /** The grid's state when the page was made: a save based on another is refused. */
  base: string;
  cols: ColumnInfo[];
}

/**
 * A grid at `/~owner/n/` the viewer owns or writes, or null for anything else (signed out, a plot, another's
 * file: the plot editor's loader answers those, with its sign-in and 404). Cached per request.
 */
export const loadGridEditor = cache(async (owner: string, n: string): Promise<GridEditorData | null> => {
  const ctx = await pageContext();
  const fid = parseFid(`${owner}:${n}`);
  if (!fid || !ctx.viewer) return null;
  const file = await getFile(ctx.db, fid, ctx.viewer);
  if (file?.filetype !== 'grid' || !canWrite(file, ctx.viewer)) return null;
  // The base first: data read after it can only be newer, so a stale base refuses, never overwrites.
  const base = await gridEditBase(ctx.db, file.id);
  const cols = (await listGridColumns(ctx.db, [file.id])).get(file.id) ?? [];
  return { fid: fidOf(file.owner, file.n), owner: file.owner, n: file.n, name: file.filename, base, cols };
});
