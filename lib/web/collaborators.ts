// Sharing with people on the web: a file's people page (`/~owner/n/people`: who it is shared with,
// and its owner's forms to share, change, unshare, and share a plot's grids too) and "Shared with
// me" (`/shared`). The rules are lib/core/files/collaborators.ts's; these are its pages and forms.
import 'server-only';
import { redirect } from 'next/navigation';
import { after } from 'next/server';
import { z } from 'zod';
import {
  addCollaborator,
  changeCollaborator,
  collaboratorAddSchema,
  listPrivateGridsOf,
  collaboratorChangeSchema,
  listSharedWithMe,
  removeCollaborator,
  sharedFolderFiles,
  unreadableGridsOf,
  unreadableGridsOfOwn,
} from '@/lib/core/files/collaborators';
import { blockUser, listBlocks, unblockUser } from '@/lib/core/accounts/blocks';
import { deliverNotificationMail } from '@/lib/core/files/notifications';
import { CursorRefused } from '@/lib/core/cursors';
import { ApiError } from '@/lib/core/errors';
import { getFile } from '@/lib/core/files/files';
import { isOwner, readableAs, seesCollaborators } from '@/lib/core/permissions';
import { parseFid, type Fid } from '@/lib/core/records';
import { peoplePath, sharedPath } from '@/lib/shared/urls';
import { checkbox, fidField, formAction, textField, type FormCaller } from './forms';
import { pageContext, signedInPage } from './page-context';

/** What a notice code on the people page says (fixed texts: nothing from the URL is echoed). */
export const PEOPLE_NOTICES = {
  shared: 'Shared. They see it now, with their own account and API key.',
  changed: 'Permission changed.',
  removed: 'Unshared: they no longer see it.',
  left: 'You left it: it is no longer shared with you.',
  declined: 'Declined: it is no longer shared with you.',
  blocked: 'Blocked: what they shared with you is gone, and they cannot share with you any more.',
  unblocked: 'Unblocked: they can share with you again.',
  grids: 'Its grids are shared too: they can open them now.',
  'shared-grids': 'Shared, with the grids it draws from: they can edit it now, with their own account and API key.',
} as const;
export type PeopleNotice = keyof typeof PEOPLE_NOTICES;

const noticeSchema = z
  .enum(Object.keys(PEOPLE_NOTICES) as [PeopleNotice, ...PeopleNotice[]])
  .nullable()
  .catch(null);

/** `/~owner/n/people`: a file's collaborators, to its owner (with the forms) and its collaborators; null for the 404. */
export async function loadPeople(owner: string, n: string, notice: unknown) {
  const ctx = await pageContext();
  const fid = parseFid(`${owner}:${n}`);
  if (!fid || !ctx.viewer) return null;
  const file = readableAs(await getFile(ctx.db, fid, ctx.viewer), ctx.viewer);
  // Loaded with the file for those who see it (getFile): its owner and its collaborators; anyone else gets the 404.
  if (!file || !seesCollaborators(file, ctx.viewer) || !file.collaborators) return null;
  const own = isOwner(ctx.viewer, file);
  return {
    ctx,
    file,
    own,
    list: file.collaborators,
    unreadable: own ? await unreadableGridsOfOwn(ctx.db, file) : [],
    privateGrids: own ? await listPrivateGridsOf(ctx.db, file) : [],
    notice: noticeSchema.parse(Array.isArray(notice) ? notice[0] : (notice ?? null)),
  };
}

/** A username as typed (trimmed; the core finds the person or refuses). */
const usernameField = textField(z.string()).transform((name) => name.trim());
/** View or edit, in the API's words; anything else asks again. */
const permissionField = z.unknown().transform((value, ctx) => {
  const read = collaboratorChangeSchema.shape.permission.safeParse(typeof value === 'string' ? value.trim() : '');
  if (!read.success) ctx.addIssue({ code: 'custom', message: 'Choose whether they can view or edit it.' });
  return read.data ?? z.NEVER;
});

/**
 * "Share": the form's file with the user named, as a viewer or an editor; an editor of a plot also
 * gets its private grids to view when the owner left "share the grids too" ticked (editing needs them).
 */
export const shareWithPerson = formAction(
  z.object({
    fid: fidField,
    username: usernameField.pipe(z.string().min(1, 'Enter the username of the person to share it with.').pipe(collaboratorAddSchema.shape.username)),
    permission: permissionField,
    grids: checkbox,
  }),
  async ({ fid, username, permission, grids }, caller) => {
    await addCollaborator(caller.db, caller.viewer, fid, { username, permission });
    const withGrids = permission === 'write' && grids && (await shareGridsWith(caller, fid, username)) > 0;
    after(() => deliverNotificationMail(caller.db));
    redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=${withGrids ? 'shared-grids' : 'shared'}`);
  },
);

/** The plot's private grids `username` cannot read, shared with them to view; how many. */
async function shareGridsWith(caller: FormCaller, fid: Fid, username: string): Promise<number> {
  const missing = (await unreadableGridsOf(caller.db, caller.viewer, fid)).find((u) => u.username.toLowerCase() === username.toLowerCase());
  for (const grid of missing?.grids ?? []) {
    await addCollaborator(caller.db, caller.viewer, { owner: caller.viewer.username, n: grid.n }, { username, permission: 'read' });
  }
  return missing?.grids.length ?? 0;
}

/** A collaborator's new permission. */
export const changePerson = formAction(
  z.object({ fid: fidField, permission: permissionField, username: usernameField }),
  async ({ fid, permission, username }, caller) => {
    await changeCollaborator(caller.db, caller.viewer, fid, username, { permission });
    redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=changed`);
  },
);

/** The owner unshares with one person, or a collaborator leaves (then "Shared with me" is where they land). */
export const removePerson = formAction(z.object({ fid: fidField, username: usernameField }), async ({ fid, username }, caller) => {
  await removeCollaborator(caller.db, caller.viewer, fid, username);
  if (username.toLowerCase() === caller.viewer.username.toLowerCase()) redirect(`${sharedPath()}?notice=left`);
  redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=removed`);
});

/** "Share its grids too": the plot's private grids a collaborator cannot read, shared with them to view. */
export const shareGridsToo = formAction(z.object({ fid: fidField, username: usernameField }), async ({ fid, username }, caller) => {
  await shareGridsWith(caller, fid, username);
  after(() => deliverNotificationMail(caller.db));
  redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=grids`);
});

/** "Decline" on "Shared with me": the viewer leaves a file shared with them. */
export const declineShare = formAction(z.object({ fid: fidField }), async ({ fid }, caller) => {
  await removeCollaborator(caller.db, caller.viewer, fid, caller.viewer.username);
  redirect(`${sharedPath()}?notice=declined`);
});

/** "Block" on "Shared with me": the file's owner may no longer share with the viewer; what they shared goes. */
export const blockPerson = formAction(z.object({ username: usernameField }), async ({ username }, caller) => {
  await blockUser(caller.db, caller.viewer, username);
  redirect(`${sharedPath()}?notice=blocked`);
});

/** "Unblock": they may share with the viewer again. */
export const unblockPerson = formAction(z.object({ username: usernameField }), async ({ username }, caller) => {
  await unblockUser(caller.db, caller.viewer, username);
  redirect(`${sharedPath()}?notice=unblocked`);
});

const SHARED_NOTICES = ['left', 'declined', 'blocked', 'unblocked'] as const;

/** Shares a page of "Shared with me" lists. */
const SHARED_PAGE_SIZE = 50;
const cursorSchema = z.string().min(1).max(512).optional().catch(undefined);

/** `/shared`: the files shared with the signed-in person (signing in first), or (`?folder=`) what one shared folder holds. */
export async function loadShared(params: { cursor?: unknown; folder?: unknown; notice?: unknown }) {
  const ctx = await signedInPage(sharedPath());
  const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  const folderFid = typeof one(params.folder) === 'string' ? parseFid(one(params.folder) as string) : null;
  const code = SHARED_NOTICES.find((c) => c === one(params.notice));
  const notice = code ? PEOPLE_NOTICES[code] : null;
  if (folderFid) {
    try {
      const { folder, files } = await sharedFolderFiles(ctx.db, ctx.viewer, folderFid);
      return { ctx, kind: 'folder' as const, folder, files, next: null, previous: null, notice, blocked: [] };
    } catch (e) {
      if (e instanceof ApiError) return { ctx, kind: 'missing' as const };
      throw e;
    }
  }
  const cursor = cursorSchema.parse(one(params.cursor));
  const page = await listSharedWithMe(ctx.db, ctx.viewer, { size: SHARED_PAGE_SIZE, cursor }).catch((e: unknown) => {
    if (e instanceof CursorRefused) return listSharedWithMe(ctx.db, ctx.viewer, { size: SHARED_PAGE_SIZE });
    throw e;
  });
  const link = (c: string | null) => c && `${sharedPath()}?cursor=${encodeURIComponent(c)}`;
  const blocked = (await listBlocks(ctx.db, ctx.viewer)).results;
  return { ctx, kind: 'list' as const, files: page.rows, next: link(page.next), previous: link(page.previous), notice, blocked };
}
