'use server';
// The editors' server actions: the chart editor's check of an edited figure under the API's rules
// (writing nothing) and a saved plot's grids following its new sharing; the dashboard builder's save
// and the page of plots "Add plot" offers (the deck editor's too); the deck editor's save.
import { checkEditorFigure, type FigureCheck } from '@/lib/web/chart-editor';
import { choosePlots, saveDashboard, type PlotChoices, type SaveState } from '@/lib/web/dashboard-builder';
import { savePresentation } from '@/lib/web/deck-editor';
import { followEditedPlotSharing } from '@/lib/web/file-forms';
import type { FormState } from '@/lib/web/forms';

export async function checkFigureAction(form: FormData): Promise<FigureCheck> {
  return checkEditorFigure(form);
}

export async function followSharingAction(form: FormData): Promise<FormState> {
  return followEditedPlotSharing(form);
}

export async function saveDashboardAction(form: FormData): Promise<SaveState> {
  return saveDashboard(form);
}

export async function choosePlotsAction(form: FormData): Promise<PlotChoices> {
  return choosePlots(form);
}

export async function savePresentationAction(form: FormData): Promise<SaveState> {
  return savePresentation(form);
}
