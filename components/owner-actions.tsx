// What the owner can do on their plot's page: edit its title and caption, change who sees it, move it
// to the trash (then on to their files). The same forms and rules as the workspace (file-forms.tsx).
import type { Visibility } from '@/lib/shared/sharing';
import { ActionForm } from './action-form';
import { editPlotForm, sharingForm, trashForm, type FileActions } from './file-forms';

interface OwnerActionsProps {
  fid: string;
  title: string;
  caption: string;
  visibility: Visibility;
  csrf: string;
  actions: FileActions;
}

export function OwnerActions({ fid, title, caption, visibility, csrf, actions }: OwnerActionsProps) {
  const common = { csrf, fid, back: 'plot' as const };
  return (
    <section className="owner-actions" aria-labelledby="owner-actions-heading">
      <h2 id="owner-actions-heading">Manage this plot</h2>
      <div className="owner-actions-grid">
        <ActionForm {...editPlotForm({ action: actions.edit, title, caption, ...common })} />
        <div className="owner-actions-side">
          <ActionForm {...sharingForm({ action: actions.share, visibility, ...common })} />
          <ActionForm {...trashForm({ action: actions.trash, grids: true, ...common })} />
        </div>
      </div>
    </section>
  );
}
