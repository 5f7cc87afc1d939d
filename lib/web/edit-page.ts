// `/~owner/n/edit`: one loader for the page, whichever editor its file opens in: the chart editor on a
// plot, the data editor on a grid, the dashboard builder on a dashboard, the deck editor on a presentation. The file is looked up and
// checked once; editors are for its owner and writers (anyone else's file is the 404 of a missing one).
import 'server-only';
import { cache } from 'react';
import { getFile } from '@/lib/core/files/files';
import { canWrite, readableAs } from '@/lib/core/permissions';
import { parseFid } from '@/lib/core/records';
import { editPlotPath } from '@/lib/shared/urls';
import { type EditorData, plotEditorOf } from './chart-editor';
import { dashboardEditorOf } from './dashboard-builder';
import { type DeckEditorData, presentationEditorOf } from './deck-editor';
import { gridEditorOf, type GridEditorData } from './grid-editor';
import { isSignedIn, pageContext, signedInPage } from './page-context';

type BuilderData = NonNullable<Awaited<ReturnType<typeof dashboardEditorOf>>>;

export type EditPage =
  | { kind: 'grid'; data: GridEditorData }
  | { kind: 'dashboard'; data: BuilderData }
  | { kind: 'presentation'; data: DeckEditorData }
  | { kind: 'plot'; data: EditorData };

/** The file's editor for a signed-in person who may write it (a signed-out visitor signs in first); null for the 404. Once a request. */
export const loadEditPage = cache(async (owner: string, n: string): Promise<EditPage | null> => {
  const fid = parseFid(`${owner}:${n}`);
  if (!fid) return null;
  const ctx = await signedInPage(editPlotPath(fid.owner, fid.n));
  const file = readableAs(await getFile(ctx.db, fid, ctx.viewer), ctx.viewer);
  if (!file || !canWrite(file, ctx.viewer)) return null;
  if (file.filetype === 'grid') return { kind: 'grid', data: await gridEditorOf(ctx, file) };
  if (file.filetype === 'dashboard') {
    const data = await dashboardEditorOf(ctx, file);
    return data && { kind: 'dashboard', data };
  }
  if (file.filetype === 'spectacle_presentation') {
    const data = await presentationEditorOf(ctx, file);
    return data && { kind: 'presentation', data };
  }
  if (file.filetype !== 'plot') return null;
  const data = await plotEditorOf(ctx, file);
  return data && { kind: 'plot', data };
});

/** The edit page's title: its editor's (a signed-out visitor, who signs in first, has the chart editor's). */
export async function editPageTitle(owner: string, n: string): Promise<string> {
  const page = isSignedIn(await pageContext()) ? await loadEditPage(owner, n) : null;
  if (page?.kind === 'grid') return `Edit data: ${page.data.name}`;
  if (page?.kind === 'dashboard') return `Edit dashboard: ${page.data.filename}`;
  if (page?.kind === 'presentation') return `Edit presentation: ${page.data.filename}`;
  return 'Edit chart';
}
