// The stream tokens on /settings: "New stream token" and each token's "Delete" (runForm checks the session and Origin).
import 'server-only';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createStreamToken, deleteStreamToken } from '@/lib/core/streams/stream-tokens';
import { FormError, formAction, runForm, type FormState } from './forms';

export const newStreamToken = (form: FormData): Promise<FormState> =>
  runForm(form, async ({ db, viewer }) => {
    await createStreamToken(db, viewer.id);
    revalidatePath('/settings');
    return 'New stream token made: it is listed below.';
  });

export const removeStreamToken = formAction(z.object({ id: z.coerce.number().int().positive() }), async ({ id }, { db, viewer }) => {
  if (!(await deleteStreamToken(db, viewer.id, id))) throw new FormError('That stream token was already deleted.');
  revalidatePath('/settings');
  return 'Stream token deleted: streams that use it stop.';
});
