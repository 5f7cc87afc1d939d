'use server';
// The forms on files: the owner's (workspace and file pages: lib/web/file-forms.ts), "Copy to my
// files" (lib/web/plot-copy.ts), "Save as theme" (lib/web/themes.ts) and the history's restore
// (lib/web/plot-history.ts). Thin: the rules are there.
import {
  changeSelected,
  createFolder,
  deleteOwnFile,
  editPlot,
  emptyOwnTrash,
  followPlotData,
  moveFile,
  renameFile,
  restoreOwnFile,
  shareFile,
  trashOwnFile,
} from '@/lib/web/file-forms';
import type { FormState } from '@/lib/web/forms';
import { copyToEdit, copyToMyFiles } from '@/lib/web/plot-copy';
import { restoreVersion } from '@/lib/web/plot-history';
import { saveStyleFile, type SaveStyleState } from '@/lib/web/themes';

export async function shareAction(_state: FormState, form: FormData): Promise<FormState> {
  return shareFile(form);
}
export async function renameAction(_state: FormState, form: FormData): Promise<FormState> {
  return renameFile(form);
}
export async function moveAction(_state: FormState, form: FormData): Promise<FormState> {
  return moveFile(form);
}
export async function editAction(_state: FormState, form: FormData): Promise<FormState> {
  return editPlot(form);
}
export async function trashAction(_state: FormState, form: FormData): Promise<FormState> {
  return trashOwnFile(form);
}
export async function restoreAction(_state: FormState, form: FormData): Promise<FormState> {
  return restoreOwnFile(form);
}
export async function deleteAction(_state: FormState, form: FormData): Promise<FormState> {
  return deleteOwnFile(form);
}
export async function createFolderAction(_state: FormState, form: FormData): Promise<FormState> {
  return createFolder(form);
}
export async function followDataAction(_state: FormState, form: FormData): Promise<FormState> {
  return followPlotData(form);
}
export async function bulkAction(_state: FormState, form: FormData): Promise<FormState> {
  return changeSelected(form);
}
export async function emptyTrashAction(_state: FormState, form: FormData): Promise<FormState> {
  return emptyOwnTrash(form);
}

export async function copyPlotAction(_state: FormState, form: FormData): Promise<FormState> {
  return copyToMyFiles(form);
}
/** "Edit a copy": the same copy, then its chart editor. */
export async function editCopyAction(_state: FormState, form: FormData): Promise<FormState> {
  return copyToEdit(form);
}

export async function saveStyleAction(_state: SaveStyleState, form: FormData): Promise<SaveStyleState> {
  return saveStyleFile(form);
}

export async function restoreVersionAction(_state: FormState, form: FormData): Promise<FormState> {
  return restoreVersion(form);
}
