import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/components/action-form';
import { CsrfField } from '@/components/csrf-field';
import PlotFigure from '@/components/plot-figure';
import { VersionMeta } from '@/components/version-meta';
import { filePath, historyPath } from '@/lib/shared/urls';
import { loadFileVersion } from '@/lib/web/plot-history';
import { restoreVersionAction } from '@/app/_actions/files';
import { GridPreviewTable } from '../../_shared/grid-preview-table';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Version', robots: { index: false, follow: false } };

type Props = { params: Promise<{ owner: string; n: string; v: string }> };
type Page = NonNullable<Awaited<ReturnType<typeof loadFileVersion>>>;

// `/~owner/n/history/k`: one version of a plot drawn with the data it drew (kept when its grid is
// gone), or of a grid, its size and first rows; its writers' alone, each with its Restore.
export default async function VersionPage({ params }: Props) {
  const { owner, n, v } = await params;
  const page = await loadFileVersion(owner, n, v);
  if (!page) notFound();
  return page.kind === 'grid' ? <GridVersion page={page} /> : <PlotVersion page={page} />;
}

function Head({ page, title, now }: { page: Page; title: string; now: string }) {
  const { file, record } = page;
  return (
    <header className="file-head">
      <h1>
        Version {record.version}: {title}
      </h1>
      <VersionMeta version={record} />
      <p>
        <Link href={historyPath(file.owner, file.n)}>Back to the history</Link> · <Link href={filePath(file.owner, file.n)}>{now}</Link>
      </p>
    </header>
  );
}

/** The version's Restore: none for the current one, nor for one whose data is gone (`refused`). */
function Restore({ page, refused = false }: { page: Page; refused?: boolean }) {
  const { file, record, ctx } = page;
  if (page.current) return <p>This is the current version.</p>;
  if (refused || !ctx.csrf) return null;
  return (
    <ActionForm
      action={restoreVersionAction}
      submit="Restore"
      fields={
        <>
          <CsrfField token={ctx.csrf} />
          <input type="hidden" name="fid" value={`${file.owner}:${file.n}`} />
          <input type="hidden" name="version" value={record.version} />
          <input type="hidden" name="filetype" value={file.filetype} />
        </>
      }
    />
  );
}

function PlotVersion({ page }: { page: Extract<Page, { kind: 'plot' }> }) {
  const { record } = page;
  const title = record.title.trim() || page.file.filename;
  return (
    <main className="file-page version-page">
      <Head page={page} title={title} now="The chart as it is now" />
      {page.dataGone && (
        <p className="version-gone" role="note">
          This version's data is no longer kept: the grid it drew from was deleted before versions kept their data, or its history was full. The chart below
          lacks it, so it cannot be restored.
        </p>
      )}
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
      <Restore page={page} refused={page.dataGone} />
    </main>
  );
}

function GridVersion({ page }: { page: Extract<Page, { kind: 'grid' }> }) {
  const { columnCount, rowCount } = page.preview;
  const count = (k: number, one: string) => `${k.toLocaleString('en')} ${k === 1 ? one : `${one}s`}`;
  return (
    <main className="file-page version-page grid-page">
      <Head page={page} title={page.file.filename} now="The grid as it is now" />
      <p className="version-size">
        {count(columnCount, 'column')} · {count(rowCount, 'row')}
      </p>
      <Restore page={page} />
      <GridPreviewTable
        preview={page.preview}
        label={`Data of ${page.file.filename}, version ${page.record.version}`}
        rest="Restoring the version brings all of it back."
      />
    </main>
  );
}
