'use server';
// The history page's restore form: thin, the rules are in lib/web/plot-history.ts.
import type { FormState } from '@/lib/web/forms';
import { restoreVersion } from '@/lib/web/plot-history';

export async function restoreVersionAction(_state: FormState, form: FormData): Promise<FormState> {
  return restoreVersion(form);
}
