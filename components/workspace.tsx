// "My files": the owner's own view of `/~owner/`: a folder's files (or the trash), each with what
// can be done to it. Everything is a link or a form, so it all works without JavaScript.
import { randomUUID } from 'node:crypto';
import Link from 'next/link';
import type { Workspace as WorkspaceData, WorkspaceFile } from '@/lib/web/workspace';
import { pageHref } from '@/lib/web/gallery';
import { profilePath, workspacePath } from '@/lib/core/urls';
import { CopyField } from './copy-field';
import { PlotDataNotice } from './plot-data-notice';
import { SearchForm } from './search-form';
import { ActionForm, ManageForms } from './action-form';
import { deleteForm, moveForm, newFolderForm, renameForm, restoreForm, sharingForm, trashForm, type FileActions } from './file-forms';
import { Notice } from './notice';

const TYPE_LABEL = { plot: 'Plot', grid: 'Grid', fold: 'Folder' } as const;
const VISIBILITY_LABEL = { public: 'Public', private: 'Private', secret: 'Secret link' } as const;
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

interface Props {
  username: string;
  data: WorkspaceData;
  csrf: string;
  actions: FileActions;
}

export function Workspace({ username, data, csrf, actions }: Props) {
  const trash = data.place === 'trash';
  const home = profilePath(username);
  const here = typeof data.place === 'number' ? data.place : -1;
  const params = trash ? { view: 'trash' } : { folder: here === -1 ? undefined : here };
  return (
    <section className="workspace" aria-labelledby="workspace-heading">
      <div className="workspace-head">
        <h2 id="workspace-heading">My files</h2>
        <nav aria-label="Workspace views" className="workspace-tabs">
          <Link href={home} aria-current={!trash ? 'page' : undefined}>
            Files
          </Link>
          <Link href={workspacePath(username, { view: 'trash' })} aria-current={trash ? 'page' : undefined}>
            Trash
          </Link>
        </nav>
      </div>
      <SearchForm mine />
      {data.notice && <Notice key={randomUUID()}>{data.notice}</Notice>}
      {data.plotData && (
        <PlotDataNotice
          data={data.plotData}
          name={data.plotData.plot.filename}
          mode="summary"
          headingLevel={3}
          fix={{ action: actions.followData, csrf, back: here }}
        />
      )}
      {data.folderMissing && (
        <p className="notice" role="status">
          That folder is not among your files any more, so here is the top level.
        </p>
      )}
      {data.cursorRejected && (
        <p className="notice" role="status">
          That page link is no longer valid, so here is the first page.
        </p>
      )}
      {!trash && (
        <nav aria-label="Folder" className="breadcrumbs">
          <ol>
            <li>{data.crumbs.length ? <Link href={home}>My files</Link> : <span aria-current="page">My files</span>}</li>
            {data.crumbs.map((c, i) =>
              i === data.crumbs.length - 1 ? (
                <li key={c.n}>
                  <span aria-current="page">{c.name}</span>
                </li>
              ) : (
                <li key={c.n}>
                  <Link href={workspacePath(username, { folder: c.n })}>{c.name}</Link>
                </li>
              ),
            )}
          </ol>
        </nav>
      )}
      {trash ? (
        <p className="muted">Files you moved to the trash. Restore them, or delete them for good. A folder comes back with what was in it.</p>
      ) : (
        <ActionForm {...newFolderForm({ action: actions.createFolder, csrf, back: here })} />
      )}
      {data.files.length ? (
        <ul className="file-list">
          {data.files.map((file) => (
            <FileRow key={file.fid} file={file} data={data} csrf={csrf} actions={actions} />
          ))}
        </ul>
      ) : (
        <div className="empty-state">
          <p>{trash ? 'The trash is empty.' : 'No files here yet.'}</p>
        </div>
      )}
      {(data.previous || data.next) && (
        <nav className="pager" aria-label="Pages">
          {data.previous && (
            <a rel="prev" href={pageHref(home, params, data.previous)} className="button secondary">
              <span aria-hidden="true">←</span> Previous page
            </a>
          )}
          {data.next && (
            <a rel="next" href={pageHref(home, params, data.next)} className="button secondary">
              Next page <span aria-hidden="true">→</span>
            </a>
          )}
        </nav>
      )}
    </section>
  );
}

function FileRow({ file, data, csrf, actions }: { file: WorkspaceFile; data: WorkspaceData; csrf: string; actions: FileActions }) {
  const trash = data.place === 'trash';
  const back = data.place;
  const common = { csrf, fid: file.fid, back };
  // A file list names files: the name is what "Rename" changes, so it is what the eye finds; a plot's title follows.
  const name = file.filename;
  return (
    <li className="file-row" data-fid={file.fid} data-filetype={file.filetype}>
      <div className="file-thumb" aria-hidden="true">
        {file.thumbnail ? (
          <img src={file.thumbnail} alt="" width={100} height={75} loading="lazy" />
        ) : (
          <span className={`file-icon file-icon-${file.filetype}`}>{TYPE_LABEL[file.filetype]}</span>
        )}
      </div>
      <div className="file-main">
        <h3 className="file-name">{trash ? <span>{name}</span> : <Link href={file.href}>{name}</Link>}</h3>
        <p className="file-facts">
          <span>{TYPE_LABEL[file.filetype]}</span>
          {file.title && file.title !== file.filename && <span className="muted">title: {file.title}</span>}
          <span className="badge" data-visibility={file.visibility}>
            {VISIBILITY_LABEL[file.visibility]}
          </span>
          <span>
            {trash && file.trashed ? 'Trashed ' : 'Created '}
            <time dateTime={trash && file.trashed ? file.trashed : file.created}>
              {dateFormat.format(new Date(trash && file.trashed ? file.trashed : file.created))}
            </time>
          </span>
        </p>
        {!trash && file.secretUrl && <CopyField id={`secret-${file.n}`} label={`Secret link of ${name}`} value={file.secretUrl} />}
        {trash ? (
          <div className="file-actions">
            <ActionForm {...restoreForm({ action: actions.restore, ...common })} />
            <ActionForm {...deleteForm({ action: actions.remove, ...common })} />
          </div>
        ) : (
          <ManageForms
            label={
              <>
                Manage <span className="visually-hidden">{name}</span>
              </>
            }
            share={sharingForm({ action: actions.share, visibility: file.visibility, folder: file.filetype === 'fold', ...common })}
            rename={renameForm({ action: actions.rename, filename: file.filename, ...common })}
            move={moveForm({
              action: actions.move,
              current: typeof data.place === 'number' ? data.place : -1,
              destinations: data.destinations.filter((d) => d.n !== file.n),
              ...common,
            })}
            trash={trashForm({ action: actions.trash, ...common })}
          />
        )}
      </div>
    </li>
  );
}
