// A dashboard's or a presentation's page (`/~owner/n/`): its head as other file pages have it, then its
// boxes or its slides, its share and embed links, and to its owner the sharing and trash forms.
import Link from 'next/link';
import { ActionForm } from '@/components/action-form';
import { CopyField } from '@/components/copy-field';
import { DashboardView } from '@/components/documents/dashboard-view';
import { PresentationView } from '@/components/documents/presentation-view';
import { Badge, DateTime, Owner, PeopleLink } from '@/components/file-head';
import { sharingForm, trashForm } from '@/components/file-forms';
import { Notice } from '@/components/notice';
import { editPlotPath } from '@/lib/shared/urls';
import { visibilityHint } from '@/lib/shared/sharing';
import type { DocumentPageData } from '@/lib/web/document-page';
import { NOTICES, type Notice as NoticeCode } from '@/lib/web/file-forms';
import { embedCode } from '@/lib/web/plot-page';
import { FILE_ACTIONS } from '@/app/_actions/file-actions';

const NOUN = { dashboard: 'dashboard', presentation: 'presentation' } as const;

export function DocumentPage({ data, notice }: { data: DocumentPageData; notice: NoticeCode | null }) {
  const { file, visibility, own } = data;
  const noun = NOUN[data.kind];
  const fid = `${file.owner}:${file.n}`;
  return (
    <main className={`file-page document-page ${data.kind}-page`}>
      <header className="file-head">
        <div className="file-title">
          <h1>{file.filename}</h1>
          <Badge visibility={visibility} own={own} />
          {data.writes && (
            <Link className="button secondary" href={editPlotPath(file.owner, file.n)}>
              Edit {noun}
            </Link>
          )}
          <PeopleLink file={file} own={own} />
        </div>
        <ul className="file-meta">
          <li>
            <Owner owner={file.owner} />
          </li>
          <li>{data.kind === 'dashboard' ? 'Dashboard' : `Presentation · ${data.count} ${data.count === 1 ? 'slide' : 'slides'}`}</li>
          <li>
            Created <DateTime date={file.createdAt} />
          </li>
          <li>
            Modified <DateTime date={file.updatedAt} />
          </li>
        </ul>
      </header>
      {own && notice && <Notice>{NOTICES[notice]}</Notice>}
      {data.kind === 'dashboard' ? (
        data.layout ? (
          <DashboardView layout={data.layout} label={`Dashboard: ${file.filename}`} />
        ) : (
          <p className="muted">This dashboard has no boxes yet.</p>
        )
      ) : data.count ? (
        <PresentationView count={data.count} slides={data.slides} slidesUrl={data.slidesUrl} label={`Presentation: ${file.filename}`} presentable />
      ) : (
        <p className="muted">This presentation has no slides yet.</p>
      )}
      <section className="plot-share" aria-labelledby="share-heading">
        <h2 id="share-heading">Share</h2>
        <CopyField id="share-url" label="Share link" value={data.shareUrl} hint={visibility === 'public' ? undefined : visibilityHint(visibility, { own })} />
        <CopyField id="embed-code" label="Embed code" value={embedCode(data.embedUrl, file.filename)} />
      </section>
      {own && data.ctx.csrf && (
        <section className="owner-actions" aria-labelledby="owner-actions-heading">
          <h2 id="owner-actions-heading">Manage this {noun}</h2>
          <div className="owner-actions-side">
            <ActionForm {...sharingForm({ action: FILE_ACTIONS.share, visibility, csrf: data.ctx.csrf, fid, back: 'plot' })} />
            <ActionForm {...trashForm({ action: FILE_ACTIONS.trash, csrf: data.ctx.csrf, fid, back: 'plot' })} />
          </div>
        </section>
      )}
    </main>
  );
}
