import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ChartEditor } from '@/components/chart-editor/chart-editor';
import { NEW_CHART_PATH } from '@/lib/shared/urls';
import { loadNewChart } from '@/lib/web/chart-editor';
import { checkFigureAction, followSharingAction } from '@/app/_actions/editors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New chart', robots: { index: false, follow: false } };

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

// The chart editor for a new plot on one of the viewer's grids (`?grid=owner:n`, drawn as a template
// says with `&template=owner:n`), or the list of their grids to start from.
export default async function NewChartPage({ searchParams }: { searchParams: Promise<{ grid?: string | string[]; template?: string | string[] }> }) {
  const { grid, template } = await searchParams;
  const page = await loadNewChart(grid, template);
  if (page.kind === 'not-found') notFound();
  if (page.kind === 'pick') {
    return (
      <main className="editor-page">
        <h1>New chart</h1>
        <p>
          Choose the data to draw, or <Link href={NEW_CHART_PATH}>import new data</Link>.
        </p>
        {page.grids.length ? (
          <ul className="grid-pick-list">
            {page.grids.map((g) => (
              <li key={g.href}>
                <Link href={g.href}>{g.name}</Link> <span className="muted">changed {dateFormat.format(g.modified)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">You have no data yet.</p>
        )}
      </main>
    );
  }
  return (
    <main className="editor-page">
      <h1>New chart</h1>
      <ChartEditor data={page.data} check={checkFigureAction} followSharing={followSharingAction} />
    </main>
  );
}
