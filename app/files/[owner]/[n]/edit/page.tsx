import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { checkFigureAction, choosePlotsAction, followSharingAction, saveDashboardAction, savePresentationAction } from '@/app/_actions/editors';
import { ChartEditor } from '@/components/chart-editor/chart-editor';
import { DashboardBuilder } from '@/components/dashboard-builder/dashboard-builder';
import { DeckEditor } from '@/components/deck-editor/deck-editor';
import { GridEditor } from '@/components/grid-editor/grid-editor';
import { filePath } from '@/lib/shared/urls';
import { editPageTitle, loadEditPage } from '@/lib/web/edit-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ owner: string; n: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { owner, n } = await params;
  return { title: await editPageTitle(owner, n), robots: { index: false, follow: false } };
}

// `/~owner/n/edit`: the chart editor on one of the viewer's own plots, the data editor on one of
// their grids, the dashboard builder on a dashboard or the deck editor on a presentation they may write (anyone else's file is the 404
// of a missing file).
export default async function EditFilePage({ params }: Props) {
  const { owner, n } = await params;
  const page = await loadEditPage(owner, n);
  if (!page) notFound();
  if (page.kind === 'grid') {
    const grid = page.data;
    return (
      <main className="editor-page grid-editor-page">
        <div className="editor-head">
          <h1>Edit data: {grid.name}</h1>
          <Link href={filePath(grid.owner, grid.n)}>Back to the grid (unsaved changes are lost)</Link>
        </div>
        <GridEditor data={grid} />
      </main>
    );
  }
  if (page.kind === 'dashboard') {
    const d = page.data.dashboard!;
    return (
      <main>
        <DocumentEditorHead noun="dashboard" filename={page.data.filename} href={filePath(d.owner, d.n)} />
        <DashboardBuilder data={page.data} save={saveDashboardAction} choosePlots={choosePlotsAction} />
      </main>
    );
  }
  if (page.kind === 'presentation') {
    const d = page.data.presentation!;
    return (
      <main>
        <DocumentEditorHead noun="presentation" filename={page.data.filename} href={filePath(d.owner, d.n)} />
        <DeckEditor data={page.data} save={savePresentationAction} choosePlots={choosePlotsAction} />
      </main>
    );
  }
  return (
    <main className="editor-page">
      <div className="editor-head">
        <h1>Edit chart</h1>
        <Link href={filePath(page.data.plot!.owner, page.data.plot!.n)}>Back to the chart (unsaved changes are lost)</Link>
      </div>
      <ChartEditor data={page.data} check={checkFigureAction} followSharing={followSharingAction} />
    </main>
  );
}

/** A dashboard's or presentation's editor heading, and the way back. */
function DocumentEditorHead({ noun, filename, href }: { noun: string; filename: string; href: string }) {
  return (
    <div className="dashboard-builder-head">
      <h1>
        Edit {noun}: {filename}
      </h1>
      <Link href={href}>Back to the {noun} (unsaved changes are lost)</Link>
    </div>
  );
}
