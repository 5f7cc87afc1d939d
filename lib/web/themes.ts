// "Save as theme" and "Save as template" on a plot's page: the owner's form, throttled like an API
// create; the answer names the new file and links to it.
import 'server-only';
import { headers } from 'next/headers';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { filenameSchema } from '@/lib/shared/names';
import { limitAddress, limitUser } from '@/lib/core/accounts/rate-limit';
import { parseFid } from '@/lib/core/records';
import { saveTemplate, saveTheme } from '@/lib/core/plots/themes';
import { errorSentences, formCaller, FormError } from './forms';

/** What the form shows after a save: the new file, or what is wrong (at the name field when it is the name). */
export interface SaveStyleState {
  error?: string;
  /** The error is the name's. */
  nameError?: boolean;
  saved?: { what: 'theme' | 'template'; name: string; href: string };
}

const saveStyleSchema = z.object({
  fid: z.string().max(100),
  as: z.enum(['theme', 'template']),
  // None (left blank): the plot's name followed by "theme" or "template".
  name: filenameSchema.optional(),
});

/** The form's fields: `fid` (owner:n), `as` (the button pressed: theme or template) and `name`. */
export async function saveStyleFile(form: FormData): Promise<SaveStyleState> {
  try {
    const { db, viewer, origin } = await formCaller(form);
    const input = saveStyleSchema.safeParse({ fid: form.get('fid'), as: form.get('as'), name: String(form.get('name') ?? '').trim() || undefined });
    if (!input.success) {
      const issue = input.error.issues[0];
      if (issue?.path[0] === 'name') return { error: `Name: ${issue.message}.`, nameError: true };
      throw new FormError('This form is out of date; reload the page and try again.');
    }
    const fid = parseFid(input.data.fid);
    if (!fid) throw new FormError('This plot is gone; reload the page.');
    // A theme or template is a new plot: it counts against the same allowances as POST /v2/plots.
    await limitAddress(db, await headers());
    await limitUser(db, viewer);
    const save = input.data.as === 'theme' ? saveTheme : saveTemplate;
    const made = await save(db, viewer, fid, input.data.name, origin);
    return { saved: { what: input.data.as, name: made.filename, href: new URL(made.web_url).pathname } };
  } catch (e) {
    if (e instanceof FormError) return { error: e.message };
    if (e instanceof ApiError && e.status < 500) return { error: errorSentences(e), nameError: e.errors.some((item) => item.field === 'filename') };
    throw e;
  }
}
