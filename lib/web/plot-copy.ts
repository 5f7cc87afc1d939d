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
import { formAction } from './forms';
import { shareKeyOf } from './file-head';

const copyFormSchema = z.object({
  fid: z.unknown().transform((value, ctx) => {
    const fid = typeof value === 'string' && value.length <= 100 ? parseFid(value) : null;
    if (!fid) ctx.addIssue({ code: 'custom', message: 'This plot cannot be copied; reload the page and try again.' });
    return fid ?? z.NEVER;
  }),
  share_key: z.preprocess(shareKeyOf, z.string().optional()),
});

/** The form's fields: `fid` (owner:n) and the page's `share_key`, if it carries one. Then on to the
 * copy's page, or (`then: 'edit'`, "Edit a copy") its chart editor. */
const copyForm = (then: 'page' | 'edit') =>
  formAction(copyFormSchema, async (input, { db, viewer, origin }) => {
    // A copy is a create: it counts against the same allowances as POST /v2/plots.
    await limitAddress(db, await headers());
    await limitUser(db, viewer);
    const copy = await copyPlot(db, viewer, input.fid, input.share_key, origin);
    const fid = parseFid(copy.fid);
    redirect(then === 'edit' && fid ? editPlotPath(fid.owner, fid.n) : new URL(copy.web_url).pathname);
  });

export const copyToMyFiles = copyForm('page');
export const copyToEdit = copyForm('edit');
