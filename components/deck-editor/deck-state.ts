// The deck editor's state in one reducer, without React: the deck (its slides and theme) with its
// undo history (components/undo-history.ts), the file's name and sharing, and the editor's own (the
// plot picker, what to announce and to focus, a save under way and its problems).
import { type Deck, type DeckSlide, type DeckTheme, newSlideId, slideLabel } from '@/lib/shared/deck';
import type { Visibility } from '@/lib/shared/sharing';
import type { BuilderPlot, SaveProblem } from '@/lib/web/dashboard-builder';
import type { DeckEditorData } from '@/lib/web/deck-editor';
import { type History, record, redo, startHistory, undo } from '../undo-history';

export interface DeckState {
  deck: History<Deck>;
  filename: string;
  /** null for a write collaborator, who edits the slides alone. */
  sharing: Visibility | null;
  plots: Record<string, BuilderPlot>;
  picker: boolean;
  /** Said to screen readers (a live region). */
  announce: string;
  /** The control to focus once drawn (a selector), new each time. */
  focus: { selector: string } | null;
  saving: boolean;
  problems: SaveProblem[];
  /** Why the image last chosen for a slide was not added. */
  imageError: string | null;
}

export type DeckAction =
  | { type: 'add-text' }
  | { type: 'add-plot'; plot: BuilderPlot }
  | { type: 'add-image'; src: string }
  | { type: 'image-refused'; message: string }
  | { type: 'edit'; index: number; patch: SlidePatch }
  | { type: 'move'; index: number; by: -1 | 1 }
  | { type: 'remove'; index: number }
  | { type: 'theme'; theme: DeckTheme }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'filename'; filename: string }
  | { type: 'sharing'; sharing: Visibility }
  | { type: 'picker'; open: boolean }
  | { type: 'saving' }
  /** A save's end: its problems when it was refused (a save that succeeded goes on to the presentation's page). */
  | { type: 'saved'; problems: SaveProblem[] };

/** A slide's fields as the editor changes them: its title; a text slide's text; an image's words. */
export interface SlidePatch {
  title?: string;
  body?: string;
  alt?: string;
}

export function startDeck(data: DeckEditorData): DeckState {
  return {
    deck: startHistory(data.deck),
    filename: data.filename,
    sharing: data.sharing,
    plots: data.plots,
    picker: false,
    announce: '',
    focus: null,
    saving: false,
    problems: [],
    imageError: null,
  };
}

const focusOn = (selector: string) => ({ selector });
const withSlides = (s: DeckState, slides: DeckSlide[], key: string | null = null): DeckState => ({
  ...s,
  deck: record(s.deck, { ...s.deck.present, slides }, key),
});

/** The state with `slide` added at the end, its first field focused. */
function added(s: DeckState, slide: DeckSlide, what: string): DeckState {
  const slides = [...s.deck.present.slides, slide];
  return {
    ...withSlides(s, slides),
    focus: focusOn(`[data-slide="${slide.id}"] input`),
    announce: `${what} added as slide ${slides.length}.`,
  };
}

export function deckReducer(s: DeckState, action: DeckAction): DeckState {
  const { slides } = s.deck.present;
  switch (action.type) {
    case 'add-text':
      return added(s, { kind: 'text', id: newSlideId(), title: '', body: '' }, 'A text slide');
    case 'add-plot': {
      const { plot } = action;
      const slide: DeckSlide = { kind: 'plot', id: newSlideId(), title: plot.title, plot: { fileId: plot.fileId, shareKey: null } };
      return added({ ...s, plots: { ...s.plots, [plot.fileId]: plot } }, slide, `Plot ${plot.title || plot.fileId}`);
    }
    case 'add-image':
      return added({ ...s, imageError: null }, { kind: 'image', id: newSlideId(), title: '', src: action.src, alt: '' }, 'An image slide');
    case 'image-refused':
      return { ...s, imageError: action.message, announce: action.message };
    case 'edit': {
      const slide = slides[action.index];
      if (!slide || slide.kind === 'kept') return s;
      if (action.patch.body !== undefined && slide.kind !== 'text') return s;
      if (action.patch.alt !== undefined && slide.kind !== 'image') return s;
      const next = slides.map((x, i) => (i === action.index ? ({ ...x, ...action.patch } as DeckSlide) : x));
      return withSlides(s, next, `${slide.id}:${Object.keys(action.patch).join()}`);
    }
    case 'move': {
      const to = action.index + action.by;
      const slide = slides[action.index];
      if (!slide || to < 0 || to >= slides.length) return s;
      const next = [...slides];
      next.splice(action.index, 1);
      next.splice(to, 0, slide);
      const button = action.by < 0 ? 'up' : 'down';
      // At either end the button pressed is disabled: the other one keeps the focus.
      const edge = (button === 'up' && to === 0) || (button === 'down' && to === slides.length - 1);
      return {
        ...withSlides(s, next),
        focus: focusOn(`[data-slide="${slide.id}"] [data-move="${edge ? (button === 'up' ? 'down' : 'up') : button}"]`),
        announce: `${slideLabel(slide, action.index)} is now slide ${to + 1} of ${slides.length}.`,
      };
    }
    case 'remove': {
      const slide = slides[action.index];
      if (!slide) return s;
      return {
        ...withSlides(
          s,
          slides.filter((_, i) => i !== action.index),
        ),
        focus: focusOn('.deck-editor-add button'),
        announce: `${slideLabel(slide, action.index)} deleted.`,
      };
    }
    case 'theme':
      return { ...s, deck: record(s.deck, { ...s.deck.present, theme: action.theme }) };
    case 'undo':
    case 'redo': {
      const deck = action.type === 'undo' ? undo(s.deck) : redo(s.deck);
      return deck === s.deck ? s : { ...s, deck };
    }
    case 'filename':
      return { ...s, filename: action.filename };
    case 'sharing':
      return { ...s, sharing: action.sharing };
    case 'picker':
      return { ...s, picker: action.open, focus: action.open ? s.focus : focusOn('.deck-editor-add button') };
    case 'saving':
      return { ...s, saving: true, problems: [] };
    case 'saved':
      return { ...s, saving: false, problems: action.problems };
  }
}
