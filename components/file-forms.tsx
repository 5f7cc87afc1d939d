// The owner's forms on one file, shared by the workspace (`/~owner/`) and a plot's page: each is a
// FormSpec (server-rendered fields: the file, the anti-forgery token, where to go back to) for an
// ActionForm or the workspace's ManageForms; the actions are the page's server actions, passed in
// (components never import app/).
import { type Visibility, VISIBILITIES, VISIBILITY_LABEL, visibilityHint } from '@/lib/shared/sharing';
import { MAX_CAPTION_CHARS, MAX_FILENAME_CHARS, MAX_PATH_CHARS, MAX_PLOT_TITLE_CHARS } from '@/lib/shared/limits';
import type { FormAction, FormSpec } from './action-form';
import { CsrfField } from './csrf-field';

/** The page's server actions (app/_actions/files.ts). */
export interface FileActions {
  share: FormAction;
  rename: FormAction;
  move: FormAction;
  edit: FormAction;
  trash: FormAction;
  restore: FormAction;
  remove: FormAction;
  createFolder: FormAction;
  /** A plot's public grids that need not be public follow its sharing (components/plot-data-notice.tsx). */
  followData: FormAction;
  /** The workspace's selection moved, shared or trashed (components/bulk-actions.tsx). */
  bulk: FormAction;
  /** Everything in the trash deleted for good, once confirmed. */
  emptyTrash: FormAction;
}

/** Where the form sends the browser back to: a workspace folder (-1 the top level), the trash, the plots of a grid, or the plot's page. */
export type Back = number | 'trash' | 'plot' | { uses: number };

/** `back` as the form sends it (lib/web/file-forms.ts reads it). */
export const backValue = (back: Back) => (typeof back === 'object' ? `uses:${back.uses}` : String(back));

/** The workspace view's kind of file and order (absent: the defaults), which the way back keeps. */
export interface View {
  type?: string;
  sort?: string;
}

/** The view's fields, for lib/web/file-forms.ts to send the browser back to it. */
export function ViewFields({ view }: { view?: View }) {
  return (
    <>
      {view?.type && <input type="hidden" name="type" value={view.type} />}
      {view?.sort && <input type="hidden" name="sort" value={view.sort} />}
    </>
  );
}

interface Common {
  action: FormAction;
  csrf: string;
  fid: string;
  back: Back;
  view?: View;
}

function Hidden({ csrf, fid, back, view }: Omit<Common, 'action'>) {
  return (
    <>
      <CsrfField token={csrf} />
      <input type="hidden" name="fid" value={fid} />
      <input type="hidden" name="back" value={backValue(back)} />
      <ViewFields view={view} />
    </>
  );
}

/** A plot's "and its grids" box, ticked by default: no grid is left behind that nothing draws from. */
function GridsBox({ verb }: { verb: string }) {
  return (
    <label className="confirm">
      <input type="checkbox" name="grids" value="yes" defaultChecked /> Also {verb} the grids only it uses
    </label>
  );
}

export function sharingForm({ visibility, folder, ...common }: Common & { visibility: Visibility; folder?: boolean }): FormSpec {
  return {
    action: common.action,
    submit: 'Save sharing',
    className: 'sharing-form',
    fields: (
      <>
        <Hidden {...common} />
        <fieldset>
          <legend>Who can see it</legend>
          {VISIBILITIES.filter((v) => !folder || v !== 'secret').map((v) => (
            <label key={v}>
              <input type="radio" name="sharing" value={v} defaultChecked={visibility === v} /> {VISIBILITY_LABEL[v]}{' '}
              <span className="muted">{visibilityHint(v, { noun: folder ? 'folder' : 'file', own: true })}</span>
            </label>
          ))}
        </fieldset>
      </>
    ),
  };
}

export function renameForm({ filename, ...common }: Common & { filename: string }): FormSpec {
  return {
    action: common.action,
    submit: 'Rename',
    className: 'inline-form',
    fields: (
      <>
        <Hidden {...common} />
        <label>
          Name
          <input name="filename" defaultValue={filename} required maxLength={MAX_FILENAME_CHARS} autoComplete="off" />
        </label>
      </>
    ),
  };
}

/** A folder to move files into (`parent`), by path: one file's move and the workspace's selection. */
export function FolderSelect({ label, current, destinations }: { label: string; current: number; destinations: { n: number; path: string }[] }) {
  return (
    <label>
      {label}
      <select name="parent" defaultValue={String(current)}>
        {destinations.map((d) => (
          <option key={d.n} value={d.n}>
            {d.path}
          </option>
        ))}
      </select>
    </label>
  );
}

export function moveForm({ current, destinations, ...common }: Common & { current: number; destinations: { n: number; path: string }[] }): FormSpec {
  return {
    action: common.action,
    submit: 'Move',
    className: 'inline-form',
    fields: (
      <>
        <Hidden {...common} />
        <FolderSelect label="Folder" current={current} destinations={destinations} />
      </>
    ),
  };
}

/** `grids`: the file is a plot drawing from grids of its owner, which may go with it. */
export function trashForm({ grids, ...common }: Common & { grids?: boolean }): FormSpec {
  return {
    action: common.action,
    submit: 'Move to trash',
    kind: 'danger',
    className: 'inline-form',
    fields: (
      <>
        <Hidden {...common} />
        {grids && <GridsBox verb="trash" />}
      </>
    ),
  };
}

export function restoreForm(common: Common): FormSpec {
  return {
    action: common.action,
    submit: 'Restore',
    className: 'inline-form',
    fields: (
      <>
        <Hidden {...common} />
      </>
    ),
  };
}

/** Deleting for good asks for a ticked box first: a confirmation that needs no JavaScript. */
export function deleteForm({ grids, ...common }: Common & { grids?: boolean }): FormSpec {
  return {
    action: common.action,
    submit: 'Delete for good',
    kind: 'danger',
    className: 'inline-form',
    fields: (
      <>
        <Hidden {...common} />
        {grids && <GridsBox verb="delete" />}
        <label className="confirm">
          <input type="checkbox" name="confirm" value="yes" /> Yes, delete it for good
        </label>
      </>
    ),
  };
}

export function editPlotForm({ title, caption, ...common }: Common & { title: string; caption: string }): FormSpec {
  return {
    action: common.action,
    submit: 'Save title and caption',
    className: 'form edit-form',
    kind: 'primary',
    fields: (
      <>
        <Hidden {...common} />
        <label>
          Title
          <input name="title" defaultValue={title} maxLength={MAX_PLOT_TITLE_CHARS} autoComplete="off" />
        </label>
        <label>
          Caption
          <textarea name="caption" defaultValue={caption} rows={3} maxLength={MAX_CAPTION_CHARS} />
        </label>
      </>
    ),
  };
}

export function newFolderForm({ action, csrf, back, view }: { action: FormAction; csrf: string; back: number; view?: View }): FormSpec {
  return {
    action,
    submit: 'Create folder',
    className: 'inline-form new-folder',
    fields: (
      <>
        <CsrfField token={csrf} />
        <input type="hidden" name="back" value={String(back)} />
        <ViewFields view={view} />
        <label>
          New folder
          <input name="name" required maxLength={MAX_PATH_CHARS} autoComplete="off" />
        </label>
      </>
    ),
  };
}
