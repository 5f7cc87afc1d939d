// The /settings forms of a signed-in person: profile, password, API key. Each runs through runForm
// (session's anti-forgery token + Origin); a change that ends every session of theirs (new password,
// new key) starts a fresh one for this browser, so the person stays signed in and only the others end.
import 'server-only';
import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { checkSignIn } from '@/lib/core/accounts/credentials';
import { limitRename } from '@/lib/core/accounts/rate-limit';
import { getUserById, giveFirstApiKey, rotateApiKey, setPassword, updateProfile } from '@/lib/core/accounts/users';
import { z } from 'zod';
import { setNotifyByEmail } from '@/lib/core/files/notifications';
import { checkbox, FormError, formAction, runForm, textField, type FormState } from './forms';
import { renewSession, retryWait } from './sign-in';

export interface KeyFormState extends FormState {
  /** The new API key, shown once. */
  apiKey?: string;
}

const text = textField(z.string());

export const saveProfile = formAction(
  z.object({ nickname: text, bio: text, website: text.transform((url) => url.trim()) }),
  async ({ nickname, bio, website }, { db, viewer }) => {
    // A refused profile takes back the rename it counted (one transaction).
    await db.transaction(async (tx) => {
      if (nickname.trim() !== (await getUserById(tx, viewer.id))?.nickname) await limitRename(tx, viewer.id);
      await updateProfile(tx, viewer.id, { nickname, bio, website });
    });
    // The form shows the saved values (not the ones it was rendered with).
    revalidatePath('/settings');
    return 'Profile saved.';
  },
);

/** "Email me about comments and shares". */
export const saveNotifications = formAction(z.object({ by_email: checkbox }), async ({ by_email }, { db, viewer }) => {
  await setNotifyByEmail(db, viewer.id, by_email);
  revalidatePath('/settings');
  return by_email ? 'You will be mailed about comments and shares.' : 'No more mail about comments and shares.';
});

/**
 * A new password. The current password or the API key must be given when the account has a
 * password (checked, and throttled, as a sign-in is); an account without one may set it directly.
 */
export const changePassword = formAction(z.object({ password: text, password2: text, current: text }), async (input, { db, viewer }) => {
  const user = await getUserById(db, viewer.id);
  if (!user) throw new FormError('Your session has ended; sign in again.');
  if (input.password !== input.password2) throw new FormError('The two new passwords differ.');
  const h = await headers();
  if (user.passwordHash !== null) {
    if (!input.current) throw new FormError('Enter your current password or your API key.');
    const check = await checkSignIn(db, h, user.username, input.current);
    if ('retryAfter' in check) throw new FormError(`Too many wrong attempts; try again in ${retryWait(check.retryAfter)}.`);
    if ('wrong' in check) throw new FormError('That is not your current password or API key.');
  }
  await setPassword(db, user.id, input.password);
  await renewSession(db, user.id, h);
  return user.passwordHash === null ? 'Password set: you can now sign in with it.' : 'Password changed; your other sessions have ended.';
});

/**
 * A new API key, shown once. A first key (none was ever given to the person) replaces nothing anyone
 * holds and asks nothing; another only once the person confirmed what it breaks, and then the old
 * one and every other session end.
 */
export async function newApiKey(form: FormData): Promise<KeyFormState> {
  let apiKey: string | undefined;
  const state = await runForm(form, async ({ db, viewer }) => {
    const first = await giveFirstApiKey(db, viewer.id);
    if (first) {
      apiKey = first;
      return 'Your API key is made: copy it now, it is shown only once.';
    }
    if (form.get('confirm') !== 'yes') throw new FormError('Nothing changed: tick “I understand” to make a new key (the old one stops working).');
    apiKey = await rotateApiKey(db, viewer.id);
    await renewSession(db, viewer.id, await headers());
    return 'New API key made: copy it now, it is shown only once. The old key no longer works.';
  });
  return { ...state, apiKey };
}
