import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { checkFigureAction, followSharingAction } from '@/app/create/chart/actions';
import { ChartEditor } from '@/components/chart-editor/chart-editor';
import { filePath } from '@/lib/core/urls';
import { loadPlotEditor } from '@/lib/web/chart-editor';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit chart', robots: { index: false, follow: false } };

type Props = { params: Promise<{ owner: string; n: string }> };

// `/~owner/n/edit`: the chart editor on one of the viewer's own plots (anyone else's is the 404 of a missing file).
export default async function EditPlotPage({ params }: Props) {
  const { owner, n } = await params;
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
