'use server';
// The people page's forms: thin, the rules are in lib/web/collaborators.ts.
import type { FormState } from '@/lib/web/forms';
import { changePerson, removePerson, shareGridsToo, shareWithPerson } from '@/lib/web/collaborators';

export async function shareAction(_state: FormState, form: FormData): Promise<FormState> {
  return shareWithPerson(form);
}

export async function changeAction(_state: FormState, form: FormData): Promise<FormState> {
  return changePerson(form);
}

export async function removeAction(_state: FormState, form: FormData): Promise<FormState> {
  return removePerson(form);
}

export async function shareGridsAction(_state: FormState, form: FormData): Promise<FormState> {
  return shareGridsToo(form);
}
