// "My files" (`/~owner/` to its owner): a folder's files or the trash, paged with the lists' keyset
// pager, with what each row shows and the folders a file can move to.
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/auth';
import { listOwnFiles, listOwnFolders } from '@/lib/core/own-files';
import type { Filetype } from '@/lib/core/files';
import { visibilityOf, type Visibility } from '@/lib/core/permissions';
import type { PlotData } from '@/lib/core/plot-data-sharing';
import { fidOf } from '@/lib/core/records';
import { filePath, imagePath, withShareKey, workspacePath } from '@/lib/core/urls';
import { cursorQuery, withCursorFallback } from './gallery';
import { folderPath, NOTICES, ownPlotData, type Notice } from './file-forms';
import { versionedImage } from './plot-cards';

/** Files a page. */
export const WORKSPACE_PAGE_SIZE = 30;

export interface WorkspaceFile {
  fid: string;
  n: number;
  filetype: Filetype;
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
  trashed: string | null;
}

export interface Workspace {
  place: number | 'trash';
  /** The folders from the top level down to this one. */
  crumbs: { n: number; name: string }[];
  files: WorkspaceFile[];
  next: string | null;
  previous: string | null;
  cursorRejected: boolean;
  /** `?folder=` named no live folder of the owner: the top level is shown instead. */
  folderMissing: boolean;
  /** Where a file can move to: the top level and every live folder, by path. */
  destinations: { n: number; path: string }[];
  notice: string | null;
  /** After a plot's sharing changed (`?plot=n`): what its grids are now, and why some stay public. */
  plotData: PlotData | null;
}

/** A `?notice=` code (a plot's page, after one of its owner's forms), else null. */
export function ownerNoticeCode(value: unknown): Notice | null {
  return paramsSchema.shape.notice.parse(Array.isArray(value) ? value[0] : value) ?? null;
}

/** After these, the page says what the plot's grids are now: the plot's sharing, or theirs, changed. */
export const showsPlotData = (code: Notice | null | undefined) => code === 'shared' || code === 'followed';

type SearchParams = Record<string, string | string[] | undefined>;

const paramsSchema = z.object({
  view: z.enum(['files', 'trash']).catch('files'),
  folder: z.coerce.number().int().min(-1).max(2147483647).catch(-1),
  notice: z
    .enum(Object.keys(NOTICES) as [Notice, ...Notice[]])
    .optional()
    .catch(undefined),
  plot: z.coerce.number().int().min(0).max(2147483647).optional().catch(undefined),
});

/** The workspace's place, notice and cursor from its URL; a bad value is dropped (the top level). */
export function workspaceQuery(params: SearchParams) {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const parsed = paramsSchema.parse({ view: one(params.view), folder: one(params.folder) ?? -1, notice: one(params.notice), plot: one(params.plot) });
  return { ...parsed, cursor: cursorQuery(params).query.cursor };
}

export async function workspacePage(db: Db, viewer: Viewer, origin: string, q: ReturnType<typeof workspaceQuery>): Promise<Workspace> {
  const folders = await listOwnFolders(db, viewer.id);
  const path = q.view === 'files' && q.folder !== -1 ? folderPath(folders, q.folder) : null;
  const folderMissing = q.view === 'files' && q.folder !== -1 && !path;
  const place = q.view === 'trash' ? 'trash' : path ? q.folder : -1;
  const page = await withCursorFallback(folderMissing ? undefined : q.cursor, (cursor) =>
    listOwnFiles(db, viewer, place, { cursor, size: WORKSPACE_PAGE_SIZE }),
  );
  const crumbs: Workspace['crumbs'] = [];
  if (typeof place === 'number' && place !== -1) {
    // The chain of folders up from this one (folderPath checked it is whole).
    const byN = new Map(folders.map((f) => [f.n, f]));
    for (let at = byN.get(place); at; at = byN.get(at.parent)) crumbs.unshift({ n: at.n, name: at.filename });
  }
  const owner = viewer.username;
  return {
    place,
    crumbs,
    files: page.rows.map((row) => {
      const visibility = visibilityOf(row.world_readable, row.share_key !== null);
      const href = row.filetype === 'fold' ? workspacePath(owner, { folder: row.n }) : filePath(owner, row.n);
      return {
        fid: fidOf(owner, row.n),
        n: row.n,
        filetype: row.filetype,
        filename: row.filename,
        title: row.title && row.title !== row.filename ? row.title : null,
        href,
        thumbnail: row.filetype === 'plot' && !row.trashed ? versionedImage(imagePath(owner, row.n, 'list-thumb'), row.modified) : null,
        visibility,
        secretUrl: visibility === 'secret' && row.filetype !== 'fold' ? withShareKey(`${origin}${filePath(owner, row.n)}`, row.share_key) : null,
        created: row.created,
        trashed: row.trashed,
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
    notice: q.notice ? NOTICES[q.notice] : null,
    plotData: showsPlotData(q.notice) && q.plot !== undefined ? await ownPlotData(db, viewer, q.plot) : null,
  };
}
