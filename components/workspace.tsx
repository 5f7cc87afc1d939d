// "My files": the owner's own view of `/~owner/`: a folder's files (or the plots of a grid, or the
// trash), of one kind or all, in an order, each with what can be done to it, and a selection to move,
// share or trash at once. Everything is a link or a form, so it all works without JavaScript.
import { randomUUID } from 'node:crypto';
import Link from 'next/link';
import type { Workspace as WorkspaceData, WorkspaceFile } from '@/lib/web/workspace';
import { VISIBILITY_LABEL } from '@/lib/shared/sharing';
import { editPlotPath, NEW_DASHBOARD_PATH, NEW_PRESENTATION_PATH, pageHref, peoplePath, profilePath, sharedPath, workspacePath } from '@/lib/shared/urls';
import { viewParams } from '@/lib/shared/workspace-view';
import { CopyField } from './copy-field';
import { LinkedFiles, plural } from './linked-files';
import { PlotDataNotice } from './plot-data-notice';
import { SearchForm } from './search-form';
import { ActionForm, ManageForms } from './action-form';
import { BULK_FORM_ID, BulkActions } from './bulk-actions';
import { CsrfField } from './csrf-field';
import {
  type Back,
  backValue,
  deleteForm,
  moveForm,
  newFolderForm,
  renameForm,
  restoreForm,
  sharingForm,
  trashForm,
  type FileActions,
  type View,
} from './file-forms';
import { Notice } from './notice';
import { PathBar, ViewForm } from './workspace-toolbar';
import './workspace-documents.css';

const KIND_LABEL = {
  plot: 'Plot',
  grid: 'Grid',
  fold: 'Folder',
  dashboard: 'Dashboard',
  spectacle_presentation: 'Presentation',
  theme: 'Theme',
  template: 'Template',
} as const;
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

interface Props {
  username: string;
  data: WorkspaceData;
  csrf: string;
  actions: FileActions;
}

export function Workspace({ username, data, csrf, actions }: Props) {
  const trash = data.place === 'trash';
  const uses = typeof data.place === 'object' ? data.place : null;
  const home = profilePath(username);
  const here = typeof data.place === 'number' ? data.place : -1;
  const params = viewParams(data);
  const back = trash ? 'trash' : uses ? { uses: uses.uses } : here;
  // Forms bring the browser back to this view: its kind of file and order too.
  const view: View = { type: params.type as string | undefined, sort: params.sort as string | undefined };
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
          <Link href={sharedPath()}>Shared with me</Link>
        </nav>
        <SearchForm mine />
      </div>
      {data.notice && <Notice key={randomUUID()}>{data.notice}</Notice>}
      {data.plotData && (
        <PlotDataNotice
          data={data.plotData}
          name={data.plotData.plot.filename}
          mode="summary"
          headingLevel={3}
          fix={{ action: actions.followData, csrf, back: here, view }}
        />
      )}
      {data.folderMissing && (
        <p className="notice" role="status">
          That folder or grid is not among your files any more, so here is the top level.
        </p>
      )}
      {data.cursorRejected && (
        <p className="notice" role="status">
          That page link is no longer valid, so here is the first page.
        </p>
      )}
      <PathBar username={username} data={data} />
      {trash && <TrashHead username={username} data={data} csrf={csrf} actions={actions} />}
      {/* One compact row: what to make here, and which files show in what order. */}
      <div className="workspace-toolbar">
        {!trash && !uses && (
          <>
            <Link href={NEW_DASHBOARD_PATH} className="button secondary">
              New dashboard
            </Link>
            <Link href={NEW_PRESENTATION_PATH} className="button secondary">
              New presentation
            </Link>
            <ActionForm {...newFolderForm({ action: actions.createFolder, csrf, back: here, view })} />
          </>
        )}
        <ViewForm home={home} data={data} />
      </div>
      {!trash && data.files.length > 0 && (
        <BulkActions action={actions.bulk} csrf={csrf} back={backValue(back)} view={view} destinations={data.destinations} current={here} />
      )}
      {data.files.length ? (
        <ul className="file-list">
          {data.files.map((file) => (
            <FileRow key={file.fid} file={file} data={data} csrf={csrf} actions={actions} back={back} view={view} />
          ))}
        </ul>
      ) : (
        <div className="empty-state">
          <p>
            {trash
              ? data.filter === 'all'
                ? 'The trash is empty.'
                : 'No files of this kind in the trash.'
              : data.filter === 'all'
                ? 'No files here yet.'
                : 'No files of this kind here.'}
          </p>
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

/** The trash's words and "Empty trash": a link to a confirmation step (works without JavaScript), then its form. */
function TrashHead({ username, data, csrf, actions }: Omit<Props, 'data'> & { data: WorkspaceData }) {
  const confirm = data.emptyConfirm;
  return (
    <>
      <p className="muted">Files you moved to the trash. Restore them, or delete them for good. A folder comes back with what was in it.</p>
      {confirm ? (
        confirm.count ? (
          <section className="empty-confirm" aria-labelledby="empty-confirm-heading">
            <h3 id="empty-confirm-heading">Empty the trash?</h3>
            <p>
              {confirm.atLeast ? 'More than ' : ''}
              {plural(confirm.count, 'file')} will be deleted for good, with everything in the folders among them. This cannot be undone.
            </p>
            <div className="file-actions">
              <ActionForm action={actions.emptyTrash} submit="Yes, empty the trash" kind="danger" className="inline-form" fields={<CsrfField token={csrf} />} />
              <Link href={workspacePath(username, { view: 'trash' })} className="button secondary">
                Cancel
              </Link>
            </div>
          </section>
        ) : (
          <p className="muted">The trash is already empty.</p>
        )
      ) : (
        data.files.length > 0 && (
          <p>
            <Link href={workspacePath(username, { view: 'trash', empty: 'confirm' })} className="button danger">
              Empty trash…
            </Link>
          </p>
        )
      )}
    </>
  );
}

function FileRow({
  file,
  data,
  csrf,
  actions,
  back,
  view,
}: {
  file: WorkspaceFile;
  data: WorkspaceData;
  csrf: string;
  actions: FileActions;
  back: Back;
  view: View;
}) {
  const trash = data.place === 'trash';
  const common = { csrf, fid: file.fid, back, view };
  // A file list names files: the name is what "Rename" changes, so it is what the eye finds; a plot's title follows.
  const name = file.filename;
  const date = trash && file.trashed ? file.trashed : file.modified;
  // Its grids may go with a plot: offered when it draws from a grid of its owner's.
  const grids = file.filetype === 'plot' && (trash || (file.data?.own ?? false));
  return (
    <li className="file-row" data-fid={file.fid} data-filetype={file.filetype} data-kind={file.kind}>
      <div className="file-thumb" aria-hidden="true">
        {file.thumbnail ? (
          <img src={file.thumbnail} alt="" width={100} height={75} loading="lazy" />
        ) : (
          <span className={`file-icon file-icon-${file.filetype}`}>{KIND_LABEL[file.kind]}</span>
        )}
      </div>
      <div className="file-main">
        <div className="file-title">
          {!trash && <input type="checkbox" name="n" value={file.n} form={BULK_FORM_ID} className="file-select" aria-label={`Select ${name}`} />}
          <h3 className="file-name">{trash ? <span>{name}</span> : <Link href={file.href}>{name}</Link>}</h3>
          {file.title && <span className="muted file-plot-title">title: {file.title}</span>}
        </div>
        <p className="file-facts">
          <span>{KIND_LABEL[file.kind]}</span>
          <span className="badge" data-visibility={file.visibility}>
            {VISIBILITY_LABEL[file.visibility]}
          </span>
          <span>
            {trash && file.trashed ? 'Trashed ' : 'Modified '}
            <time dateTime={date}>{dateFormat.format(new Date(date))}</time>
          </span>
          {file.views !== null && <span>{plural(file.views, 'view')}</span>}
          {file.data && <DataFact data={file.data} />}
          {file.usedBy && <UsedByFact usedBy={file.usedBy} />}
        </p>
        {!trash && file.secretUrl && <CopyField id={`secret-${file.n}`} label={`Secret link of ${name}`} value={file.secretUrl} />}
        {trash ? (
          <div className="file-actions">
            <ActionForm {...restoreForm({ action: actions.restore, ...common })} />
            <ActionForm {...deleteForm({ action: actions.remove, grids, ...common })} />
          </div>
        ) : (
          <div className="file-row-actions">
            {(file.filetype === 'dashboard' || file.filetype === 'spectacle_presentation') && (
              <Link className="button secondary" href={editPlotPath(file.fid.split(':')[0], file.n)}>
                Edit <span className="visually-hidden">{name}</span>
              </Link>
            )}
            <Link className="button secondary" href={peoplePath(file.fid.split(':')[0], file.n)}>
              Share with people <span className="visually-hidden">{name}</span>
            </Link>
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
              trash={trashForm({ action: actions.trash, grids, ...common })}
            />
          </div>
        )}
      </div>
    </li>
  );
}

/** "data: <grid>" on a plot: the grids it draws from, linked, and how many more. */
function DataFact({ data }: { data: NonNullable<WorkspaceFile['data']> }) {
  return <LinkedFiles className="file-data" label="data:" files={data.grids} hidden={data.hidden} noun="grid" />;
}

/** "used by N plots" on a grid: the owner's plots on it (a workspace view), and others' counted. */
function UsedByFact({ usedBy }: { usedBy: NonNullable<WorkspaceFile['usedBy']> }) {
  if (!usedBy.own && !usedBy.others) return <span className="muted file-used-by">used by no plot</span>;
  return (
    <span className="file-used-by">
      used by {usedBy.own > 0 && <Link href={usedBy.href}>{plural(usedBy.own, 'plot')}</Link>}
      {usedBy.own > 0 && usedBy.others > 0 && ' and '}
      {usedBy.others > 0 && `${plural(usedBy.others, 'plot')} of other people`}
    </span>
  );
}
