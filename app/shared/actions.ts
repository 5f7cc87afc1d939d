'use server';
// "Shared with me"'s forms: thin, the rules are in lib/core/accounts/blocks.ts and lib/core/files/collaborators.ts.
import type { FormState } from '@/lib/web/forms';
import { blockPerson, declineShare, unblockPerson } from '@/lib/web/collaborators';

export async function declineAction(_state: FormState, form: FormData): Promise<FormState> {
  return declineShare(form);
}

export async function blockAction(_state: FormState, form: FormData): Promise<FormState> {
  return blockPerson(form);
}

export async function unblockAction(_state: FormState, form: FormData): Promise<FormState> {
  return unblockPerson(form);
}
