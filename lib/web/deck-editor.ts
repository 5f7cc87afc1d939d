// The deck editor's pages and save: a new presentation (`/create/presentation`) or one the viewer may
// write (`/~owner/n/edit`: its owner and write collaborators; anyone else the 404 of a missing file),
// its slides as the editor knows them (lib/shared/deck.ts), and the save through the API's own rules
// (document-save.ts), the problems shown at their slide. The plots to add are the dashboard builder's
// ("Add plot": choosePlots).
import 'server-only';
import { documentContentAt, resolvePlotRefs } from '@/lib/core/documents/dashboards';
import { ApiError } from '@/lib/core/errors';
import type { OwnedFile } from '@/lib/core/files/files';
import { fileVisibility, isOwner } from '@/lib/core/permissions';
import { type Deck, deckOfContent } from '@/lib/shared/deck';
import type { Visibility } from '@/lib/shared/sharing';
import { NEW_PRESENTATION_PATH } from '@/lib/shared/urls';
import { type BuilderPlot, builderPlot } from './dashboard-builder';
import { saveDocument, type SaveProblem, type SaveState } from './document-save';
import { errorSentences } from './forms';
import { signedInPage, type SignedInContext } from './page-context';

/** What the deck editor (components/deck-editor) is handed. */
export interface DeckEditorData {
  /** null for a new presentation. */
  presentation: { owner: string; n: number } | null;
  filename: string;
  deck: Deck;
  /** The stored content without its slides: what else the client put there, saved back as it came. */
  base: Record<string, unknown>;
  /** This site's address, which a plot slide's `src` names (as the Python client writes it). */
  origin: string;
  /** The owner sets sharing here; null for a write collaborator, who edits the slides alone. */
  sharing: Visibility | null;
  /** The plots the slides name, by fileId. */
  plots: Record<string, BuilderPlot>;
  csrf: string;
}

/** `/create/presentation`: signed in (else signing in first); an empty deck, private until its owner shares it. */
export async function loadNewPresentation(): Promise<DeckEditorData> {
  const ctx = await signedInPage(NEW_PRESENTATION_PATH);
  return {
    presentation: null,
    filename: '',
    deck: { slides: [], theme: 'moods' },
    base: {},
    origin: ctx.origin,
    sharing: 'private',
    plots: {},
    csrf: ctx.csrf,
  };
}

/** `/~owner/n/edit` on a presentation the signed-in viewer may write (edit-page.ts checked it); null for the 404 (gone since). */
export async function presentationEditorOf(ctx: SignedInContext, file: OwnedFile): Promise<DeckEditorData | null> {
  const stored = await documentContentAt(ctx.db, file.id);
  if (!stored) return null;
  const content = JSON.parse(stored.content) as Record<string, unknown>;
  const deck = deckOfContent(content);
  const { slides: _slides, ...presentation } = (content.presentation ?? {}) as Record<string, unknown>;
  const refs = deck.slides.flatMap((s) => (s.kind === 'plot' ? [s.plot] : []));
  const resolved = await resolvePlotRefs(ctx.db, ctx.viewer, refs);
  return {
    presentation: { owner: file.owner, n: file.n },
    filename: file.filename,
    deck,
    base: { ...content, presentation },
    origin: ctx.origin,
    sharing: isOwner(ctx.viewer, file) ? fileVisibility(file) : null,
    plots: Object.fromEntries(refs.map((r) => [r.fileId, builderPlot(r.fileId, resolved.get(r.fileId))])),
    csrf: ctx.csrf,
  };
}

/** Where an API problem is in the editor: a slide (`slide:<index>`), the file name, the sharing, or the content. */
function placeOf(at: string | null): string | null {
  if (!at) return null;
  const slide = /^content\.presentation\.slides\[(\d+)\]/.exec(at);
  if (slide) return `slide:${slide[1]}`;
  if (at === 'filename') return 'filename';
  if (at === 'world_readable' || at === 'share_key_enabled') return 'sharing';
  return at.startsWith('content') ? 'content' : null;
}

/** A refused save's problems, each at its slide or field, in words a person reads there. */
export const deckProblemsOf = (e: ApiError): SaveProblem[] =>
  e.errors.map((item) => {
    const at = item.path ?? item.field;
    const field = placeOf(at);
    if (field === null) return { field, message: errorSentences(new ApiError(e.status, [item])) };
    const text = at && item.message.startsWith(`${at}: `) ? item.message.slice(at.length + 2) : item.message;
    const notReadable = /'([^']+)' is not a plot you can read/.exec(text);
    const message = notReadable
      ? `The plot ${notReadable[1]} is not one you can see (any more): delete this slide, or ask its owner to share the plot with you.`
      : text.charAt(0).toUpperCase() + text.slice(1);
    return { field, message };
  });

/** Saves the editor's presentation (document-save.ts), then on to its page; or the problems. */
export const savePresentation = (form: FormData): Promise<SaveState> =>
  saveDocument(form, {
    filetype: 'spectacle_presentation',
    tooLarge: 'The presentation is too large to save (at most 1 MiB of content).',
    untitled: 'Untitled presentation',
    titleOf: (content) => {
      const first = (content as { presentation?: { slides?: { children?: { children?: unknown[] }[] }[] } } | null)?.presentation?.slides?.[0];
      return first?.children?.[0]?.children?.join(' ');
    },
    problemsOf: deckProblemsOf,
  });
