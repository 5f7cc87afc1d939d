'use server';
// The plot page's "Copy to my files" form (works without JavaScript: a plain form post).
import type { FormState } from '@/lib/web/forms';
import { copyToMyFiles } from '@/lib/web/plot-copy';

/** "Edit a copy": the same copy, then its chart editor. */
export async function editCopyAction(_state: FormState, form: FormData): Promise<FormState> {
  return copyToMyFiles(form, 'edit');
}

export async function copyPlotAction(_state: FormState, form: FormData): Promise<FormState> {
  return copyToMyFiles(form);
}
