'use server';
// The plot page's star and comment forms (plain form posts; the rules are in lib/web/people.ts).
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
