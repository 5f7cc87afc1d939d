// The deck editor's pure parts: its reducer (components/deck-editor/deck-state.ts: slides added,
// edited, moved, deleted, each an undoable step, typing one step), its deck to and from the content
// Python's presentation_objs writes (lib/shared/deck.ts: passes the API's one schema, its plots found
// by the one plot reference rule, slides made elsewhere kept byte for byte, the theme kept), and a
// refused save's problems at their slide (lib/web/deck-editor.ts).
import { describe, expect, it } from 'vitest';
import { type DeckAction, type DeckState, deckReducer, startDeck } from '@/components/deck-editor/deck-state';
import { parsePresentationContent, plotRefsOfPresentation } from '@/lib/core/documents/dashboard-content';
import { invalidMany } from '@/lib/core/errors';
import { type Deck, deckContent, deckOfContent, isSlideImageData } from '@/lib/shared/deck';
import { CONTENT_LIMITS } from '@/lib/shared/limits';
import type { BuilderPlot } from '@/lib/web/dashboard-builder';
import { type DeckEditorData, deckProblemsOf } from '@/lib/web/deck-editor';

const ORIGIN = 'https://plots.example';
const pythonSlide = {
  id: 'Py1',
  children: [{ id: 'c1', type: 'Image', props: { src: 'https://elsewhere.example/a.png', style: { left: 1, top: 2 } }, children: [] }],
  props: { style: { backgroundColor: '#F7F7F7' }, transition: ['slide'] },
};
const data: DeckEditorData = {
  presentation: { owner: 'alice', n: 4 },
  filename: 'Deck',
  deck: { slides: [{ kind: 'kept', id: 'Py1', slide: pythonSlide }], theme: 'moods' },
  base: { presentation: { version: '0.1.3', paragraphStyles: { Body: {} } } },
  origin: ORIGIN,
  sharing: 'private',
  plots: {},
  csrf: 'c',
};
const plot: BuilderPlot = { fileId: 'alice:7', readable: true, title: 'Sales', href: '/~alice/7/', thumbnail: '/~alice/7.png' };
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const run = (s: DeckState, ...actions: DeckAction[]) => actions.reduce(deckReducer, s);
const kinds = (s: DeckState) => s.deck.present.slides.map((x) => (x.kind === 'kept' ? 'kept' : `${x.kind}:${x.title}`));

describe('the deck editor state', () => {
  it('adds, edits, moves and deletes slides, each an undoable step, and says so', () => {
    const start = startDeck(data);
    const text = run(start, { type: 'add-text' }, { type: 'edit', index: 1, patch: { title: 'H' } }, { type: 'edit', index: 1, patch: { title: 'Hello' } });
    expect(kinds(text)).toEqual(['kept', 'text:Hello']);
    expect(text.deck.past).toHaveLength(2); // the add, and the typing as one step
    const withPlot = run(text, { type: 'add-plot', plot });
    expect(kinds(withPlot)).toEqual(['kept', 'text:Hello', 'plot:Sales']);
    expect(withPlot.plots['alice:7']).toBe(plot);
    expect(withPlot.announce).toBe('Plot Sales added as slide 3.');
    const moved = run(withPlot, { type: 'move', index: 2, by: -1 });
    expect(kinds(moved)).toEqual(['kept', 'plot:Sales', 'text:Hello']);
    expect(moved.announce).toBe('Slide 3 (Sales) is now slide 2 of 3.');
    expect(moved.focus?.selector).toMatch(/\[data-move="up"\]$/);
    // At the top, "Move up" is off: the focus goes to its neighbour.
    expect(run(moved, { type: 'move', index: 1, by: -1 }).focus?.selector).toMatch(/\[data-move="down"\]$/);
    expect(run(moved, { type: 'move', index: 0, by: -1 })).toBe(moved);
    // A slide made elsewhere is not rewritten.
    expect(run(moved, { type: 'edit', index: 0, patch: { title: 'x' } })).toBe(moved);
    const removed = run(moved, { type: 'remove', index: 0 });
    expect(kinds(removed)).toEqual(['plot:Sales', 'text:Hello']);
    expect(removed.announce).toBe('Slide 1 (made elsewhere) deleted.');
    expect(kinds(run(removed, { type: 'undo' }))).toEqual(kinds(moved));
    expect(kinds(run(removed, { type: 'undo' }, { type: 'redo' }))).toEqual(kinds(removed));
    const themed = run(removed, { type: 'theme', theme: 'martik' }, { type: 'filename', filename: 'New name' });
    expect(themed.deck.present.theme).toBe('martik');
    expect(run(themed, { type: 'undo' }).deck.present.theme).toBe('moods');
    expect(run(themed, { type: 'undo' }).filename).toBe('New name');
  });

  it('keeps a refused save’s problems and clears them on the next save', () => {
    const refused = run(startDeck(data), { type: 'saving' }, { type: 'saved', problems: [{ field: 'slide:0', message: 'No.' }] });
    expect(refused.saving).toBe(false);
    expect(run(refused, { type: 'saving' }).problems).toEqual([]);
  });
});

describe('the deck as content', () => {
  const deck: Deck = {
    theme: 'martik',
    slides: [
      { kind: 'text', id: 'a', title: 'Title', body: 'one\ntwo' },
      { kind: 'text', id: 'b', title: 'Alone', body: '' },
      { kind: 'plot', id: 'c', title: 'Sales', plot: { fileId: 'alice:7', shareKey: null } },
      { kind: 'plot', id: 'd', title: '', plot: { fileId: 'bob:2', shareKey: 'k3y' } },
      { kind: 'image', id: 'e', title: 'A dot', src: PIXEL, alt: 'one red dot' },
      { kind: 'kept', id: 'Py1', slide: pythonSlide },
    ],
  };

  it('passes the API’s schema, names its plots as the pages read them, and reads back as it was', () => {
    const content = deckContent(deck, ORIGIN, data.base);
    const text = JSON.stringify(content);
    const parsed = parsePresentationContent(text);
    expect(parsed.presentation.slides).toHaveLength(6);
    expect(plotRefsOfPresentation(parsed, ORIGIN).map((r) => [r.fileId, r.shareKey])).toEqual([
      ['alice:7', null],
      ['bob:2', 'k3y'],
    ]);
    expect(content.presentation).toMatchObject({ version: '0.1.3', paragraphStyles: { Body: {} }, theme: 'martik' });
    expect(parsed.presentation.slides[5]).toEqual(pythonSlide);
    expect(parsed.presentation.slides[4].children[1]).toMatchObject({ type: 'Image', props: { src: PIXEL, alt: 'one red dot' } });
    expect(parsed.presentation.slides[0].props?.style).toEqual({ backgroundColor: '#F4FAFB' });
    expect(deckOfContent(JSON.parse(text))).toEqual(deck);
  });

  it('holds an image in a slide only as a raster data: URL within the limit (no SVG, no script, no other scheme)', () => {
    const withImage = (src: string) => {
      const content = deckContent({ theme: 'moods', slides: [{ kind: 'image', id: 'i', title: '', src, alt: '' }] }, ORIGIN);
      return () => parsePresentationContent(JSON.stringify(content));
    };
    expect(withImage(PIXEL)).not.toThrow();
    expect(isSlideImageData(PIXEL)).toBe(true);
    // Not an image a slide holds (as addresses of at most 8,192 characters they may be stored: the pages draw an address only when it is on this site).
    for (const other of ['data:image/svg+xml;base64,PHN2Zy8+', 'data:text/html;base64,PHNjcmlwdD4=', 'javascript:alert(1)', 'data:image/png;base64,<b>'])
      expect(isSlideImageData(other), other).toBe(false);
    expect(withImage(`data:image/png;base64,${'A'.repeat(CONTENT_LIMITS.image)}`)).toThrow();
    expect(withImage('https://elsewhere.example/a.png')).not.toThrow();
    // Read back, only an image the slide holds is the editor's; anything else is kept as it came.
    const other = deckContent({ theme: 'moods', slides: [{ kind: 'image', id: 'i', title: '', src: 'https://elsewhere.example/a.png', alt: '' }] }, ORIGIN);
    expect(deckOfContent(other).slides[0].kind).toBe('kept');
  });

  it('adds an image slide, its words editable, and says why an image was refused', () => {
    const s = run(startDeck(data), { type: 'add-image', src: PIXEL }, { type: 'edit', index: 1, patch: { alt: 'a dot' } });
    expect(s.deck.present.slides[1]).toMatchObject({ kind: 'image', src: PIXEL, alt: 'a dot' });
    expect(run(s, { type: 'edit', index: 1, patch: { body: 'x' } })).toBe(s);
    const refused = run(s, { type: 'image-refused', message: 'Too large.' });
    expect(refused.imageError).toBe('Too large.');
    expect(run(refused, { type: 'add-image', src: PIXEL }).imageError).toBeNull();
  });

  it('keeps as made elsewhere a slide of the editor’s mark that no longer has its shape', () => {
    const content = deckContent(deck, ORIGIN) as { presentation: { slides: { children: unknown[] }[] } };
    content.presentation.slides[0].children.push({ type: 'CodePane', props: { source: 'x' } });
    expect(deckOfContent(content).slides[0].kind).toBe('kept');
    expect(deckOfContent({}).slides).toEqual([]);
  });
});

describe('deck save problems', () => {
  it('puts each problem at its slide or field', () => {
    const e = invalidMany([
      { field: 'content.presentation.slides[2].children[1].props.src', message: "'ann:7' is not a plot you can read" },
      { field: 'filename', message: "a file named 'x' already exists" },
      { field: 'content.presentation.slides', message: 'at most 100 plots in a presentation' },
    ]);
    expect(deckProblemsOf(e)).toEqual([
      { field: 'slide:2', message: 'The plot ann:7 is not one you can see (any more): delete this slide, or ask its owner to share the plot with you.' },
      { field: 'filename', message: "A file named 'x' already exists" },
      { field: 'content', message: 'At most 100 plots in a presentation' },
    ]);
  });
});
