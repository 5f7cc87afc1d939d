import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { checkFigureAction, followSharingAction } from '@/app/create/chart/actions';
import { choosePlotsAction, saveDashboardAction } from '@/app/create/dashboard/actions';
import { ChartEditor } from '@/components/chart-editor/chart-editor';
import { DashboardBuilder } from '@/components/dashboard-builder/dashboard-builder';
import { GridEditor } from '@/components/grid-editor/grid-editor';
import { filePath } from '@/lib/shared/urls';
import { loadPlotEditor } from '@/lib/web/chart-editor';
import { loadDashboardEditor } from '@/lib/web/dashboard-builder';
import { loadGridEditor } from '@/lib/web/grid-editor';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ owner: string; n: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { owner, n } = await params;
  const grid = await loadGridEditor(owner, n);
  const dashboard = grid ? null : await loadDashboardEditor(owner, n);
  const title = grid ? `Edit data: ${grid.name}` : dashboard?.kind === 'builder' ? `Edit dashboard: ${dashboard.data.filename}` : 'Edit chart';
  return { title, robots: { index: false, follow: false } };
}

// `/~owner/n/edit`: the chart editor on one of the viewer's own plots, the data editor on one of
// their grids, or the dashboard builder on a dashboard they may write (anyone else's file is the 404
// of a missing file).
export default async function EditFilePage({ params }: Props) {
  const { owner, n } = await params;
  const grid = await loadGridEditor(owner, n);
  if (grid) {
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
  const dashboard = await loadDashboardEditor(owner, n);
  if (dashboard?.kind === 'not-found') notFound();
  if (dashboard) {
    const d = dashboard.data.dashboard!;
    return (
      <main>
        <div className="dashboard-builder-head">
          <h1>Edit dashboard: {dashboard.data.filename}</h1>
          <Link href={filePath(d.owner, d.n)}>Back to the dashboard (unsaved changes are lost)</Link>
        </div>
        <DashboardBuilder data={dashboard.data} save={saveDashboardAction} choosePlots={choosePlotsAction} />
      </main>
    );
  }
  const page = await loadPlotEditor(owner, n);
  if (page.kind === 'sign-in') redirect(page.to);
  if (page.kind === 'not-found') notFound();
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
