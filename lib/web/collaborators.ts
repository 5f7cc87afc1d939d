// Sharing with people on the web: a file's people page (`/~owner/n/people`: who it is shared with,
// and its owner's forms to share, change, unshare, and share a plot's grids too) and "Shared with
// me" (`/shared`). The rules are lib/core/files/collaborators.ts's; these are its pages and forms.
import 'server-only';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import {
  addCollaborator,
  changeCollaborator,
  collaboratorAddSchema,
  collaboratorChangeSchema,
  listCollaborators,
  listSharedWithMe,
  removeCollaborator,
  sharedFolderFiles,
  unreadableGridsOf,
} from '@/lib/core/files/collaborators';
import { blockUser, listBlocks, unblockUser } from '@/lib/core/accounts/blocks';
import { CursorRefused } from '@/lib/core/cursors';
import { ApiError } from '@/lib/core/errors';
import { getFile } from '@/lib/core/files/files';
import { isOwner } from '@/lib/core/permissions';
import { parseFid } from '@/lib/core/records';
import { peoplePath, sharedPath } from '@/lib/shared/urls';
import { fidField } from './file-forms';
import { FormError, runForm, type FormState } from './forms';
import { pageContext } from './page-context';

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
  try {
    const list = await listCollaborators(ctx.db, ctx.viewer, fid);
    const file = (await getFile(ctx.db, fid, ctx.viewer))!;
    const own = isOwner(ctx.viewer, file);
    return {
      ctx,
      file,
      own,
      list,
      unreadable: own ? await unreadableGridsOf(ctx.db, ctx.viewer, fid) : [],
      notice: noticeSchema.parse(Array.isArray(notice) ? notice[0] : (notice ?? null)),
    };
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
};

/** A form's fields under a schema: a refusal in words, at the form. */
function parsed<T extends z.ZodType>(schema: T, input: unknown, words: string): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new FormError(words);
  return result.data;
}

/** "Share": the form's file with the user named, as a viewer or an editor. */
export function shareWithPerson(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    const fid = fidField(form);
    const username = field(form, 'username');
    if (!username) throw new FormError('Enter the username of the person to share it with.');
    const input = parsed(collaboratorAddSchema, { username, permission: field(form, 'permission') }, 'Choose whether they can view or edit it.');
    await addCollaborator(caller.db, caller.viewer, fid, input);
    redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=shared`);
  });
}

/** A collaborator's new permission. */
export function changePerson(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    const fid = fidField(form);
    const input = parsed(collaboratorChangeSchema, { permission: field(form, 'permission') }, 'Choose whether they can view or edit it.');
    await changeCollaborator(caller.db, caller.viewer, fid, field(form, 'username'), input);
    redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=changed`);
  });
}

/** The owner unshares with one person, or a collaborator leaves (then "Shared with me" is where they land). */
export function removePerson(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    const fid = fidField(form);
    const username = field(form, 'username');
    await removeCollaborator(caller.db, caller.viewer, fid, username);
    if (username.toLowerCase() === caller.viewer.username.toLowerCase()) redirect(`${sharedPath()}?notice=left`);
    redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=removed`);
  });
}

/** "Share its grids too": the plot's private grids a collaborator cannot read, shared with them to view. */
export function shareGridsToo(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    const fid = fidField(form);
    const username = field(form, 'username');
    const missing = (await unreadableGridsOf(caller.db, caller.viewer, fid)).find((u) => u.username.toLowerCase() === username.toLowerCase());
    for (const grid of missing?.grids ?? []) {
      await addCollaborator(caller.db, caller.viewer, { owner: caller.viewer.username, n: grid.n }, { username, permission: 'read' });
    }
    redirect(`${peoplePath(caller.viewer.username, fid.n)}?notice=grids`);
  });
}

/** "Decline" on "Shared with me": the viewer leaves a file shared with them. */
export function declineShare(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    await removeCollaborator(caller.db, caller.viewer, fidField(form), caller.viewer.username);
    redirect(`${sharedPath()}?notice=declined`);
  });
}

/** "Block" on "Shared with me": the file's owner may no longer share with the viewer; what they shared goes. */
export function blockPerson(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    await blockUser(caller.db, caller.viewer, field(form, 'username'));
    redirect(`${sharedPath()}?notice=blocked`);
  });
}

/** "Unblock": they may share with the viewer again. */
export function unblockPerson(form: FormData): Promise<FormState> {
  return runForm(form, async (caller) => {
    await unblockUser(caller.db, caller.viewer, field(form, 'username'));
    redirect(`${sharedPath()}?notice=unblocked`);
  });
}

const SHARED_NOTICES = ['left', 'declined', 'blocked', 'unblocked'] as const;

/** Shares a page of "Shared with me" lists. */
const SHARED_PAGE_SIZE = 50;
const cursorSchema = z.string().min(1).max(512).optional().catch(undefined);

/** `/shared`: the files shared with the signed-in person, or (`?folder=`) what one shared folder holds; null: sign in first. */
export async function loadShared(params: { cursor?: unknown; folder?: unknown; notice?: unknown }) {
  const ctx = await pageContext();
  if (!ctx.viewer) return null;
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
    if (e instanceof CursorRefused) return listSharedWithMe(ctx.db, ctx.viewer!, { size: SHARED_PAGE_SIZE });
    throw e;
  });
  const link = (c: string | null) => c && `${sharedPath()}?cursor=${encodeURIComponent(c)}`;
  const blocked = (await listBlocks(ctx.db, ctx.viewer)).results;
  return { ctx, kind: 'list' as const, files: page.rows, next: link(page.next), previous: link(page.previous), notice, blocked };
}
