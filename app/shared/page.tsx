import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/components/action-form';
import { CsrfField } from '@/components/csrf-field';
import { Notice } from '@/components/notice';
import type { BlockEntry } from '@/lib/core/accounts/blocks';
import type { SharedFile } from '@/lib/core/files/collaborators';
import { filePath, imagePath, peoplePath, profilePath, sharedPath } from '@/lib/shared/urls';
import { loadShared } from '@/lib/web/collaborators';
import { blockAction, declineAction, unblockAction } from '@/app/_actions/people';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Shared with me', robots: { index: false, follow: false } };

type Props = { searchParams: Promise<{ cursor?: string | string[]; folder?: string | string[]; notice?: string | string[] }> };

const TYPE_LABEL = { plot: 'Plot', grid: 'Grid', fold: 'Folder', dashboard: 'Dashboard', spectacle_presentation: 'Presentation' } as const;
const ROLE = { read: 'Can view', write: 'Can edit' } as const;
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

// `/shared`: what others shared with the signed-in person by name, latest first, and (`?folder=`) what
// one shared folder holds. Signed out: the sign-in page, back here after.
export default async function SharedPage({ searchParams }: Props) {
  const params = await searchParams;
  const page = await loadShared(params);
  if (page.kind === 'missing') {
    return (
      <main className="shared-page">
        <h1>Shared with me</h1>
        <p className="notice" role="status">
          That folder is not shared with you (any more). <Link href={sharedPath()}>Everything shared with you</Link>
        </p>
      </main>
    );
  }
  const folder = page.kind === 'folder' ? page.folder : null;
  return (
    <main className="shared-page">
      <h1>{folder ? folder.filename : 'Shared with me'}</h1>
      {folder ? (
        <p>
          A folder <Link href={profilePath(folder.owner)}>{folder.owner}</Link> shared with you: everything in it is shared with you too.{' '}
          <Link href={sharedPath()}>Everything shared with you</Link>
        </p>
      ) : (
        <p>
          Plots, grids and folders other people shared with you by name. You see them with your own account and API key, even when they are private. Decline a
          share you do not want; block a person to remove everything they shared with you and refuse their shares from now on.
        </p>
      )}
      {page.notice && <Notice key={randomUUID()}>{page.notice}</Notice>}
      {page.files.length ? (
        <ul className="file-list">
          {page.files.map((file) => (
            <SharedRow key={`${file.owner}:${file.n}`} file={file} csrf={folder ? null : page.ctx.csrf} />
          ))}
        </ul>
      ) : (
        <div className="empty-state">
          <p>{folder ? 'This folder is empty.' : 'Nothing is shared with you yet. When someone shares a chart, grid or folder with you, it appears here.'}</p>
        </div>
      )}
      {page.blocked.length > 0 && <BlockedPeople people={page.blocked} csrf={page.ctx.csrf} />}
      {(page.previous || page.next) && (
        <nav className="pager" aria-label="Pages">
          {page.previous && (
            <a rel="prev" href={page.previous} className="button secondary">
              <span aria-hidden="true">←</span> Previous page
            </a>
          )}
          {page.next && (
            <a rel="next" href={page.next} className="button secondary">
              Next page <span aria-hidden="true">→</span>
            </a>
          )}
        </nav>
      )}
    </main>
  );
}

/** `csrf`: the page's token where the row offers Decline and Block (not inside a shared folder). */
function SharedRow({ file, csrf }: { file: SharedFile; csrf: string | null | undefined }) {
  const href = file.filetype === 'fold' ? sharedPath(file) : filePath(file.owner, file.n);
  return (
    <li className="file-row">
      <div className="file-thumb" aria-hidden="true">
        {file.filetype === 'plot' ? (
          <img src={imagePath(file.owner, file.n, 'list-thumb')} alt="" width={100} height={75} loading="lazy" />
        ) : (
          <span className={`file-icon file-icon-${file.filetype}`}>{TYPE_LABEL[file.filetype]}</span>
        )}
      </div>
      <div className="file-main">
        <h2 className="file-name">
          <Link href={href}>{file.filename}</Link>
        </h2>
        <p className="file-facts">
          <span>{TYPE_LABEL[file.filetype]}</span>
          {file.title && file.title !== file.filename && <span className="muted">title: {file.title}</span>}
          <span>
            by <Link href={profilePath(file.owner)}>{file.owner}</Link>
          </span>
          <span className="badge">{ROLE[file.permission]}</span>
          <span>
            Shared <time dateTime={file.shared_at}>{dateFormat.format(new Date(file.shared_at))}</time>
          </span>
          <Link href={peoplePath(file.owner, file.n)}>People</Link>
        </p>
        {csrf && (
          <div className="people-actions shared-actions">
            <ActionForm
              action={declineAction}
              submit="Decline"
              fields={
                <>
                  <CsrfField token={csrf} />
                  <input type="hidden" name="fid" value={`${file.owner}:${file.n}`} />
                </>
              }
            />
            <ActionForm
              action={blockAction}
              submit="Block"
              kind="danger"
              fields={
                <>
                  <CsrfField token={csrf} />
                  <input type="hidden" name="username" value={file.owner} />
                </>
              }
            />
          </div>
        )}
      </div>
    </li>
  );
}

function BlockedPeople({ people, csrf }: { people: BlockEntry[]; csrf: string | null | undefined }) {
  return (
    <section className="blocked-people" aria-labelledby="blocked-heading">
      <h2 id="blocked-heading">People you blocked</h2>
      <p>They cannot share with you. Unblock someone to let them share again.</p>
      <ul className="people-list">
        {people.map((person) => (
          <li key={person.username} className="people-item">
            <Link href={profilePath(person.username)}>{person.username}</Link>
            {csrf && (
              <ActionForm
                action={unblockAction}
                submit={`Unblock ${person.username}`}
                fields={
                  <>
                    <CsrfField token={csrf} />
                    <input type="hidden" name="username" value={person.username} />
                  </>
                }
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
