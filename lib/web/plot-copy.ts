// "Copy to my files" on a plot page: the signed-in viewer's form, throttled like an API create, then
// off to the copy's own page.
import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { copyPlot } from '@/lib/core/plots/plot-copy';
import { limitAddress, limitUser } from '@/lib/core/accounts/rate-limit';
import { parseFid } from '@/lib/core/records';
import { editPlotPath } from '@/lib/shared/urls';
import { FormError, runForm, type FormState } from './forms';
import { shareKeyOf } from './plot-page';

const copyFormSchema = z.object({
  fid: z
    .string()
    .max(100)
    .transform((value, ctx) => {
      const fid = parseFid(value);
      if (!fid) ctx.addIssue({ code: 'custom', message: 'no such plot' });
      return fid ?? z.NEVER;
    }),
  share_key: z.unknown().transform(shareKeyOf),
});

/** The form's fields: `fid` (owner:n) and the page's `share_key`, if it carries one. Then on to the
 * copy's page, or (`then: 'edit'`, "Edit a copy") its chart editor. */
export async function copyToMyFiles(form: FormData, then: 'page' | 'edit' = 'page'): Promise<FormState> {
  return runForm(form, async ({ db, viewer, origin }) => {
    const input = copyFormSchema.safeParse({ fid: form.get('fid'), share_key: form.get('share_key') ?? undefined });
    if (!input.success) throw new FormError('This plot cannot be copied; reload the page and try again.');
    // A copy is a create: it counts against the same allowances as POST /v2/plots.
    await limitAddress(db, await headers());
    await limitUser(db, viewer);
    const copy = await copyPlot(db, viewer, input.data.fid, input.data.share_key, origin);
    const fid = parseFid(copy.fid);
    redirect(then === 'edit' && fid ? editPlotPath(fid.owner, fid.n) : new URL(copy.web_url).pathname);
  });
}
