import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { BringCharts } from '@/components/bring-charts/bring-charts';
import { DataImport } from '@/components/data-import/data-import';
import { NEW_CHART_PATH, profilePath } from '@/lib/shared/urls';
import { editorLinkTarget, newChartGrids, newChartTemplates } from '@/lib/web/new-chart';
import { signedInPage } from '@/lib/web/page-context';

export const metadata: Metadata = { title: 'New chart' };
export const dynamic = 'force-dynamic';

export default async function NewChartPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { fid, share_key: shareKey } = await searchParams;
  // Chart Studio's editor links (`/create/?fid=owner:n`) open that plot's editor, or its page.
  const old = typeof fid === 'string' ? await editorLinkTarget(fid, typeof shareKey === 'string' ? shareKey : undefined) : null;
  if (old) redirect(old);
  const { db, viewer } = await signedInPage(NEW_CHART_PATH);
  const { grids, more } = await newChartGrids(db, viewer);
  const templates = await newChartTemplates(db, viewer);
  return (
    <main className="create-page">
      <h1>New chart</h1>
      <p className="muted">Start from your data: choose a file or paste cells from a spreadsheet. You see it before anything is stored.</p>
      <DataImport templates={templates.map((t) => ({ fid: t.fid, name: t.name }))} />
      <BringCharts />
      <section aria-labelledby="own-grids-heading" className="own-grids">
        <h2 id="own-grids-heading">Or chart one of your grids</h2>
        {grids.length ? (
          <ul className="own-grid-list">
            {grids.map((g) => (
              <li key={g.n}>
                <Link href={g.href}>{g.filename}</Link>{' '}
                <span className="muted">
                  changed <time dateTime={g.modified}>{g.modified.slice(0, 10)}</time>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">You have no grids yet: the data you import becomes one.</p>
        )}
        {more && (
          <p>
            <Link href={profilePath(viewer.username)}>All your files</Link>
          </p>
        )}
      </section>
    </main>
  );
}
