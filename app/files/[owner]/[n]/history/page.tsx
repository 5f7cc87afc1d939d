import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/components/action-form';
import { CsrfField } from '@/components/csrf-field';
import { VersionMeta } from '@/components/version-meta';
import { filePath, historyPath } from '@/lib/shared/urls';
import { loadFileHistory } from '@/lib/web/plot-history';
import { restoreVersionAction } from '@/app/_actions/files';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'History', robots: { index: false, follow: false } };

type Props = { params: Promise<{ owner: string; n: string }>; searchParams: Promise<{ cursor?: string | string[] }> };

// `/~owner/n/history`: every save of the owner's plot (each to view drawn) or grid (each to look at),
// newest first, each to restore (anyone else gets the 404 of a missing file).
export default async function HistoryPage({ params, searchParams }: Props) {
  const { owner, n } = await params;
  const page = await loadFileHistory(owner, n, (await searchParams).cursor);
  if (!page) notFound();
  const { file, versions, ctx } = page;
  const fid = `${file.owner}:${file.n}`;
  const current = versions.length && !page.previous ? versions[0].version : null;
  const grid = file.filetype === 'grid';
  return (
    <main className="file-page history-page">
      <header className="file-head">
        <h1>History</h1>
        <p>
          Every save of <Link href={filePath(file.owner, file.n)}>{file.filename}</Link>: {grid ? 'its columns and rows' : 'its chart and title'} as they were.
          Restoring one makes it current again as a new version; nothing is lost.{grid && ' Plots drawn from the grid follow.'}
        </p>
      </header>
      <ol className="version-list" aria-label="Versions, newest first">
        {versions.map((v) => (
          <li key={v.version} className="version-item">
            <div className="version-head">
              <h2 id={`version-${v.version}`}>
                <Link href={historyPath(file.owner, file.n, v.version)}>Version {v.version}</Link>
              </h2>
              {v.version === current && <span className="version-current">Current</span>}
            </div>
            <VersionMeta version={v} />
            {v.version !== current && ctx.csrf && (
              <ActionForm
                action={restoreVersionAction}
                submit="Restore"
                fields={
                  <>
                    <CsrfField token={ctx.csrf} />
                    <input type="hidden" name="fid" value={fid} />
                    <input type="hidden" name="version" value={v.version} />
                    <input type="hidden" name="filetype" value={file.filetype} />
                  </>
                }
              />
            )}
          </li>
        ))}
      </ol>
      {(page.previous || page.next) && (
        <nav className="pager" aria-label="Pages">
          {page.previous && <Link href={page.previous}>Newer versions</Link>}
          {page.next && <Link href={page.next}>Older versions</Link>}
        </nav>
      )}
    </main>
  );
}
