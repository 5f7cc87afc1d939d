import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CopyField } from '@/components/copy-field';
import { CopyToMyFiles } from '@/components/copy-to-my-files';
import { Notice as NoticeMessage } from '@/components/notice';
import { OwnerActions } from '@/components/owner-actions';
import { SaveAsTheme } from '@/components/save-as-theme';
import { LinkedFiles } from '@/components/linked-files';
import { PlotDataNotice, readsPublicData } from '@/components/plot-data-notice';
import { PlotView } from '@/components/plot-view';
import { Comments } from '@/components/comments';
import { StarButton } from '@/components/star-button';
import { versionedImage } from '@/lib/web/plot-cards';
import { chartUrls, dataTablePath, editPlotPath, filePath, historyPath, imagePath, newChartPath, withShareKey } from '@/lib/shared/urls';
import { shareKeyOf } from '@/lib/web/file-head';
import { embedCode, figureHeight, loadFilePage, type FilePageData, type GridPageData, type PlotPageData } from '@/lib/web/plot-page';
import { FILE_ACTIONS } from '@/app/_actions/file-actions';
import { copyPlotAction, editCopyAction, saveStyleAction } from '@/app/_actions/files';
import { commentAction, commentsSwitchAction, deleteCommentAction, editCommentAction, starAction } from '@/app/_actions/people';
import { EditPlotLinks } from '@/components/chart-editor/edit-plot-links';
import { ownerNoticeCode, showsPlotData } from '@/lib/web/workspace';
import { NOTICES, type Notice } from '@/lib/web/file-forms';
import { Badge, DateTime, Owner, PeopleLink } from '@/components/file-head';
import { visibilityHint } from '@/lib/shared/sharing';
import { DocumentPage } from './document-page';
import { GridPreviewTable } from './_shared/grid-preview-table';

export const dynamic = 'force-dynamic';

type Props = {
  params: Promise<{ owner: string; n: string }>;
  searchParams: Promise<{ share_key?: string | string[]; notice?: string | string[]; comments?: string | string[] }>;
};

async function load({ params, searchParams }: Props): Promise<FilePageData | null> {
  const { owner, n } = await params;
  const search = await searchParams;
  return loadFilePage(owner, n, shareKeyOf(search.share_key), typeof search.comments === 'string' ? search.comments : undefined);
}

const nameOf = (data: FilePageData) => (data.kind === 'plot' && data.record.title.trim()) || data.file.filename;

export async function generateMetadata(props: Props): Promise<Metadata> {
  const data = await load(props);
  if (!data) return { title: 'Not found' };
  const title = nameOf(data);
  const caption = data.kind === 'plot' ? data.record.caption.trim() : '';
  const description = caption ? truncate(caption, 200) : `A ${data.kind} by ${data.file.owner}`;
  // The rendered default image, under a URL that changes with the plot (so link previews refresh).
  const image =
    data.kind === 'plot'
      ? withShareKey(versionedImage(data.record.image_urls.default, data.record.date_modified), data.shareKey)
      : data.kind === 'grid'
        ? undefined
        : withShareKey(imagePath(data.file.owner, data.file.n), data.shareKey);
  return {
    title,
    description,
    // Only public files belong in search results; secret links are for those given them.
    robots: data.visibility === 'public' ? undefined : { index: false, follow: false },
    openGraph: {
      title,
      description,
      type: 'website',
      url: data.urls.web_url,
      siteName: 'Plot Files',
      ...(image ? { images: [{ url: image, alt: title }] } : {}),
    },
    twitter: { card: image ? 'summary_large_image' : 'summary', title, description, ...(image ? { images: [image] } : {}) },
  };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

// A file's web_url: a plot with its interactive chart, share and download options; a grid as a table;
// a dashboard's boxes or a presentation's slides (document-page.tsx).
export default async function FilePage(props: Props) {
  const data = await load(props);
  if (!data) notFound();
  const search = await props.searchParams;
  const notice = ownerNoticeCode(search.notice);
  if (data.kind === 'plot') return <PlotPage data={data} notice={notice} />;
  if (data.kind === 'grid') return <GridPage data={data} notice={notice} />;
  return <DocumentPage data={data} notice={notice} />;
}

function PlotPage({ data, notice }: { data: PlotPageData; notice: Notice | null }) {
  const { record, file, shareKey, visibility, lineage, description, people, plotData, own, writes } = data;
  // The count as stored (this view counts once the page is sent: lib/web/plot-page.ts).
  const views = record.views;
  const title = nameOf(data);
  const fid = `${file.owner}:${file.n}`;
  const { contentUrl, viewUrl } = chartUrls(file.owner, file.n, shareKey, data.chart === 'reduced');
  const here = withShareKey(filePath(file.owner, file.n), shareKey);
  // To its owner: what its grids are, when a private or secret plot reads public data or its sharing just changed.
  const dataNotice = plotData && data.ctx.csrf && (showsPlotData(notice) || readsPublicData(plotData)) && (
    <PlotDataNotice
      data={plotData}
      name={title}
      mode={showsPlotData(notice) ? 'summary' : 'warning'}
      headingLevel={2}
      fix={{ action: FILE_ACTIONS.followData, csrf: data.ctx.csrf, back: 'plot' }}
    />
  );
  return (
    <main className="file-page plot-page">
      <header className="file-head">
        <div className="file-title">
          <h1>{title}</h1>
          <Badge visibility={visibility} own={own} />
          <EditPlotLinks
            editHref={writes ? editPlotPath(file.owner, file.n) : null}
            copy={!writes && data.ctx.csrf ? { action: editCopyAction, csrf: data.ctx.csrf, fid, shareKey } : null}
          />
          {writes && (
            <Link className="button secondary plot-history" href={historyPath(file.owner, file.n)}>
              History
            </Link>
          )}
          <PeopleLink file={file} own={own} />
        </div>
        {record.caption.trim() && <p className="file-caption">{record.caption}</p>}
        <ul className="file-meta">
          <li>
            <Owner owner={file.owner} />
          </li>
          <li>
            <span className="views-count">{views}</span> {views === 1 ? 'view' : 'views'}
          </li>
          <li>
            Created <DateTime date={file.createdAt} />
          </li>
          <li>
            Modified <DateTime date={file.updatedAt} />
          </li>
          {(data.grids.grids.length > 0 || data.grids.hidden > 0) && (
            <li>
              <LinkedFiles
                className="file-data"
                label="Data from"
                files={data.grids.grids.map((g) => ({ href: filePath(g.owner, g.n), name: g.filename }))}
                hidden={data.grids.hidden}
                noun="grid"
              />
            </li>
          )}
          {lineage && (
            <li>
              {lineage.source ? (
                <>
                  Copied from <Link href={lineage.source.ownerHref}>{lineage.source.owner}</Link>&rsquo;s plot{' '}
                  <Link href={lineage.source.href}>{lineage.source.name}</Link>
                </>
              ) : (
                'Copied from another plot'
              )}
            </li>
          )}
        </ul>
      </header>
      {/* What the last action did, where the page opens (the forms that act are further down). */}
      {writes && notice && <NoticeMessage key={randomUUID()}>{NOTICES[notice]}</NoticeMessage>}
      {dataNotice}
      {data.chart === 'static' && (
        <p className="notice" role="status">
          This chart could not be drawn: drawing it took too long (it may ask for far too many ticks or points). Its figure and data can still be downloaded
          {own ? '; change the figure to draw it again' : ''}.
        </p>
      )}
      <PlotView
        contentUrl={contentUrl}
        label={`Chart: ${title}`}
        describedBy="chart-description"
        about={
          <section className="chart-about" aria-labelledby="chart-about-heading">
            <h2 id="chart-about-heading" className="visually-hidden">
              About the chart
            </h2>
            <p id="chart-description" className="chart-description">
              {description}
            </p>
            <a className="button secondary" href={withShareKey(dataTablePath(file.owner, file.n), shareKey)}>
              Data table
            </a>
          </section>
        }
        height={figureHeight(record)}
        imageUrl={withShareKey(imagePath(file.owner, file.n), shareKey)}
        downloadName={file.filename}
        mode={data.chart}
        bundle={data.bundle}
        viewUrl={viewUrl}
      >
        <li>
          <a className="button secondary" download={`${file.filename}.json`} href={withShareKey(filePath(file.owner, file.n, 'json'), shareKey)}>
            Figure and data (JSON)
          </a>
        </li>
        <li>
          <a className="button secondary" download={`${file.filename}.csv`} href={withShareKey(filePath(file.owner, file.n, 'csv'), shareKey)}>
            Data (CSV)
          </a>
        </li>
      </PlotView>
      <section className="plot-share" aria-labelledby="share-heading">
        <h2 id="share-heading">Share</h2>
        {/* A secret plot's link carries its key for the owner and for a request that came with it, never for collaborators (shareUrl). */}
        <CopyField id="share-url" label="Share link" value={data.shareUrl} hint={visibility === 'public' ? undefined : visibilityHint(visibility, { own })} />
        <CopyField id="embed-code" label="Embed code" value={embedCode(data.embedUrl, title)} />
      </section>
      <StarButton action={starAction} csrf={data.ctx.csrf} fid={fid} shareKey={shareKey} starred={people.starred} count={people.stars} here={here} />
      <CopyToMyFiles action={copyPlotAction} csrf={data.ctx.csrf} fid={fid} shareKey={shareKey} own={own} here={here} />
      {own && data.ctx.csrf && (
        <OwnerActions fid={fid} title={record.title} caption={record.caption} visibility={visibility} csrf={data.ctx.csrf} actions={FILE_ACTIONS} />
      )}
      {own && data.ctx.csrf && <SaveAsTheme action={saveStyleAction} csrf={data.ctx.csrf} fid={fid} />}
      <Comments
        people={people}
        csrf={data.ctx.csrf}
        fid={fid}
        shareKey={shareKey}
        own={own}
        here={here}
        actions={{ post: commentAction, edit: editCommentAction, remove: deleteCommentAction, toggle: commentsSwitchAction }}
      />
    </main>
  );
}

/** Plots a grid's page names (the rest counted): its record names more. */
const USED_BY_SHOWN = 5;

function GridPage({ data, notice }: { data: GridPageData; notice: Notice | null }) {
  const { file, shareKey, visibility, own, writes } = data;
  const { columnCount, rowCount } = data.preview;
  return (
    <main className="file-page grid-page">
      <header className="file-head">
        <div className="file-title">
          <h1>{file.filename}</h1>
          <Badge visibility={visibility} own={own} />
        </div>
        <ul className="file-meta">
          <li>
            <Owner owner={file.owner} />
          </li>
          <li>
            Grid · {columnCount.toLocaleString('en')} {columnCount === 1 ? 'column' : 'columns'} · {rowCount.toLocaleString('en')}{' '}
            {rowCount === 1 ? 'row' : 'rows'}
          </li>
          <li>
            Created <DateTime date={file.createdAt} />
          </li>
          <li>
            {data.plots.plots.length || data.plots.hidden ? (
              <LinkedFiles
                className="file-used-by"
                label="Used by"
                files={data.plots.plots.slice(0, USED_BY_SHOWN).map((p) => ({ href: filePath(p.owner, p.n), name: p.filename }))}
                hidden={data.plots.hidden + Math.max(data.plots.plots.length - USED_BY_SHOWN, 0)}
                noun="plot"
              />
            ) : (
              'Used by no plot'
            )}
          </li>
        </ul>
        <p className="grid-actions">
          {writes && (
            <Link className="button" href={editPlotPath(file.owner, file.n)}>
              Edit data
            </Link>
          )}
          {writes && (
            <Link className="button secondary" href={historyPath(file.owner, file.n)}>
              History
            </Link>
          )}
          {/* Signed in and reading it on their own (not through a secret link): the editor opens on it. */}
          {data.ctx.csrf && !shareKey && (
            <Link className="button secondary" href={newChartPath(file)}>
              Make a chart
            </Link>
          )}
          <PeopleLink file={file} own={own} />
          <a className="button secondary" download={`${file.filename}.csv`} href={withShareKey(filePath(file.owner, file.n, 'csv'), shareKey)}>
            Download all data (CSV)
          </a>
        </p>
      </header>
      {own && notice && <NoticeMessage key={randomUUID()}>{NOTICES[notice]}</NoticeMessage>}
      <GridPreviewTable preview={data.preview} label={`Data of ${file.filename}`} rest="The CSV download has all the data." />
    </main>
  );
}
