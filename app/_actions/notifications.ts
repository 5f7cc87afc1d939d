'use server';
// "Mark all as read" on /notifications (lib/web/notifications.ts does the work).
import type { FormState } from '@/lib/web/forms';
import { markAllReadForm } from '@/lib/web/notifications';

export async function markAllReadAction(_state: FormState, form: FormData): Promise<FormState> {
  return markAllReadForm(form);
}
