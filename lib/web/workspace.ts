// "My files" (`/~owner/` to its owner): a folder's files, the plots drawing from one grid, or the trash,
// of one kind or all, in one of three orders, paged with the lists' keyset pager; with what each row
// shows (a plot's grids, a grid's plots) and the folders a file can move to.
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { countTrash, EMPTY_TRASH_BATCH } from '@/lib/core/workspace/bulk-changes';
import { getFile, type Filetype } from '@/lib/core/files/files';
import { listOwnFiles, listOwnFolders } from '@/lib/core/files/own-files';
import { findOwnGridsAndFolders } from '@/lib/core/workspace/name-search';
import type { OwnFilter, OwnSort } from '@/lib/shared/workspace-view';
import { isOwner, shownShareKey, visibilityOf, type Visibility } from '@/lib/core/permissions';
import type { PlotData } from '@/lib/core/plots/plot-data-sharing';
import { countPlotsOfGrids, gridKey, gridsOfPlots } from '@/lib/core/files/references';
import { fidOf } from '@/lib/core/records';
import { filePath, imagePath, withShareKey, workspacePath } from '@/lib/shared/urls';
import { cursorQuery, withCursorFallback } from './gallery';
import { folderPath, NOTICES, ownPlotData, viewSchema, type Notice } from './file-forms';
import { versionedImage } from './plot-cards';

/** Files a page. */
export const WORKSPACE_PAGE_SIZE = 30;

/** What kind of file a row is: a plot, a theme or template (plots of their own kind), a grid, a folder. */
export type FileKind = Filetype | 'theme' | 'template';

export interface WorkspaceFile {
  fid: string;
  n: number;
  filetype: Filetype;
  kind: FileKind;
  filename: string;
  /** A plot's title when it differs from its file name. */
  title: string | null;
  /** Its page (a folder: the workspace inside it). */
  href: string;
  thumbnail: string | null;
  visibility: Visibility;
  /** The secret link, for the owner to share (secret plots and grids). */
  secretUrl: string | null;
  created: string;
  modified: string;
  /** A plot's views (null for grids and folders). */
  views: number | null;
  trashed: string | null;
  /** A plot's data: the grids it draws from that its owner may read (linked), and how many others. */
  data: { grids: { name: string; href: string }[]; hidden: number; own: boolean } | null;
  /** A grid's plots: the owner's (listed at `href`) and others'. */
  usedBy: { own: number; others: number; href: string } | null;
}

export interface Workspace {
  place: number | 'trash' | { uses: number; name: string };
  filter: OwnFilter;
  sort: OwnSort;
  /** The folders from the top level down to this one. */
  crumbs: { n: number; name: string }[];
  files: WorkspaceFile[];
  next: string | null;
  previous: string | null;
  cursorRejected: boolean;
  /** `?folder=` or `?uses=` named no live folder or grid of the owner: the top level is shown instead. */
  folderMissing: boolean;
  /** Where a file can move to: the top level and every live folder, by path. */
  destinations: { n: number; path: string }[];
  notice: string | null;
  /** After a plot's sharing changed (`?plot=n`): what its grids are now, and why some stay public. */
  plotData: PlotData | null;
  /** The trash asked to be emptied (`?empty=confirm`): how many files would go (counted up to a bound). */
  emptyConfirm: { count: number; atLeast: boolean } | null;
}

/** A `?notice=` code (a plot's page, after one of its owner's forms), else null. */
export function ownerNoticeCode(value: unknown): Notice | null {
  return paramsSchema.shape.notice.parse(Array.isArray(value) ? value[0] : value) ?? null;
}

/** After these, the page says what the plot's grids are now: the plot's sharing, or theirs, changed. */
export const showsPlotData = (code: Notice | null | undefined) => code === 'shared' || code === 'followed';

type SearchParams = Record<string, string | string[] | undefined>;

const count = z.coerce.number().int().min(0).max(1_000_000).optional().catch(undefined);
const paramsSchema = z.object({
  view: z.enum(['files', 'trash']).catch('files'),
  folder: z.coerce.number().int().min(-1).max(2147483647).catch(-1),
  uses: z.coerce.number().int().min(0).max(2147483647).optional().catch(undefined),
  ...viewSchema.shape,
  notice: z
    .enum(Object.keys(NOTICES) as [Notice, ...Notice[]])
    .optional()
    .catch(undefined),
  plot: z.coerce.number().int().min(0).max(2147483647).optional().catch(undefined),
  files: count,
  grids: count,
  more: z.literal('1').optional().catch(undefined),
  empty: z.literal('confirm').optional().catch(undefined),
});

/** The workspace's place, kind, order, notice and cursor from its URL; a bad value is dropped (its default). */
export function workspaceQuery(params: SearchParams) {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const parsed = paramsSchema.parse(Object.fromEntries(Object.keys(paramsSchema.shape).map((key) => [key, one(params[key])])));
  return { ...parsed, cursor: cursorQuery(params).query.cursor };
}
export type WorkspaceQuery = ReturnType<typeof workspaceQuery>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A notice's text for a change on several files (`files` of them). */
const MANY: Partial<Record<Notice, (files: string) => string>> = {
  moved: (files) => `${files} moved.`,
  shared: (files) => `Sharing of ${files} changed.`,
  trashed: (files) => `${files} moved to the trash. You can restore them from the Trash.`,
};

/** The notice's fixed text, with the counts a change reported (numbers only come from the URL). */
function noticeText(q: WorkspaceQuery): string | null {
  if (!q.notice) return null;
  if (q.notice === 'emptied') return `${plural(q.files ?? 0, 'file')} deleted for good.${q.more ? ' More are left: empty the trash again.' : ''}`;
  const many = (q.files ?? 1) > 1;
  const head = many ? (MANY[q.notice]?.(plural(q.files ?? 0, 'file')) ?? NOTICES[q.notice]) : NOTICES[q.notice];
  const grids = q.grids ? ` ${plural(q.grids, 'grid')} only ${many ? 'they' : 'it'} used went with ${many ? 'them' : 'it'}.` : '';
  return head + grids;
}

export async function workspacePage(db: Db, viewer: Viewer, origin: string, q: WorkspaceQuery): Promise<Workspace> {
  const owner = viewer.username;
  const folders = await listOwnFolders(db, viewer.id);
  const usesGrid = q.view === 'files' && q.uses !== undefined ? await getFile(db, { owner, n: q.uses }, viewer) : undefined;
  const grid = usesGrid?.filetype === 'grid' && isOwner(viewer, usesGrid) ? usesGrid : undefined;
  const path = q.view === 'files' && q.folder !== -1 ? folderPath(folders, q.folder) : null;
  const folderMissing = q.view === 'files' && ((q.uses !== undefined && !grid) || (q.uses === undefined && q.folder !== -1 && !path));
  const place: Workspace['place'] = q.view === 'trash' ? 'trash' : grid ? { uses: grid.n, name: grid.filename } : path ? q.folder : -1;
  const listed = typeof place === 'object' ? { uses: place.uses } : place;
  const page = await withCursorFallback(folderMissing ? undefined : q.cursor, (cursor) =>
    listOwnFiles(db, viewer, listed, { cursor, size: WORKSPACE_PAGE_SIZE, filter: q.type, sort: q.sort }),
  );
  const crumbs: Workspace['crumbs'] = [];
  if (typeof place === 'number' && place !== -1) {
    // The chain of folders up from this one (folderPath checked it is whole).
    const byN = new Map(folders.map((f) => [f.n, f]));
    for (let at = byN.get(place); at; at = byN.get(at.parent)) crumbs.unshift({ n: at.n, name: at.filename });
  }
  // What the page's plots draw from and who draws from its grids: one query each for the page.
  const live = page.rows.filter((r) => !r.trashed);
  const plotGrids = await gridsOfPlots(
    db,
    viewer.id,
    live.filter((r) => r.filetype === 'plot').map((r) => Number(r.id)),
  );
  const gridPlots = await countPlotsOfGrids(
    db,
    viewer.id,
    live.filter((r) => r.filetype === 'grid').map((r) => ({ owner, n: r.n })),
  );
  const emptyCount = q.view === 'trash' && q.empty ? await countTrash(db, viewer, EMPTY_TRASH_BATCH * 20 + 1) : null;
  return {
    place,
    filter: q.type,
    sort: q.sort,
    crumbs,
    files: page.rows.map((row) => {
      const visibility = visibilityOf(row.world_readable, row.share_key !== null);
      const href = row.filetype === 'fold' ? workspacePath(owner, { folder: row.n }) : filePath(owner, row.n);
      const grids = row.filetype === 'plot' && !row.trashed ? plotGrids.get(Number(row.id)) : undefined;
      const users = row.filetype === 'grid' && !row.trashed ? (gridPlots.get(gridKey(owner, row.n)) ?? { own: 0, others: 0 }) : null;
      return {
        fid: fidOf(owner, row.n),
        n: row.n,
        filetype: row.filetype,
        kind: row.is_theme ? 'theme' : row.is_template ? 'template' : row.filetype,
        filename: row.filename,
        title: row.title && row.title !== row.filename ? row.title : null,
        href,
        thumbnail: row.filetype === 'plot' && !row.trashed ? versionedImage(imagePath(owner, row.n, 'list-thumb'), row.modified) : null,
        visibility,
        secretUrl:
          row.filetype !== 'fold' && visibility === 'secret'
            ? withShareKey(
                `${origin}${filePath(owner, row.n)}`,
                shownShareKey({ ownerId: viewer.id, worldReadable: row.world_readable, shareKey: row.share_key }, viewer),
              )
            : null,
        created: row.created,
        modified: row.modified,
        views: row.filetype === 'plot' ? row.views : null,
        trashed: row.trashed,
        data: grids
          ? {
              grids: grids.grids.map((g) => ({ name: g.owner === owner ? g.filename : `${g.filename} (~${g.owner})`, href: filePath(g.owner, g.n) })),
              hidden: grids.hidden,
              own: grids.grids.some((g) => g.owner === owner),
            }
          : null,
        usedBy: users && { ...users, href: workspacePath(owner, { uses: row.n }) },
      };
    }),
    next: page.next,
    previous: page.previous,
    cursorRejected: page.cursorRejected,
    folderMissing,
    destinations: [
      { n: -1, path: 'Top level' },
      ...folders
        .map((f) => ({ n: f.n, path: folderPath(folders, f.n)?.join(' / ') ?? '' }))
        .filter((d) => d.path)
        .sort((a, b) => a.path.localeCompare(b.path)),
    ],
    notice: noticeText(q),
    plotData: showsPlotData(q.notice) && q.plot !== undefined ? await ownPlotData(db, viewer, q.plot) : null,
    emptyConfirm: emptyCount === null ? null : { count: Math.min(emptyCount, EMPTY_TRASH_BATCH * 20), atLeast: emptyCount > EMPTY_TRASH_BATCH * 20 },
  };
}

/** A grid or folder a search of one's own files found: its page (a folder's: the workspace in it) and where it is. */
export interface NameMatch {
  fid: string;
  kind: 'grid' | 'fold';
  name: string;
  href: string;
  /** The folders it is in, from the top ("My files" at the top level). */
  where: string;
}

/** The viewer's grids and folders whose names have the words of `q` (plots and documents are searched apart). */
export async function ownNameMatches(db: Db, viewer: Viewer, q: string): Promise<NameMatch[]> {
  const rows = await findOwnGridsAndFolders(db, viewer, q);
  if (!rows.length) return [];
  const folders = await listOwnFolders(db, viewer.id);
  const owner = viewer.username;
  return rows.map((r) => ({
    fid: fidOf(owner, r.n),
    kind: r.filetype,
    name: r.filename,
    href: r.filetype === 'fold' ? workspacePath(owner, { folder: r.n }) : filePath(owner, r.n),
    where: ['My files', ...((r.parent !== -1 && folderPath(folders, r.parent)) || [])].join(' / '),
  }));
}
