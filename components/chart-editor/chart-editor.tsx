'use client';
// The chart editor: a chart type (picker and select), each trace's columns by role, title, sharing,
// the style panels, the expert view, undo and redo, and a live preview. The figure it keeps and saves
// holds src references only, and it saves through the API itself (POST /v2/plots, PATCH
// /v2/plots/owner:n; the session cookie counts for our own pages), so what it makes is exactly what
// a client could have made, with the same limits and errors.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { type Visibility, visibilityHint } from '@/lib/shared/sharing';
import { applyTheme, templateOf } from '@/lib/shared/figures/theme-figures';
import { MAX_PLOT_TITLE_CHARS } from '@/lib/shared/limits';
import { apiFilePath, filePath } from '@/lib/shared/urls';
import type { EditorData, FigureCheck } from '@/lib/web/chart-editor';
import type { FormState } from '@/lib/web/forms';
import { ChartPreview } from './chart-preview';
import { ChartTypePicker } from './chart-type-picker';
import {
  CHART_KINDS,
  convertTrace,
  figureKind,
  kindById,
  kindOf,
  roleSrc,
  srcPath,
  tracesSrcs,
  withRoleSrc,
  type ChartKind,
  type Role,
} from '@/lib/shared/figures/chart-kinds';
import { ColumnSelect } from './column-select';
import { ExpertView } from './expert-view';
import { historyReducer, startHistory, type EditorFigure } from './figure-history';
import { setIn } from './figure-path';
import { columnKey, type ColumnSize } from './preview-data';
import { LayoutStylePanels, type OwnThemes, TraceStylePanel } from './style/style-panels';
import './chart-editor.css';

export interface ChartEditorProps {
  data: EditorData;
  /** The expert view's server-side check (a server action: components never import app/). */
  check: (form: FormData) => Promise<FigureCheck>;
  /** After a save that made the plot private or secret: its grids follow it, as on the plot page (a server action). */
  followSharing: (form: FormData) => Promise<FormState>;
}

/** An API error item, where the API put it: `field` (title, figure...) and `path` inside it (figure.data[0].xsrc). */
interface SaveProblem {
  message: string;
  field: string | null;
  path: string | null;
}

const SHARING: { value: Visibility; label: string }[] = [
  { value: 'public', label: 'Public' },
  { value: 'private', label: 'Private' },
  { value: 'secret', label: 'Secret' },
];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The chart's title as the figure has it (`layout.title` as text, or its `text`), if it has one. */
function layoutTitle(layout: Record<string, unknown>): string | undefined {
  const t = layout.title;
  if (typeof t === 'string') return t;
  return isRecord(t) && typeof t.text === 'string' ? t.text : undefined;
}

/** `figure.data[0].marker.colorsrc` -> `data.0.marker.colorsrc`: an API problem's place in the figure. */
const figurePlace = (path: string) =>
  path
    .replace(/^figure\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^\./, '');

export function ChartEditor({ data, check, followSharing }: ChartEditorProps) {
  const [history, dispatch] = useReducer(historyReducer, data.figure, startHistory);
  const figure = history.present;
  const [sharing, setSharing] = useState<Visibility | null>(data.sharing);
  const [current, setCurrent] = useState(0);
  const [moreRoles, setMoreRoles] = useState(false);
  const [expert, setExpert] = useState(false);
  const [dataAttrs, setDataAttrs] = useState(data.dataAttrs);
  const [problems, setProblems] = useState<SaveProblem[]>([]);
  const [saving, setSaving] = useState(false);
  const summary = useRef<HTMLDivElement>(null);

  const grids = data.grids;
  const sizes = useMemo(() => {
    const map = new Map<string, ColumnSize>();
    for (const g of grids) for (const c of g.cols) map.set(columnKey(g.owner, g.n, c.uid), { length: c.length, bytes: c.bytes });
    return map;
  }, [grids]);

  const traces = figure.data;
  const index = Math.min(current, Math.max(traces.length - 1, 0));
  const trace = traces[index] as Record<string, unknown> | undefined;
  const layout = figure.layout;
  const chartKind = figureKind(traces, layout);
  const title = layoutTitle(layout) ?? data.title;

  // A refused save: the list of what to fix takes the focus (screen readers read it; Tab goes on to the controls).
  useEffect(() => {
    if (problems.length) summary.current?.focus();
  }, [problems]);

  const change = useCallback((path: string, value: unknown) => dispatch({ type: 'change', path, value }), []);
  const setFigure = (next: EditorFigure) => dispatch({ type: 'set', figure: next });

  const problemAt = (place: string) =>
    problems
      .filter((p) => (p.path ? figurePlace(p.path) === place : p.field === place))
      .map((p) => p.message)
      .join(' ') || undefined;

  // One of the person's themes, read through the API as a client would (their own: the session counts).
  const ownThemes: OwnThemes = {
    themes: data.themes,
    apply: async (fid) => {
      const [owner, n] = fid.split(':');
      const res = await fetch(apiFilePath('plots', owner, Number(n)), { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const record = (await res.json()) as { figure?: { layout?: unknown } };
      const theme = templateOf(record.figure ?? {});
      dispatch({ type: 'apply', apply: (f) => applyTheme(f, theme) });
      return theme;
    },
  };

  function applyKind(kind: ChartKind, only?: number) {
    let next: EditorFigure = {
      ...figure,
      data: figure.data.map((t, i) => (only === undefined || i === only ? convertTrace(t, figure.layout, kind) : t)),
    };
    for (const [path, value] of Object.entries(kind.layout ?? {})) next = setIn(next, path, value);
    setFigure(next);
  }

  function setTitle(value: string) {
    if (typeof layout.title === 'string') change('layout.title', { text: value });
    else change('layout.title.text', value);
  }

  function addTrace() {
    const kind = (trace && kindOf(trace, layout)) ?? CHART_KINDS[0];
    let added: Record<string, unknown> = { ...kind.trace };
    const used = new Set(traces.flatMap((t) => tracesSrcs(t).map((s) => s.src)));
    const free = grids.flatMap((g) => g.cols.map((c) => ({ src: `${g.fid}:${c.uid}`, name: c.name }))).find((c) => !used.has(c.src));
    const required = kind.roles.filter((r) => r.required);
    for (const role of required) {
      const src = trace ? roleSrc(trace, role.attr) : undefined;
      if (src !== undefined) added = withRoleSrc(added, role.attr, src);
    }
    const last = required[required.length - 1];
    if (last && free && !last.multiple) {
      added = withRoleSrc(added, last.attr, free.src);
      added.name = free.name;
    }
    setFigure({ ...figure, data: [...traces, added] });
    setCurrent(traces.length);
  }

  function removeTrace() {
    if (traces.length <= 1) return;
    setFigure({ ...figure, data: traces.filter((_, i) => i !== index) });
    setCurrent(Math.max(0, index - 1));
  }

  async function save() {
    setSaving(true);
    setProblems([]);
    // A writer (no sharing to set) saves the chart alone: where the plot is and who sees it stay its owner's.
    const body = sharing === null ? { figure, title } : { figure, title, world_readable: sharing === 'public', share_key_enabled: sharing === 'secret' };
    try {
      const res = await fetch(data.plot ? apiFilePath('plots', data.plot.owner, data.plot.n) : '/v2/plots', {
        method: data.plot ? 'PATCH' : 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(body),
      });
      const answer = (await res.json().catch(() => ({}))) as { file?: { fid?: string }; fid?: string; errors?: SaveProblem[] };
      if (res.ok) {
        const fid = answer.file?.fid ?? answer.fid ?? '';
        const [owner, n] = fid.split(':');
        let page = data.plot ? filePath(data.plot.owner, data.plot.n) : filePath(owner, Number(n));
        // A new sharing that hides the chart hides its data too, as the plot page's sharing does.
        if (sharing !== null && sharing !== 'public' && (!data.plot || sharing !== data.sharing)) {
          const form = new FormData();
          form.set('fid', data.plot ? `${data.plot.owner}:${data.plot.n}` : fid);
          form.set('csrf', data.csrf);
          const followed = await followSharing(form);
          if (followed.done) page += '?notice=followed';
        }
        window.location.assign(page);
        return;
      }
      const items: SaveProblem[] = answer.errors?.length
        ? answer.errors
        : [
            {
              message: res.status === 401 ? 'Your session has ended; sign in again (in another tab) and save again.' : `Saving failed (HTTP ${res.status}).`,
              field: null,
              path: null,
            },
          ];
      setProblems(items);
      // Show the trace the first problem is in, with its control.
      const first = items.map((p) => (p.path ? /^data\.(\d+)\./.exec(figurePlace(p.path)) : null)).find((m) => m);
      if (first) setCurrent(Number(first[1]));
    } catch {
      setProblems([{ message: 'The server could not be reached; nothing was lost, try saving again.', field: null, path: null }]);
    } finally {
      setSaving(false);
    }
  }

  function onKeyDown(e: React.KeyboardEvent) {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    // The expert view's text area keeps its own text undo.
    if (e.target instanceof HTMLElement && e.target.closest('[data-own-undo]')) return;
    const key = e.key.toLowerCase();
    if (key === 'z' && !e.shiftKey) dispatch({ type: 'undo' });
    else if ((key === 'z' && e.shiftKey) || key === 'y') dispatch({ type: 'redo' });
    else return;
    e.preventDefault();
  }

  const kindValue = chartKind === null ? '' : chartKind === 'mixed' ? 'mixed' : chartKind.id;
  const traceKind = trace ? kindOf(trace, layout) : null;
  const traceType = trace ? String(trace.type ?? 'scatter') : '';

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Z and Ctrl+Y anywhere in the editor; the buttons are the controls
    <div className="chart-editor" onKeyDown={onKeyDown}>
      <div className="editor-bar">
        <div className="button-row">
          <button
            type="button"
            className="secondary"
            onClick={() => dispatch({ type: 'undo' })}
            disabled={!history.past.length}
            aria-keyshortcuts="Control+Z Meta+Z"
          >
            Undo
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => dispatch({ type: 'redo' })}
            disabled={!history.future.length}
            aria-keyshortcuts="Control+Shift+Z Control+Y Meta+Shift+Z"
          >
            Redo
          </button>
          <button type="button" onClick={save} disabled={saving} aria-busy={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      {problems.length > 0 && (
        <div className="editor-problems" role="alert" tabIndex={-1} ref={summary}>
          <p>Not saved: nothing was lost. Fix what is marked and save again.</p>
          <ul>
            {problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the API's list, shown as it came
              <li key={i}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="editor-body">
        <div className="editor-panels">
          <section className="editor-section" aria-labelledby="chart-heading">
            <h2 id="chart-heading">Chart</h2>
            <div className="field">
              <label htmlFor="chart-type">Chart type</label>
              <select
                id="chart-type"
                value={kindValue}
                onChange={(e) => {
                  const kind = kindById(e.target.value);
                  if (kind) applyKind(kind);
                }}
              >
                {chartKind === 'mixed' && <option value="mixed">Mixed (set per trace)</option>}
                {chartKind === null && <option value="">No traces</option>}
                {CHART_KINDS.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.label}
                  </option>
                ))}
              </select>
            </div>
            <ChartTypePicker
              value={chartKind && chartKind !== 'mixed' ? chartKind.id : null}
              onPick={(id) => {
                const kind = kindById(id);
                if (kind) applyKind(kind);
              }}
            />
            <div className={`field${problemAt('title') ? ' has-error' : ''}`}>
              <label htmlFor="chart-title">Chart title</label>
              <input
                id="chart-title"
                type="text"
                value={title}
                maxLength={MAX_PLOT_TITLE_CHARS}
                onChange={(e) => setTitle(e.target.value)}
                aria-invalid={problemAt('title') ? true : undefined}
                aria-describedby={problemAt('title') ? 'chart-title-error' : undefined}
              />
              {problemAt('title') && (
                <p id="chart-title-error" className="field-error">
                  {problemAt('title')}
                </p>
              )}
            </div>
            {sharing !== null && (
              <div className="field">
                <label htmlFor="chart-sharing">Sharing</label>
                <select
                  id="chart-sharing"
                  value={sharing}
                  onChange={(e) => setSharing(e.target.value as Visibility)}
                  aria-describedby="chart-sharing-hint"
                  aria-invalid={problemAt('world_readable') || problemAt('share_key_enabled') ? true : undefined}
                >
                  {SHARING.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </select>
                <p id="chart-sharing-hint" className="field-hint">
                  {sharing === 'public'
                    ? 'Anyone can see the chart and the data it draws (only the columns it uses; the rest of your data stays as it is shared).'
                    : `${visibilityHint(sharing, { noun: 'chart', own: true })} Your public grids it draws from become private too, unless a public chart of yours uses them.`}
                </p>
              </div>
            )}
          </section>

          <section className="editor-section" aria-labelledby="traces-heading">
            <h2 id="traces-heading">Traces</h2>
            <fieldset className="trace-tabs">
              <legend className="visually-hidden">Trace to edit</legend>
              {traces.map((t, i) => (
                <button
                  // biome-ignore lint/suspicious/noArrayIndexKey: a trace is its position in the figure
                  key={i}
                  type="button"
                  className={i === index ? 'trace-tab chosen' : 'trace-tab'}
                  aria-pressed={i === index}
                  onClick={() => setCurrent(i)}
                >
                  {i + 1}. {typeof t.name === 'string' && t.name ? t.name : (kindOf(t, layout)?.label ?? String(t.type ?? 'scatter'))}
                </button>
              ))}
            </fieldset>
            <div className="button-row">
              <button type="button" className="secondary" onClick={addTrace}>
                Add trace
              </button>
              <button type="button" className="secondary" onClick={removeTrace} disabled={traces.length <= 1}>
                Remove trace
              </button>
            </div>
            {trace && (
              <fieldset className="trace-panel">
                <legend>
                  Trace {index + 1} of {traces.length}
                </legend>
                <div className="field">
                  <label htmlFor="trace-type">Trace type</label>
                  <select
                    id="trace-type"
                    value={traceKind?.id ?? 'other'}
                    onChange={(e) => {
                      const kind = kindById(e.target.value);
                      if (kind) applyKind(kind, index);
                    }}
                  >
                    {!traceKind && <option value="other">{traceType} (edited as it is)</option>}
                    {CHART_KINDS.map((k) => (
                      <option key={k.id} value={k.id}>
                        {k.label}
                      </option>
                    ))}
                  </select>
                </div>
                <TraceRoles
                  trace={trace}
                  index={index}
                  kind={traceKind}
                  grids={grids}
                  more={moreRoles}
                  onMore={() => setMoreRoles((m) => !m)}
                  dataAttrs={dataAttrs[traceType] ?? []}
                  problemAt={problemAt}
                  onChange={(attrPath, src) => change(`data.${index}.${attrPath}`, src)}
                />
                <TraceStylePanel figure={figure} index={index} onChange={change} />
              </fieldset>
            )}
          </section>

          <section className="editor-section" aria-labelledby="style-heading">
            <h2 id="style-heading">Style</h2>
            <LayoutStylePanels figure={figure} onChange={change} own={ownThemes} />
          </section>

          <section className="editor-section" aria-labelledby="expert-heading">
            <h2 id="expert-heading">Expert view</h2>
            <button type="button" className="secondary" aria-expanded={expert} aria-controls="expert-view" onClick={() => setExpert((x) => !x)}>
              {expert ? 'Hide figure JSON' : 'Show figure JSON'}
            </button>
            <div id="expert-view" hidden={!expert}>
              {expert && (
                <ExpertView
                  figure={figure}
                  csrf={data.csrf}
                  fid={data.plot ? `${data.plot.owner}:${data.plot.n}` : null}
                  check={check}
                  onApply={(next, attrs) => {
                    setDataAttrs((a) => ({ ...a, ...attrs }));
                    setFigure(next);
                  }}
                />
              )}
            </div>
          </section>
        </div>
        <div className="editor-preview-pane">
          <ChartPreview figure={figure} sizes={sizes} />
        </div>
      </div>
    </div>
  );
}

interface TraceRolesProps {
  trace: Record<string, unknown>;
  index: number;
  kind: ChartKind | null;
  grids: EditorData['grids'];
  more: boolean;
  onMore: () => void;
  /** The schema's data attributes of the trace's type (for types outside the picker). */
  dataAttrs: string[];
  problemAt: (place: string) => string | undefined;
  /** A src path inside the trace (`marker.colorsrc`) and its new src. */
  onChange: (srcPathText: string, src: string | undefined) => void;
}

/**
 * A trace's columns: its kind's roles (optional ones on request, or when mapped), then every other
 * src it has (nested, in transforms...), and for types outside the picker the data attributes
 * plotly's schema gives the type.
 */
function TraceRoles({ trace, index, kind, grids, more, onMore, dataAttrs, problemAt, onChange }: TraceRolesProps) {
  const roles: Role[] = kind?.roles ?? [];
  const optional = roles.filter((r) => !r.required);
  const shown = roles.filter((r) => r.required || more || roleSrc(trace, r.attr) !== undefined);
  const covered = new Set(roles.map((r) => srcPath(r.attr).join('.')));
  const extra = tracesSrcs(trace)
    .map((s) => s.path)
    .filter((p) => !covered.has(p));
  if (!kind) for (const attr of dataAttrs) if (more && !extra.includes(srcPath(attr).join('.'))) extra.push(srcPath(attr).join('.'));
  const place = (p: string) => `data.${index}.${p}`;
  const idOf = (p: string) => `role-${p.replace(/[^A-Za-z0-9]/g, '-')}`;
  return (
    <div className="trace-roles">
      {shown.map((role) => {
        const p = srcPath(role.attr).join('.');
        return (
          <ColumnSelect
            key={role.attr}
            id={idOf(p)}
            label={role.label}
            src={roleSrc(trace, role.attr)}
            grids={grids}
            multiple={role.multiple}
            required={role.required}
            error={problemAt(place(p))}
            onChange={(src) => onChange(p, src)}
          />
        );
      })}
      {extra.map((p) => {
        const src = p
          .split('.')
          .reduce<unknown>((node, key) => (isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined), trace);
        return (
          <ColumnSelect
            key={p}
            id={idOf(p)}
            label={p.slice(0, -3)}
            src={typeof src === 'string' ? src : undefined}
            grids={grids}
            error={problemAt(place(p))}
            onChange={(next) => onChange(p, next)}
          />
        );
      })}
      {(optional.some((r) => roleSrc(trace, r.attr) === undefined) || (!kind && dataAttrs.length > 0)) && (
        <button type="button" className="link-button" aria-expanded={more} onClick={onMore}>
          {more ? 'Fewer columns' : 'More columns'}
        </button>
      )}
    </div>
  );
}
