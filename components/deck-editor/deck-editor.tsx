'use client';
// The deck editor: a presentation's slides (a title and text, a title over a plot of those the
// viewer may read, or a title over an image chosen from the computer) added, edited, moved up and down, deleted, every change undoable; a theme of the
// Python client's; saved through a server action as the content its presentation_ops reads back.
// Slides made elsewhere are kept as they came. Its state is one reducer (deck-state.ts).
import { useEffect, useReducer, useRef } from 'react';
import { DECK_THEME_LABEL, DECK_THEMES, type DeckTheme, deckContent, SLIDE_IMAGE_TYPES, slideLabel } from '@/lib/shared/deck';
import type { PlotChoices } from '@/lib/web/dashboard-builder';
import type { DeckEditorData } from '@/lib/web/deck-editor';
import type { SaveState } from '@/lib/web/document-save';
import { PlotPicker } from '../dashboard-builder/plot-picker';
import { DocumentFileFields, SaveControls, sendSave } from '../document-file-fields';
import { NOT_SAVED, ProblemsSummary } from '../problems-summary';
import { undoKeys } from '../undo-redo';
import { useSaveShortcut, useUnsavedChanges } from '../unsaved-changes';
import { deckReducer, startDeck } from './deck-state';
import { readSlideImage } from './slide-image';
import { SlideCard } from './slide-card';
import '../dashboard-builder/dashboard-builder.css';
import './deck-editor.css';

export interface DeckEditorProps {
  data: DeckEditorData;
  /** Saves (a server action): on success it goes on to the presentation's page. */
  save: (form: FormData) => Promise<SaveState>;
  /** A page of plots to add (a server action): form fields `q`, `cursor`, `csrf`. */
  choosePlots: (form: FormData) => Promise<PlotChoices>;
}

export function DeckEditor({ data, save, choosePlots }: DeckEditorProps) {
  const [state, dispatch] = useReducer(deckReducer, data, startDeck);
  const { deck, filename, sharing, plots, problems, saving, picker } = state;
  const { slides, theme } = deck.present;
  const root = useRef<HTMLDivElement>(null);
  const opened = useRef(deck.present);
  const imageInput = useRef<HTMLInputElement>(null);
  useUnsavedChanges(deck.present !== opened.current || filename !== data.filename || sharing !== data.sharing, root);
  useSaveShortcut(() => {
    if (!saving) submit();
  });

  useEffect(() => {
    if (state.focus) root.current?.querySelector<HTMLElement>(state.focus.selector)?.focus();
  }, [state.focus]);

  async function addImage(file: File | undefined) {
    if (!file) return;
    const read = await readSlideImage(file);
    dispatch('src' in read ? { type: 'add-image', src: read.src } : { type: 'image-refused', message: read.error });
  }

  const problemAt = (field: string) => problems.find((p) => p.field === field)?.message;

  async function submit() {
    dispatch({ type: 'saving' });
    const form = new FormData();
    form.set('csrf', data.csrf);
    if (data.presentation) form.set('fid', `${data.presentation.owner}:${data.presentation.n}`);
    form.set('content', JSON.stringify(deckContent(deck.present, data.origin, data.base)));
    form.set('filename', filename);
    if (sharing) form.set('sharing', sharing);
    await sendSave(save, form, (found) => dispatch({ type: 'saved', problems: found }));
  }

  const slideProblem = (field: string | null) => {
    const i = field?.startsWith('slide:') ? Number(field.slice(6)) : -1;
    return slides[i] ? slideLabel(slides[i], i) : null;
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Z and Ctrl+Y anywhere in the editor; the buttons are the controls
    <div
      className="dashboard-builder deck-editor"
      ref={root}
      onKeyDown={undoKeys(
        () => dispatch({ type: 'undo' }),
        () => dispatch({ type: 'redo' }),
      )}
    >
      <div className="dashboard-builder-bar">
        <div className="dashboard-add deck-editor-add">
          <button type="button" onClick={() => dispatch({ type: 'add-text' })}>
            Add text slide
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => dispatch({ type: 'picker', open: !picker })}
            aria-expanded={picker}
            aria-controls="dashboard-plot-picker"
          >
            Add plot slide
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => imageInput.current?.click()}
            aria-describedby={state.imageError ? 'deck-image-error' : undefined}
          >
            Add image slide
          </button>
          <input
            ref={imageInput}
            type="file"
            hidden
            accept={SLIDE_IMAGE_TYPES.join(',')}
            aria-label="Image for a new slide"
            onChange={(e) => {
              void addImage(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
        <SaveControls history={deck} saving={saving} dispatch={dispatch} onSave={submit} />
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {state.announce}
      </p>
      {state.imageError && (
        <p id="deck-image-error" className="field-error">
          {state.imageError}
        </p>
      )}
      <ProblemsSummary lead={NOT_SAVED} problems={problems.map((p) => (slideProblem(p.field) ? `${slideProblem(p.field)}: ${p.message}` : p.message))} />
      {picker && (
        <PlotPicker
          csrf={data.csrf}
          choosePlots={choosePlots}
          onPick={(plot) => dispatch({ type: 'add-plot', plot })}
          onClose={() => dispatch({ type: 'picker', open: false })}
        />
      )}
      <div className="dashboard-builder-body">
        <section className="dashboard-settings" aria-labelledby="deck-settings-heading">
          <h2 id="deck-settings-heading">Presentation</h2>
          <div className="field">
            <label htmlFor="deck-theme">Theme</label>
            <select id="deck-theme" value={theme} onChange={(e) => dispatch({ type: 'theme', theme: e.target.value as DeckTheme })}>
              {DECK_THEMES.map((t) => (
                <option key={t} value={t}>
                  {DECK_THEME_LABEL[t]}
                </option>
              ))}
            </select>
          </div>
          <DocumentFileFields
            prefix="deck"
            noun="presentation"
            filename={filename}
            filenameHint="Its name among your files (the first slide’s title when left empty)."
            sharing={sharing}
            problemAt={problemAt}
            onFilename={(name) => dispatch({ type: 'filename', filename: name })}
            onSharing={(v) => dispatch({ type: 'sharing', sharing: v })}
          />
          {problemAt('content') && <p className="field-error">{problemAt('content')}</p>}
        </section>
        <section className="dashboard-canvas-section" aria-labelledby="deck-slides-heading">
          <h2 id="deck-slides-heading">Slides</h2>
          {slides.length ? (
            <ol className="deck-editor-slides">
              {slides.map((slide, i) => (
                <SlideCard
                  key={slide.id}
                  slide={slide}
                  index={i}
                  count={slides.length}
                  theme={theme}
                  plot={slide.kind === 'plot' ? plots[slide.plot.fileId] : undefined}
                  problem={problemAt(`slide:${i}`)}
                  onEdit={(patch) => dispatch({ type: 'edit', index: i, patch })}
                  onMove={(by) => dispatch({ type: 'move', index: i, by })}
                  onRemove={() => dispatch({ type: 'remove', index: i })}
                />
              ))}
            </ol>
          ) : (
            <div className="empty-state dashboard-empty">
              <p>No slides yet: add a text slide, a plot slide or an image slide.</p>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
