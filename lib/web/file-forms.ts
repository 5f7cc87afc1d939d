// The owner's forms on their files (the workspace `/~owner/` and a plot's page): each one reads its
// fields with the API's own schemas first (formAction) and calls the core function the API calls, so the
// rules and the error messages are the API's; a plot's sharing also takes its grids along (the web's alone: see
// lib/core/plots/plot-data-sharing.ts). On success the browser goes back where the form was (a redirect:
// with or without JavaScript the page then shows the new state) with a fixed notice.
import 'server-only';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { ApiError } from '@/lib/core/errors';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { createFolders, getFile } from '@/lib/core/files/files';
import { changeFiles, emptyTrash, MAX_BULK_FILES } from '@/lib/core/workspace/bulk-changes';
import { fileFieldsSchema, restoreFile } from '@/lib/core/files/file-changes';
import { listOwnFolders } from '@/lib/core/files/own-files';
import { VISIBILITIES } from '@/lib/shared/sharing';
import { OWN_FILTERS, OWN_SORTS, viewParams } from '@/lib/shared/workspace-view';
import { pathSchema } from '@/lib/shared/names';
import { VISIBILITY_FIELDS } from '@/lib/core/permissions';
import { followPlotSharing, planPlotDataSharing, sharePlotWithData, type PlotData } from '@/lib/core/plots/plot-data-sharing';
import { plotUpdateSchema, retitlePlot } from '@/lib/core/plots/plots';
import type { Fid } from '@/lib/core/records';
import { filePath, workspacePath } from '@/lib/shared/urls';
import { checkbox, fidField, formAction, FormError, textField, type FormCaller } from './forms';

/** What a notice code in the workspace's URL says (fixed texts: nothing from the URL is echoed). */
export const NOTICES = {
  shared: 'Sharing changed.',
  followed: 'Sharing of its grids changed.',
  renamed: 'Renamed.',
  moved: 'Moved.',
  saved: 'Saved.',
  trashed: 'Moved to the trash. You can restore it from the Trash.',
  restored: 'Restored.',
  deleted: 'Deleted for good.',
  reverted: 'An earlier version is current again, as a new version (the one it replaced is in the History).',
  folder: 'Folder created.',
  emptied: 'The trash is empty.',
} as const;
export type Notice = keyof typeof NOTICES;

/**
 * Where a form sends the browser back to: `plot` (the file's own page), `trash`, `uses:n` (the plots
 * drawing from grid n), or a folder's number (-1 the top level) in the workspace. Always the caller's
 * own pages: never an address from the form.
 */
const backSchema = z
  .union([
    z.enum(['plot', 'trash']),
    z.coerce.number().int().min(-1).max(2147483647),
    z
      .string()
      .regex(/^uses:\d{1,10}$/)
      .transform((v) => ({ uses: Number(v.slice(5)) })),
  ])
  .catch(-1);
type Back = z.output<typeof backSchema>;

/** What a change on several files reports in the URL (numbers only): how many files, and grids with them. */
type Counts = { files: number; grids?: number; more?: boolean };

/** The workspace's kind of file and order, as its URL and its forms carry them; a bad value is the default. */
export const viewSchema = z.object({ type: z.enum(OWN_FILTERS).catch('all'), sort: z.enum(OWN_SORTS).catch('modified') });

/**
 * The workspace place `back`, in the kind and order the form was shown in, with a notice (and, after
 * a plot's sharing changed, that plot: its data is shown).
 */
function workspaceUrl(caller: FormCaller, form: FormData, back: Exclude<Back, 'plot'>, notice: Notice, plot?: number, counts?: Counts): string {
  const view = viewSchema.parse({ type: field(form, 'type'), sort: field(form, 'sort') });
  const numbers = counts && { files: counts.files, grids: counts.grids || undefined, more: counts.more ? '1' : undefined };
  return workspacePath(caller.viewer.username, { ...viewParams({ place: back, filter: view.type, sort: view.sort }), notice, plot, ...numbers });
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
};

/** After a change: back to the plot's page, or to the workspace place the form was shown in (naming the plot whose data to show). */
function done(caller: FormCaller, form: FormData, fid: Fid, notice: Notice, plot?: number): never {
  const back = backSchema.parse(field(form, 'back'));
  if (back === 'plot') redirect(`${filePath(caller.viewer.username, fid.n)}?notice=${notice}`);
  redirect(workspaceUrl(caller, form, back, notice, plot));
}

const sharingField = z.enum(VISIBILITIES, { message: 'choose public, private or secret' });
const fileForm = z.object({ fid: fidField });

/**
 * Public, private, or secret (a secret link): PATCH world_readable and share_key_enabled. A plot's
 * grids follow it on the web (lib/core/plots/plot-data-sharing.ts); the page then says what each did.
 */
export const shareFile = formAction(z.object({ fid: fidField, sharing: sharingField }), async ({ fid, sharing }, caller, form) => {
  if ((await getFile(caller.db, fid, caller.viewer))?.filetype === 'plot') {
    await sharePlotWithData(caller.db, caller.viewer, fid, sharing);
    done(caller, form, fid, 'shared', fid.n);
  }
  await updateFileDetail(caller.db, caller.viewer, fid, VISIBILITY_FIELDS[sharing], caller.origin);
  done(caller, form, fid, 'shared');
});

/** The plot page's one-click fix: the public grids that need not be follow the plot's sharing as it is. */
export const followPlotData = formAction(fileForm, async ({ fid }, caller, form) => {
  await followPlotSharing(caller.db, caller.viewer, fid);
  done(caller, form, fid, 'followed', fid.n);
});

/**
 * After the chart editor saved a plot with a new sharing (private or secret) through the API: its grids
 * follow it, as on the plot page. Says how many grids became private (none: no `done`).
 */
export const followEditedPlotSharing = formAction(fileForm, async ({ fid }, caller) => {
  const data = await followPlotSharing(caller.db, caller.viewer, fid);
  const followed = data.grids.filter((g) => g.fate === 'follows' && g.visibility === 'private').length;
  return followed ? `${followed} ${followed === 1 ? 'grid' : 'grids'} made private with the chart.` : undefined;
});

/** The grids the viewer's own plot `n` draws from and what each does at its sharing; null when it is no live plot of theirs. */
export async function ownPlotData(db: Db, viewer: Viewer, n: number): Promise<PlotData | null> {
  try {
    return await planPlotDataSharing(db, viewer, { owner: viewer.username, n });
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** PATCH filename (unique among the folder's live files). */
export const renameFile = formAction(
  z.object({ fid: fidField, filename: textField(fileFieldsSchema.shape.filename.unwrap()) }),
  async ({ fid, filename }, caller, form) => {
    await updateFileDetail(caller.db, caller.viewer, fid, { filename }, caller.origin);
    done(caller, form, fid, 'renamed');
  },
);

const parentField = z.coerce.number().pipe(fileFieldsSchema.shape.parent.unwrap());

/** PATCH parent: into one of the owner's folders (-1 the top level); never into itself. */
export const moveFile = formAction(z.object({ fid: fidField, parent: textField(parentField) }), async ({ fid, parent }, caller, form) => {
  await updateFileDetail(caller.db, caller.viewer, fid, { parent }, caller.origin);
  done(caller, form, fid, 'moved');
});

const retitleFields = plotUpdateSchema.pick({ title: true, caption: true }).required().shape;

/** A plot's title (the record's and the chart's: lib/core/plots/plots.ts retitlePlot) and caption (the plot's page). */
export const editPlot = formAction(
  z.object({ fid: fidField, title: textField(retitleFields.title), caption: textField(retitleFields.caption) }),
  async ({ fid, title, caption }, caller, form) => {
    await retitlePlot(caller.db, caller.viewer, fid, { title, caption });
    done(caller, form, fid, 'saved');
  },
);

/** The form's file, which must be the caller's own (else the 404 of a file that does not exist): its number. */
function ownN(caller: FormCaller, fid: Fid): number {
  if (fid.owner.toLowerCase() !== caller.viewer.username.toLowerCase()) throw new FormError('Not found.');
  return fid.n;
}

/**
 * POST .../trash: a folder takes its contents with it; a plot, with `grids` ticked, the grids only it
 * draws from (lib/core/files/references.ts gridsOnlyOf). From a plot's page, on to the workspace.
 */
export const trashOwnFile = formAction(z.object({ fid: fidField, grids: checkbox }), async ({ fid, grids }, caller, form) => {
  const done = await changeFiles(caller.db, caller.viewer, [ownN(caller, fid)], { kind: 'trash', withGrids: grids });
  const back = backSchema.parse(field(form, 'back'));
  redirect(workspaceUrl(caller, form, back === 'plot' ? -1 : back, 'trashed', undefined, done.grids ? done : undefined));
});

/** POST .../restore (a folder with what was trashed with it). */
export const restoreOwnFile = formAction(fileForm, async ({ fid }, caller, form) => {
  await restoreFile(caller.db, caller.viewer, fid);
  redirect(workspaceUrl(caller, form, 'trash', 'restored'));
});

/** POST .../permanent_delete, only once its box is ticked (the confirmation works without JavaScript). */
export const deleteOwnFile = formAction(z.object({ fid: fidField, confirm: checkbox, grids: checkbox }), async ({ fid, confirm, grids }, caller, form) => {
  const n = ownN(caller, fid);
  if (!confirm) throw new FormError('Tick “Yes, delete it for good” to confirm: this cannot be undone.');
  const done = await changeFiles(caller.db, caller.viewer, [n], { kind: 'delete', withGrids: grids });
  redirect(workspaceUrl(caller, form, 'trash', 'deleted', undefined, done.grids ? done : undefined));
});

const selectionSchema = z
  .array(z.coerce.number().int().min(0).max(2147483647))
  .min(1, 'Select one or more files first.')
  .max(MAX_BULK_FILES, `Select at most ${MAX_BULK_FILES} files at once.`);
const bulkSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('move'), parent: parentField }),
  z.object({ op: z.literal('share'), sharing: sharingField }),
  z.object({ op: z.literal('trash'), grids: z.boolean() }),
]);
/** The selection (`n`, each box ticked) first, then the change (`op`, the button pressed, with its fields). */
const bulkFormSchema = z.preprocess(
  (fields) => {
    const f = fields as Record<string, string | string[] | undefined>;
    return { n: [f.n ?? []].flat(), change: { op: f.op, parent: f.parent ?? '', sharing: f.sharing, grids: f.grids === 'yes' } };
  },
  z.object({ n: selectionSchema, change: bulkSchema }),
);

/**
 * The workspace's selection (`n`, the boxes ticked) moved, shared or trashed (`op`, the button pressed),
 * all or none; trashed plots take the grids only they draw from when `grids` is ticked.
 */
export const changeSelected = formAction(bulkFormSchema, async ({ n, change: op }, caller, form) => {
  const change =
    op.op === 'move'
      ? { kind: 'move' as const, parent: op.parent }
      : op.op === 'share'
        ? { kind: 'share' as const, sharing: op.sharing }
        : { kind: 'trash' as const, withGrids: op.grids };
  const done = await changeFiles(caller.db, caller.viewer, n, change);
  const notice = ({ move: 'moved', share: 'shared', trash: 'trashed' } as const)[op.op];
  const back = backSchema.parse(field(form, 'back'));
  redirect(workspaceUrl(caller, form, back === 'plot' ? -1 : back, notice, undefined, done));
});

/** "Empty trash", once confirmed: everything in the trash deleted for good (a bounded amount a request: lib/core/workspace/bulk-changes.ts). */
export const emptyOwnTrash = formAction(z.object({}), async (_, caller, form) => {
  const done = await emptyTrash(caller.db, caller.viewer);
  redirect(workspaceUrl(caller, form, 'trash', 'emptied', undefined, { files: done.deleted, more: done.more }));
});

/** POST /v2/folders: `name` (a path, `a/b` makes both) inside the folder the form was shown in. */
export const createFolder = formAction(z.object({ name: textField(pathSchema) }), async ({ name: path }, caller, form) => {
  const back = backSchema.parse(field(form, 'back'));
  const here = typeof back === 'number' ? back : -1;
  const base = here === -1 ? [] : folderPath(await listOwnFolders(caller.db, caller.viewer.id), here);
  if (!base) throw new FormError('That folder no longer exists.');
  await createFolders(caller.db, caller.viewer, path.length ? [...base, ...path] : []);
  redirect(workspaceUrl(caller, form, here, 'folder'));
});

type FolderRow = { n: number; filename: string; parent: number };

/** The names from the top level down to folder `n`, or null when it is not one of the live folders. */
export function folderPath(folders: FolderRow[], n: number): string[] | null {
  const byN = new Map(folders.map((f) => [f.n, f]));
  const names: string[] = [];
  for (let at = byN.get(n); at; at = at.parent === -1 ? undefined : byN.get(at.parent)) {
    names.unshift(at.filename);
    if (at.parent !== -1 && !byN.has(at.parent)) return null;
    if (names.length > 100) return null;
  }
  return names.length ? names : null;
}
