// Above the workspace's list: where one is (the path bar, with a jump to any folder) and which files
// show in what order. Plain links and GET forms, so every view is a link and needs no JavaScript.
import Link from 'next/link';
import type { Workspace as WorkspaceData } from '@/lib/web/workspace';
import { profilePath, workspacePath } from '@/lib/shared/urls';
import { type OwnFilter, type OwnSort, viewParams } from '@/lib/shared/workspace-view';

const FILTER_LABEL: Record<OwnFilter, string> = {
  all: 'All files',
  plot: 'Plots',
  grid: 'Grids',
  fold: 'Folders',
  dashboard: 'Dashboards',
  spectacle_presentation: 'Presentations',
  theme: 'Themes',
  template: 'Templates',
};
const SORT_LABEL: Record<OwnSort, string> = { modified: 'Last modified', name: 'Name', views: 'Most viewed' };

/** "My files / archive / 2024" (or "/ Trash"), and "Go to folder": any of the person's folders, by path. */
export function PathBar({ username, data }: { username: string; data: WorkspaceData }) {
  const home = profilePath(username);
  const trash = data.place === 'trash';
  const uses = typeof data.place === 'object' ? data.place : null;
  const at = typeof data.place === 'number' ? data.place : null;
  // The jump keeps the kind and order shown (the trash has no order of its own to give).
  const { type, sort } = trash ? { type: undefined, sort: undefined } : viewParams(data);
  return (
    <div className="path-bar">
      {uses ? (
        <p className="uses-heading">
          Your plots drawing from the grid <strong>{uses.name}</strong> · <Link href={home}>All files</Link>
        </p>
      ) : (
        <nav aria-label="Folder" className="breadcrumbs">
          <ol>
            <li>{data.crumbs.length || trash ? <Link href={home}>My files</Link> : <span aria-current="page">My files</span>}</li>
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
            {trash && (
              <li>
                <span aria-current="page">Trash</span>
              </li>
            )}
          </ol>
        </nav>
      )}
      <form method="get" action={home} className="folder-jump">
        {type !== undefined && <input type="hidden" name="type" value={String(type)} />}
        {sort !== undefined && <input type="hidden" name="sort" value={String(sort)} />}
        <label>
          Go to folder
          <select name="folder" defaultValue={String(at ?? -1)}>
            {data.destinations.map((d) => (
              <option key={d.n} value={d.n}>
                {d.n === -1 ? 'My files' : d.path}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="secondary">
          Go
        </button>
      </form>
    </div>
  );
}

/** Which kind of file to show and in what order: a plain GET form, so every view is a link. */
export function ViewForm({ home, data }: { home: string; data: WorkspaceData }) {
  const trash = data.place === 'trash';
  const { type: _type, sort: _sort, ...place } = viewParams(data);
  return (
    <form method="get" action={home} className="view-form">
      {Object.entries(place).map(([key, value]) => value !== undefined && <input key={key} type="hidden" name={key} value={String(value)} />)}
      <label>
        Show
        <select name="type" defaultValue={data.filter}>
          {Object.entries(FILTER_LABEL)
            // A grid's plots are plots, themes and templates only.
            .filter(([value]) => typeof data.place !== 'object' || ['all', 'plot', 'theme', 'template'].includes(value))
            .map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
        </select>
      </label>
      {!trash && (
        <label>
          Sort by
          <select name="sort" defaultValue={data.sort}>
            {Object.entries(SORT_LABEL).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" className="secondary">
        Apply
      </button>
    </form>
  );
}
