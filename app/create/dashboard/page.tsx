import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { DashboardBuilder } from '@/components/dashboard-builder/dashboard-builder';
import { loadNewDashboard } from '@/lib/web/dashboard-builder';
import { choosePlotsAction, saveDashboardAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New dashboard', robots: { index: false, follow: false } };

// The dashboard builder on a new dashboard: the viewer's plots and text boxes, laid out and saved.
export default async function NewDashboardPage() {
  const page = await loadNewDashboard();
  if (page.kind === 'sign-in') redirect(page.to);
  return (
    <main>
      <h1>New dashboard</h1>
      <DashboardBuilder data={page.data} save={saveDashboardAction} choosePlots={choosePlotsAction} />
    </main>
  );
}
