'use server';
// The dashboard builder's server actions: its save, and the page of plots "Add plot" offers.
import type { PlotChoices, SaveState } from '@/components/dashboard-builder/types';
import { choosePlots, saveDashboard } from '@/lib/web/dashboard-builder';

export async function saveDashboardAction(form: FormData): Promise<SaveState> {
  return saveDashboard(form);
}

export async function choosePlotsAction(form: FormData): Promise<PlotChoices> {
  return choosePlots(form);
}
