import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DashboardView } from '@/components/documents/dashboard-view';
import { PresentationView } from '@/components/documents/presentation-view';
import PlotFigure from '@/components/plot-figure';
import { chartUrls, dataTablePath, imagePath, withShareKey } from '@/lib/shared/urls';
import type { DocumentPageData } from '@/lib/web/document-page';
import { shareKeyOf } from '@/lib/web/file-head';
import { loadEmbed } from '@/lib/web/plot-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ owner: string; n: string }>; searchParams: Promise<{ share_key?: string | string[] }> };

async function load({ params, searchParams }: Props) {
  const { owner, n } = await params;
  return loadEmbed(owner, n, shareKeyOf((await searchParams).share_key));
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const data = await load(props);
  if (!data) return { title: 'Not found' };
  // The file's page is the one to index; this is its frame.
  const title = (data.kind === 'plot' && data.record.title.trim()) || data.file.filename;
  return { title, robots: { index: false, follow: true } };
}

// `/~owner/n.embed`: the chart alone, filling the iframe, with its text alternative and data table link. The root layout's header and footer are
// still rendered, so this view covers the viewport above them (and CSS hides them, see .embed-view).
// A dashboard's boxes or a presentation's slides likewise, with the link to their page.
export default async function EmbedPage(props: Props) {
  const data = await load(props);
  if (!data) notFound();
  if (data.kind !== 'plot') return <DocumentEmbed data={data} />;
  const { record, file, shareKey, description } = data;
  const { contentUrl, viewUrl } = chartUrls(file.owner, file.n, shareKey, data.chart === 'reduced');
  const title = record.title.trim() || file.filename;
  return (
    <main className="embed-view">
      <h1 className="visually-hidden">{title}</h1>
      <PlotFigure
        contentUrl={contentUrl}
        viewUrl={viewUrl}
        interactive
        bundle={data.bundle}
        label={`Chart: ${title}`}
        describedBy="chart-description"
        fallback={<img src={withShareKey(imagePath(file.owner, file.n), shareKey)} alt="" />}
      />
      {/* Screen readers hear it with the chart; the frame has no room to show it. */}
      <p id="chart-description" className="visually-hidden">
        {description}
      </p>
      {/* Pages other than the embed refuse to be framed: they open in a tab of their own. */}
      <p className="embed-links">
        <a className="embed-link" href={withShareKey(dataTablePath(file.owner, file.n), shareKey)} target="_blank" rel="noopener">
          Data table
        </a>
        <a className="embed-link" href={withShareKey(data.urls.web_url, shareKey)} target="_blank" rel="noopener">
          View on Plot Files
        </a>
      </p>
    </main>
  );
}

function DocumentEmbed({ data }: { data: DocumentPageData }) {
  const { file } = data;
  return (
    <main className="embed-view document-embed">
      <h1 className="visually-hidden">{file.filename}</h1>
      {data.kind === 'dashboard' ? (
        data.layout && <DashboardView layout={data.layout} label={`Dashboard: ${file.filename}`} />
      ) : (
        <PresentationView count={data.count} slides={data.slides} slidesUrl={data.slidesUrl} label={`Presentation: ${file.filename}`} />
      )}
      <p className="document-embed-links">
        <a className="embed-link" href={withShareKey(data.urls.web_url, data.shareKey)} target="_blank" rel="noopener">
          View on Plot Files
        </a>
      </p>
    </main>
  );
}
