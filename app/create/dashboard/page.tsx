import type { Metadata } from 'next';
import { DashboardBuilder } from '@/components/dashboard-builder/dashboard-builder';
import { loadNewDashboard } from '@/lib/web/dashboard-builder';
import { choosePlotsAction, saveDashboardAction } from '@/app/_actions/editors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New dashboard', robots: { index: false, follow: false } };

// The dashboard builder on a new dashboard: the viewer's plots and text boxes, laid out and saved.
export default async function NewDashboardPage() {
  const data = await loadNewDashboard();
  return (
    <main>
      <h1>New dashboard</h1>
      <DashboardBuilder data={data} save={saveDashboardAction} choosePlots={choosePlotsAction} />
    </main>
  );
}
