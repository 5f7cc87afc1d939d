// Every URL the app emits is built here: the web's paths (a profile or workspace `/~owner/`, a file's
// page `/~owner/n/` and its .embed, .png, .json and .csv), avatars, the API's file URLs and a plot's
// content; paths for the pages' own links, at the public origin in API records. Each part is encoded.
// Pure (the browser builds its links with it). Plot records are built by Postgres: their SQL twins are
// lib/core/url-sql.ts (tests/lib/urls.test.ts holds the two to the same URLs).

const part = encodeURIComponent;

/** A file's forms on the web: its page, its embed, its default image and its downloads. */
export type FileForm = 'page' | 'embed' | 'png' | 'json' | 'csv';
/** The image sizes beyond the default (lib/core/images/images.ts IMAGE_SIZES). */
export type ThumbSize = 'block-thumb' | 'list-thumb' | 'card';
/** The API's collections a file is found in by fid. */
export type ApiCollection = 'files' | 'plots' | 'grids' | 'folders' | 'dashboards' | 'spectacle-presentations';

/** The sign-in page (`/signin`), with a refused attempt's error code and where to go after, when given. */
export function signInPath(q: { error?: string; next?: string | null } = {}): string {
  const search = [q.error && `error=${part(q.error)}`, q.next && `next=${part(q.next)}`].filter(Boolean).join('&');
  return search ? `/signin?${search}` : '/signin';
}

/** The sign-in page, coming back to `next` after: where a signed-out visitor of a page for signed-in people goes first. */
export const signInFirst = (next: string) => signInPath({ next });

/** A user's page (their profile; to themselves, their workspace). */
export const profilePath = (owner: string) => `/~${part(owner)}/`;

/** The workspace `/~owner/` with its parameters (a folder, the trash, a notice), unset ones left out. */
export function workspacePath(owner: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  return search.size ? `${profilePath(owner)}?${search}` : profilePath(owner);
}

/** A page of a list at `path`: the given parameters (unset and empty ones left out) and the cursor. */
export function pageHref(path: string, params: Record<string, string | number | undefined>, cursor?: string | null): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  if (cursor) search.set('cursor', cursor);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** `/~owner/n/` (the file's page), or `/~owner/n.embed`, `.png`, `.json`, `.csv`. */
export function filePath(owner: string, n: number, form: FileForm = 'page'): string {
  const base = `/~${part(owner)}/${n}`;
  return form === 'page' ? `${base}/` : `${base}.${form}`;
}

/**
 * A file's address on this site in every form the clients and pages make: the page (`/~owner/n`, with
 * or without its slash, or Chart Studio's `/~owner/n/name-of-plot/`), its embed (`.embed`, `/embed`,
 * and the Python client's presentations' `/~owner/n/.embed`), `.png`, `.json` and `.csv`. The one
 * parser of them (next.config.mjs routes the same forms; tests/unit/urls.test.ts holds both to one table).
 */
const FILE_ADDRESS = /^\/~([^/]+)\/([1-9][0-9]{0,9})(?:\/?\.(embed|png|json|csv)|\/(embed)\/?|\/(?:[A-Za-z0-9_~-][A-Za-z0-9_.~-]*\/?)?)?$/;

export function fileAddress(pathname: string): { owner: string; n: number; form: FileForm } | null {
  const m = FILE_ADDRESS.exec(pathname);
  if (!m) return null;
  let owner: string;
  try {
    owner = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  const form = (m[3] ?? m[4] ?? 'page') as FileForm;
  return { owner, n: Number(m[2]), form };
}

/** The host a URL names, without its scheme's default port: http and https of one host are one site (behind a TLS proxy). */
const siteHost = (url: URL) => url.hostname.toLowerCase() + (url.port && url.port !== '80' && url.port !== '443' ? `:${url.port}` : '');

/**
 * The file of this site a URL names (absolute on this site's host, http or https, or a path), with
 * the share key it carries; null for another site's address or one that names no file.
 */
export function siteFileOf(url: string, origin: string): { owner: string; n: number; form: FileForm; shareKey: string | null } | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim(), origin);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(parsed.protocol) || siteHost(parsed) !== siteHost(new URL(origin))) return null;
  const file = fileAddress(parsed.pathname);
  return file && { ...file, shareKey: parsed.searchParams.get('share_key') };
}

/** The plot Chart Studio's editor link `/create/?fid=owner:n` names (its `fid` parameter), or null. */
export function editorLinkFid(fid: string | null | undefined): { owner: string; n: number } | null {
  const m = fid ? /^([^:/]{1,50}):([1-9][0-9]{0,9})$/.exec(fid) : null;
  return m ? { owner: m[1], n: Number(m[2]) } : null;
}

/** The web's data import, where a new chart starts (`/create`). */
export const NEW_CHART_PATH = '/create';

/** The dashboard builder, for a new dashboard (an existing one is edited at its `/~owner/n/edit`). */
export const NEW_DASHBOARD_PATH = '/create/dashboard';

/** The deck editor, for a new presentation (an existing one is edited at its `/~owner/n/edit`). */
export const NEW_PRESENTATION_PATH = '/create/presentation';

/**
 * The chart editor for a new plot, on one of the viewer's grids when given (`/create/chart?grid=owner:n`),
 * started from a template (`&template=owner:n`) when given.
 */
export function newChartPath(grid?: { owner: string; n: number }, template?: { owner: string; n: number }): string {
  if (!grid) return '/create/chart';
  const path = `/create/chart?grid=${part(grid.owner)}:${grid.n}`;
  return template ? `${path}&template=${part(template.owner)}:${template.n}` : path;
}

/** The editor of an existing file (`/~owner/n/edit`): the chart editor on a plot, the data editor on a grid. */
export const editPlotPath = (owner: string, n: number) => `${filePath(owner, n)}edit`;

/** A plot's history (`/~owner/n/history`), or one version of it drawn (`/~owner/n/history/k`). */
export const historyPath = (owner: string, n: number, version?: number) => `${filePath(owner, n)}history${version ? `/${version}` : ''}`;

/** A plot's data as a table (`/~owner/n/data-table`), page `page` of it when past the first. */
export const dataTablePath = (owner: string, n: number, page?: number) => `${filePath(owner, n)}data-table${page && page > 1 ? `?page=${page}` : ''}`;

/** Who a file is shared with by name, and the owner's forms to change it (`/~owner/n/people`). */
export const peoplePath = (owner: string, n: number) => `${filePath(owner, n)}people`;

/** A presentation's slides after the first, as its deck asks for them (`?from=k`). */
export const slidesPath = (owner: string, n: number) => `${filePath(owner, n)}slides`;

/** The files others shared with the signed-in person (`/shared`), or what one shared folder holds (`?folder=owner:n`). */
export const sharedPath = (folder?: { owner: string; n: number }) => (folder ? `/shared?folder=${part(folder.owner)}:${folder.n}` : '/shared');

/** A plot version's content as its history page draws it (data inlined as on the plot's page). */
export const versionContentPath = (owner: string, n: number, version: number) =>
  `${apiFilePath('plots', owner, n)}/versions/${version}/content?inline_data=true&map_data=unreadable`;

/** A plot's image: the default size, or a thumbnail. */
export const imagePath = (owner: string, n: number, size?: ThumbSize) => `${filePath(owner, n, 'png')}${size ? `?size=${size}` : ''}`;

export const avatarPath = (username: string) => `/avatars/${part(username)}.svg`;
export const BACKGROUND_PATH = '/background.svg';

/** `/v2/{collection}/{owner}:{n}`. */
export const apiFilePath = (collection: ApiCollection, owner: string, n: number) => `/v2/${collection}/${part(owner)}:${n}`;

/** A file's parent folder in the API: the owner's home folder (-1) or a folder. */
export const parentApiPath = (owner: string, parent: number) =>
  parent === -1 ? `/v2/folders/home?user=${part(owner)}` : apiFilePath('folders', owner, parent);

/** A plot's content (its figure with data). */
export const contentPath = (owner: string, n: number) => `${apiFilePath('plots', owner, n)}/content`;

/** The content a page's chart draws: data inlined, and unreadable data served as map_data. */
export const chartContentPath = (owner: string, n: number) => `${contentPath(owner, n)}?inline_data=true&map_data=unreadable`;

/** A plot's long traces for one view (issue 39: app/files/[owner]/[n]/view/route.ts). */
export const chartViewPath = (owner: string, n: number) => `/~${part(owner)}/${n}/view`;

/** The URLs a page's chart draws from: drawn by the view, the figure alone and its views; else the content with its data. */
export const chartUrls = (owner: string, n: number, shareKey: string | null | undefined, byView: boolean) =>
  byView
    ? { contentUrl: withShareKey(contentPath(owner, n), shareKey), viewUrl: withShareKey(chartViewPath(owner, n), shareKey) }
    : { contentUrl: withShareKey(chartContentPath(owner, n), shareKey), viewUrl: undefined };

/** `url` with `share_key=` added when there is a key (a secret link). */
export function withShareKey(url: string, shareKey: string | null | undefined): string {
  return shareKey ? `${url}${url.includes('?') ? '&' : '?'}share_key=${part(shareKey)}` : url;
}

/** The URLs of a file's record (spec 2.1): its page, embed and images. */
export function fileUrls(origin: string, owner: string, n: number) {
  return {
    web_url: `${origin}${filePath(owner, n)}`,
    embed_url: `${origin}${filePath(owner, n, 'embed')}`,
    image_urls: {
      default: `${origin}${imagePath(owner, n)}`,
      'block-thumb': `${origin}${imagePath(owner, n, 'block-thumb')}`,
      'list-thumb': `${origin}${imagePath(owner, n, 'list-thumb')}`,
    },
  };
}

/** The URLs of a user's record (spec 2.3). */
export function userUrls(origin: string, username: string) {
  return {
    profile_url: `${origin}${profilePath(username)}`,
    avatar_url: `${origin}${avatarPath(username)}`,
    background_url: `${origin}${BACKGROUND_PATH}`,
  };
}
