'use server';
// The settings forms (lib/web/settings.ts does the work).
import type { FormState } from '@/lib/web/forms';
import { changePassword, newApiKey, saveNotifications, saveProfile, type KeyFormState } from '@/lib/web/settings';
import { newStreamToken, removeStreamToken } from '@/lib/web/stream-tokens';

export async function saveProfileAction(_state: FormState, form: FormData): Promise<FormState> {
  return saveProfile(form);
}

export async function changePasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  return changePassword(form);
}

export async function newApiKeyAction(_state: KeyFormState, form: FormData): Promise<KeyFormState> {
  return newApiKey(form);
}

export async function newStreamTokenAction(_state: FormState, form: FormData): Promise<FormState> {
  return newStreamToken(form);
}

export async function deleteStreamTokenAction(_state: FormState, form: FormData): Promise<FormState> {
  return removeStreamToken(form);
}

export async function saveNotificationsAction(_state: FormState, form: FormData): Promise<FormState> {
  return saveNotifications(form);
}
