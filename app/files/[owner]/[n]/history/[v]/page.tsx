import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/components/action-form';
import { CsrfField } from '@/components/csrf-field';
import PlotFigure from '@/components/plot-figure';
import { VersionMeta } from '@/components/version-meta';
import { filePath, historyPath } from '@/lib/shared/urls';
import { loadPlotVersion } from '@/lib/web/plot-history';
import { restoreVersionAction } from '@/app/_actions/files';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Version', robots: { index: false, follow: false } };

type Props = { params: Promise<{ owner: string; n: string; v: string }> };

// `/~owner/n/history/k`: one version of the owner's plot drawn, with its data as it is now.
export default async function VersionPage({ params }: Props) {
  const { owner, n, v } = await params;
  const page = await loadPlotVersion(owner, n, v);
  if (!page) notFound();
  const { file, record, ctx } = page;
  const title = record.title.trim() || file.filename;
  return (
    <main className="file-page version-page">
      <header className="file-head">
        <h1>
          Version {record.version}: {title}
        </h1>
        <VersionMeta version={record} />
        <p>
          <Link href={historyPath(file.owner, file.n)}>Back to the history</Link> · <Link href={filePath(file.owner, file.n)}>The chart as it is now</Link>
        </p>
      </header>
      <section className="plot-chart" aria-label="Chart">
        <PlotFigure
          contentUrl={page.contentUrl}
          interactive
          bundle={page.bundle}
          label={`Chart: ${title}, version ${record.version}`}
          describedBy="chart-description"
          fallback={<p className="version-loading">Drawing version {record.version}…</p>}
        />
      </section>
      <p id="chart-description" className="chart-description">
        {page.description}
      </p>
      {page.current ? (
        <p>This is the current version.</p>
      ) : (
        ctx.csrf && (
          <ActionForm
            action={restoreVersionAction}
            submit="Restore"
            fields={
              <>
                <CsrfField token={ctx.csrf} />
                <input type="hidden" name="fid" value={`${file.owner}:${file.n}`} />
                <input type="hidden" name="version" value={record.version} />
              </>
            }
          />
        )
      )}
    </main>
  );
}
