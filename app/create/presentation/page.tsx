import type { Metadata } from 'next';
import { DeckEditor } from '@/components/deck-editor/deck-editor';
import { loadNewPresentation } from '@/lib/web/deck-editor';
import { choosePlotsAction, savePresentationAction } from '@/app/_actions/editors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New presentation', robots: { index: false, follow: false } };

// The deck editor on a new presentation: slides of text and of the viewer's plots, a theme, saved.
export default async function NewPresentationPage() {
  const data = await loadNewPresentation();
  return (
    <main>
      <h1>New presentation</h1>
      <DeckEditor data={data} save={savePresentationAction} choosePlots={choosePlotsAction} />
    </main>
  );
}
