'use server';
// The dashboard builder's server actions: its save, and the page of plots "Add plot" offers.
import { choosePlots, saveDashboard, type PlotChoices, type SaveState } from '@/lib/web/dashboard-builder';

export async function saveDashboardAction(form: FormData): Promise<SaveState> {
  return saveDashboard(form);
}

export async function choosePlotsAction(form: FormData): Promise<PlotChoices> {
  return choosePlots(form);
}
