'use client';
// The expert view: the figure as JSON (srcs and all) to edit by hand. "Apply" checks the text on the
// server under the API's own figure rules (lib/web/chart-editor.ts checkEditorFigure) and only a
// figure that passes replaces the editor's (one undoable step); otherwise the problems show at the field.
import { useMemo, useState } from 'react';
import type { FigureCheck } from '@/lib/web/chart-editor';
import type { EditorFigure } from './figure-history';

interface ExpertViewProps {
  figure: EditorFigure;
  csrf: string;
  /** The plot edited, if saved: a writer's figure keeps the srcs it has (lib/core/plots/plots.ts). */
  fid: string | null;
  check: (form: FormData) => Promise<FigureCheck>;
  onApply: (figure: EditorFigure, dataAttrs: Record<string, string[]>) => void;
}

type Problem = { path: string | null; message: string };

export function ExpertView({ figure, csrf, fid, check, onApply }: ExpertViewProps) {
  const shown = useMemo(() => JSON.stringify(figure, null, 2), [figure]);
  const [draft, setDraft] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [pending, setPending] = useState(false);
  const text = draft ?? shown;

  async function apply() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setProblems([{ path: null, message: `This is not valid JSON (${e instanceof Error ? e.message : String(e)}). Nothing was changed.` }]);
      return;
    }
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('figure', text);
    if (fid) form.set('fid', fid);
    setPending(true);
    let result: FigureCheck;
    try {
      result = await check(form);
    } catch {
      result = { ok: false, problems: [{ path: null, message: 'The figure could not be checked (the server did not answer); try again.' }] };
    } finally {
      setPending(false);
    }
    if (!result.ok) {
      setProblems(result.problems);
      return;
    }
    const fig = parsed as { data: Record<string, unknown>[]; layout?: Record<string, unknown>; frames?: Record<string, unknown>[] };
    setProblems([]);
    setDraft(null);
    onApply({ data: fig.data, layout: fig.layout ?? {}, ...(fig.frames !== undefined ? { frames: fig.frames } : {}) }, result.dataAttrs);
  }

  return (
    <div className="expert-view">
      <label htmlFor="figure-json">Figure JSON</label>
      <p id="figure-json-hint" className="field-hint">
        The figure as saved: data by reference to grid columns (<code>xsrc</code>, <code>ysrc</code>…), never values. Apply checks it by the same rules as the
        API.
      </p>
      <textarea
        id="figure-json"
        className="figure-json"
        data-own-undo=""
        spellCheck={false}
        rows={18}
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        aria-invalid={problems.length ? true : undefined}
        aria-describedby={problems.length ? 'figure-json-hint figure-json-errors' : 'figure-json-hint'}
      />
      {problems.length > 0 && (
        <div id="figure-json-errors" role="alert">
          <ul className="field-error figure-json-errors">
            {problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the server's list, shown as it came
              <li key={i}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="button-row">
        <button type="button" onClick={apply} disabled={pending} aria-busy={pending}>
          {pending ? 'Checking…' : 'Apply'}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={draft === null}
          onClick={() => {
            setDraft(null);
            setProblems([]);
          }}
        >
          Discard changes
        </button>
      </div>
    </div>
  );
}
