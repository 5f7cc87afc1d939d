'use server';
// "Load more" on a profile. Profiles have no list API to fetch from, so the next page comes from this
// action; the viewer is read from the session exactly as on the page, so only the owner gets their
// private and secret cards.
import { z } from 'zod';
import type { NextPage } from '@/components/load-more';
import {
  changeSelected,
  createFolder,
  deleteOwnFile,
  emptyOwnTrash,
  editPlot,
  followPlotData,
  moveFile,
  renameFile,
  restoreOwnFile,
  shareFile,
  trashOwnFile,
} from '@/lib/web/file-forms';
import type { FormState } from '@/lib/web/forms';
import { listUserPlots, listUserStarred } from '@/lib/web/gallery';
import { pageContext } from '@/lib/web/page-context';
import { listQuerySchema } from '@/lib/http/request/queries';
import { getUserByUsername, usernameSchema } from '@/lib/core/accounts/users';

const inputSchema = z.object({ owner: usernameSchema, cursor: listQuerySchema.shape.cursor.unwrap() });

export async function moreUserPlots(owner: string, cursor: string): Promise<NextPage> {
  const input = inputSchema.parse({ owner, cursor });
  const { db, viewer, origin } = await pageContext();
  const user = await getUserByUsername(db, input.owner);
  if (!user) throw new Error('There is no such user.');
  const { cards, next } = await listUserPlots(db, viewer, user, { cursor: input.cursor }, origin);
  return { cards, next };
}

/** "Load more" on a profile's "Starred": plots the viewer may read only. */
export async function moreStarredPlots(owner: string, cursor: string): Promise<NextPage> {
  const input = inputSchema.parse({ owner, cursor });
  const { db, viewer, origin } = await pageContext();
  const user = await getUserByUsername(db, input.owner);
  if (!user) throw new Error('There is no such user.');
  const { cards, next } = await listUserStarred(db, viewer, user, { cursor: input.cursor }, origin);
  return { cards, next };
}

// The owner's forms (workspace and plot pages): thin, the rules are in lib/web/file-forms.ts.
export async function shareAction(_state: FormState, form: FormData): Promise<FormState> {
  return shareFile(form);
}
export async function renameAction(_state: FormState, form: FormData): Promise<FormState> {
  return renameFile(form);
}
export async function moveAction(_state: FormState, form: FormData): Promise<FormState> {
  return moveFile(form);
}
export async function editAction(_state: FormState, form: FormData): Promise<FormState> {
  return editPlot(form);
}
export async function trashAction(_state: FormState, form: FormData): Promise<FormState> {
  return trashOwnFile(form);
}
export async function restoreAction(_state: FormState, form: FormData): Promise<FormState> {
  return restoreOwnFile(form);
}
export async function deleteAction(_state: FormState, form: FormData): Promise<FormState> {
  return deleteOwnFile(form);
}
export async function createFolderAction(_state: FormState, form: FormData): Promise<FormState> {
  return createFolder(form);
}
export async function followDataAction(_state: FormState, form: FormData): Promise<FormState> {
  return followPlotData(form);
}
export async function bulkAction(_state: FormState, form: FormData): Promise<FormState> {
  return changeSelected(form);
}
export async function emptyTrashAction(_state: FormState, form: FormData): Promise<FormState> {
  return emptyOwnTrash(form);
}
