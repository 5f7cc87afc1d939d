// The owner's forms as one object, for the pages that show them (the workspace, a file's page).
import type { FileActions } from '@/components/file-forms';
import {
  bulkAction,
  createFolderAction,
  deleteAction,
  editAction,
  emptyTrashAction,
  followDataAction,
  moveAction,
  renameAction,
  restoreAction,
  shareAction,
  trashAction,
} from './files';

export const FILE_ACTIONS: FileActions = {
  share: shareAction,
  rename: renameAction,
  move: moveAction,
  edit: editAction,
  trash: trashAction,
  restore: restoreAction,
  remove: deleteAction,
  createFolder: createFolderAction,
  followData: followDataAction,
  bulk: bulkAction,
  emptyTrash: emptyTrashAction,
};
