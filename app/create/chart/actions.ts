'use server';
// The chart editor's server actions: the expert view's check of an edited figure under the API's rules
// (writing nothing), and a saved plot's grids following its new sharing.
import { checkEditorFigure, type FigureCheck } from '@/lib/web/chart-editor';
import { followEditedPlotSharing } from '@/lib/web/file-forms';
import type { FormState } from '@/lib/web/forms';

export async function checkFigureAction(form: FormData): Promise<FigureCheck> {
  return checkEditorFigure(form);
}

export async function followSharingAction(form: FormData): Promise<FormState> {
  return followEditedPlotSharing(form);
}
