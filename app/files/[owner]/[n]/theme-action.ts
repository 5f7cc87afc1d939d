'use server';
// The plot page's "Save as theme" / "Save as template" form (works without JavaScript: a plain form post).
import { saveStyleFile, type SaveStyleState } from '@/lib/web/themes';

export async function saveStyleAction(_state: SaveStyleState, form: FormData): Promise<SaveStyleState> {
  return saveStyleFile(form);
}
