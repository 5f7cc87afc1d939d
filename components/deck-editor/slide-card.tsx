'use client';
// One slide in the deck editor's list: its fields (a title and text, or a title over a plot), what a
// slide made elsewhere is (kept as it came), and its Move up / Move down / Delete buttons.
import { CONTENT_LIMITS } from '@/lib/shared/limits';
import { type DeckSlide, type DeckTheme, slideLabel } from '@/lib/shared/deck';
import type { BuilderPlot } from '@/lib/web/dashboard-builder';
import type { SlidePatch } from './deck-state';

interface SlideCardProps {
  slide: DeckSlide;
  index: number;
  count: number;
  theme: DeckTheme;
  plot: BuilderPlot | undefined;
  problem: string | undefined;
  onEdit: (patch: SlidePatch) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

export function SlideCard({ slide, index, count, theme, plot, problem, onEdit, onMove, onRemove }: SlideCardProps) {
  const label = slideLabel(slide, index);
  const id = `slide-${slide.id}`;
  return (
    <li className={`deck-editor-slide deck-theme-${theme}${problem ? ' has-error' : ''}`} data-slide={slide.id} aria-label={label}>
      <div className="deck-editor-slide-head">
        <h3 className="deck-editor-slide-number">
          Slide {index + 1} <span className="muted">· {slide.kind === 'kept' ? 'made elsewhere' : slide.kind}</span>
        </h3>
        <div className="deck-editor-slide-actions">
          <button type="button" className="secondary" data-move="up" disabled={index === 0} onClick={() => onMove(-1)}>
            Move up <span className="visually-hidden">{label}</span>
          </button>
          <button type="button" className="secondary" data-move="down" disabled={index === count - 1} onClick={() => onMove(1)}>
            Move down <span className="visually-hidden">{label}</span>
          </button>
          <button type="button" className="secondary danger" onClick={onRemove}>
            Delete <span className="visually-hidden">{label}</span>
          </button>
        </div>
      </div>
      {slide.kind === 'kept' ? (
        <p className="muted deck-editor-kept">Made elsewhere (with the Python client): kept as it was made, in its own look. Move or delete it here.</p>
      ) : (
        <div className="deck-editor-fields">
          <div className="field">
            <label htmlFor={`${id}-title`}>Title</label>
            <input id={`${id}-title`} type="text" value={slide.title} maxLength={CONTENT_LIMITS.line} onChange={(e) => onEdit({ title: e.target.value })} />
          </div>
          {slide.kind === 'image' && (
            <div className="deck-editor-image">
              <img src={slide.src} alt="" />
              <div className="field">
                <label htmlFor={`${id}-alt`}>What the image shows</label>
                <input id={`${id}-alt`} type="text" value={slide.alt} maxLength={CONTENT_LIMITS.line} onChange={(e) => onEdit({ alt: e.target.value })} />
                <p className="hint">Said to people who cannot see it.</p>
              </div>
            </div>
          )}
          {slide.kind === 'image' ? null : slide.kind === 'text' ? (
            <div className="field">
              <label htmlFor={`${id}-body`}>Text</label>
              <textarea id={`${id}-body`} rows={4} value={slide.body} maxLength={CONTENT_LIMITS.line} onChange={(e) => onEdit({ body: e.target.value })} />
            </div>
          ) : (
            <div className="deck-editor-plot">
              {plot?.readable && plot.thumbnail && <img src={plot.thumbnail} alt="" width={96} height={72} loading="lazy" />}
              <p>
                {plot?.readable ? (
                  <>
                    Plot: <a href={plot.href ?? undefined}>{plot.title || slide.plot.fileId}</a>
                  </>
                ) : (
                  'A plot you cannot see (any more).'
                )}
              </p>
            </div>
          )}
        </div>
      )}
      {problem && <p className="field-error">{problem}</p>}
    </li>
  );
}
