'use client';
// The dashboard builder's "Add plot": the viewer's plots, newest first or matching a search, a page
// at a time (a server action answers each page).
import { MAX_QUERY_CHARS } from '@/lib/shared/limits';
import { useEffect, useRef, useState } from 'react';
import type { BuilderPlot, PlotChoice, PlotChoices } from '@/lib/web/dashboard-builder';

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

interface PlotPickerProps {
  csrf: string;
  /** A page of plots to add (a server action): form fields `q`, `cursor`, `csrf`. */
  choosePlots: (form: FormData) => Promise<PlotChoices>;
  onPick: (plot: BuilderPlot) => void;
  onClose: () => void;
}

export function PlotPicker({ csrf, choosePlots, onPick, onClose }: PlotPickerProps) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState<PlotChoices | null>(null);
  const [loading, setLoading] = useState(false);
  const search = useRef<HTMLInputElement>(null);

  async function load(query: string, cursor: string | null) {
    setLoading(true);
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('q', query);
    if (cursor) form.set('cursor', cursor);
    try {
      const next = await choosePlots(form);
      setPage((old) => (cursor && old ? { ...next, plots: [...old.plots, ...next.plots] } : next));
    } catch {
      setPage({ plots: [], next: null, error: 'Your plots could not be loaded; try again.' });
    } finally {
      setLoading(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page once, when the picker opens
  useEffect(() => {
    search.current?.focus();
    void load('', null);
  }, []);

  return (
    <section id="dashboard-plot-picker" className="dashboard-picker" aria-labelledby="dashboard-picker-heading">
      <div className="dashboard-picker-head">
        <h2 id="dashboard-picker-heading">Add a plot</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Done
        </button>
      </div>
      <form
        className="dashboard-picker-search"
        onSubmit={(e) => {
          e.preventDefault();
          void load(q, null);
        }}
      >
        <label htmlFor="dashboard-picker-q">Search your plots</label>
        <input
          id="dashboard-picker-q"
          ref={search}
          type="search"
          data-own-undo=""
          value={q}
          maxLength={MAX_QUERY_CHARS}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      {page?.error && <p className="field-error">{page.error}</p>}
      {page && !page.error && !page.plots.length && <p className="muted">{q ? 'No plot of yours matches.' : 'You have no plots yet.'}</p>}
      <ul className="dashboard-picker-list" aria-busy={loading}>
        {page?.plots.map((p) => (
          <Choice key={p.fileId} plot={p} onPick={onPick} />
        ))}
      </ul>
      {page?.next && (
        <button type="button" className="secondary" disabled={loading} onClick={() => void load(q, page.next)}>
          More plots
        </button>
      )}
    </section>
  );
}

function Choice({ plot, onPick }: { plot: PlotChoice; onPick: (plot: BuilderPlot) => void }) {
  const title = plot.title || plot.fileId;
  return (
    <li>
      {plot.thumbnail && <img src={plot.thumbnail} alt="" width={64} height={48} loading="lazy" />}
      <span className="dashboard-picker-name">
        <span className="dashboard-picker-title">{title}</span>
        <span className="dashboard-picker-fact muted">{plot.filename}</span>
        <time className="dashboard-picker-fact muted" dateTime={plot.updated}>
          {dateFormat.format(new Date(plot.updated))} UTC
        </time>
      </span>
      <button type="button" className="secondary" onClick={() => onPick(plot)}>
        Add <span className="visually-hidden">{`${title} (${plot.filename})`}</span>
      </button>
    </li>
  );
}
