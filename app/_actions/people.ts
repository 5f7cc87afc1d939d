'use server';
// The forms about people: a plot's stars and comments (lib/web/people.ts), sharing a file by name
// (lib/web/collaborators.ts), and "Shared with me"'s decline and block. Thin: the rules are there.
import { blockPerson, changePerson, declineShare, removePerson, shareGridsToo, shareWithPerson, unblockPerson } from '@/lib/web/collaborators';
import type { FormState } from '@/lib/web/forms';
import { commentForm, commentsSwitchForm, deleteCommentForm, editCommentForm, starForm } from '@/lib/web/people';

export async function starAction(_state: FormState, form: FormData): Promise<FormState> {
  return starForm(form);
}
export async function commentAction(_state: FormState, form: FormData): Promise<FormState> {
  return commentForm(form);
}
export async function editCommentAction(_state: FormState, form: FormData): Promise<FormState> {
  return editCommentForm(form);
}
export async function deleteCommentAction(_state: FormState, form: FormData): Promise<FormState> {
  return deleteCommentForm(form);
}
export async function commentsSwitchAction(_state: FormState, form: FormData): Promise<FormState> {
  return commentsSwitchForm(form);
}

export async function sharePersonAction(_state: FormState, form: FormData): Promise<FormState> {
  return shareWithPerson(form);
}
export async function changePersonAction(_state: FormState, form: FormData): Promise<FormState> {
  return changePerson(form);
}
export async function removePersonAction(_state: FormState, form: FormData): Promise<FormState> {
  return removePerson(form);
}
export async function shareGridsAction(_state: FormState, form: FormData): Promise<FormState> {
  return shareGridsToo(form);
}

export async function declineAction(_state: FormState, form: FormData): Promise<FormState> {
  return declineShare(form);
}
export async function blockAction(_state: FormState, form: FormData): Promise<FormState> {
  return blockPerson(form);
}
export async function unblockAction(_state: FormState, form: FormData): Promise<FormState> {
  return unblockPerson(form);
}
