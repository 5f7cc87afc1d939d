'use client';
// The chart editor: a chart type (picker and select), each trace's columns by role, title, sharing,
// the style panels, the expert view, undo and redo, and a live preview. The figure it keeps and saves
// holds src references only, and it saves through the API itself (chart-save.ts).
import { useCallback, useMemo, useReducer, useRef, useState } from 'react';
import type { Visibility } from '@/lib/shared/sharing';
import { MAX_PLOT_TITLE_CHARS } from '@/lib/shared/limits';
import { nameFromTitle } from '@/lib/shared/names';
import { applyTheme, templateOf } from '@/lib/shared/figures/theme-figures';
import { apiFilePath } from '@/lib/shared/urls';
import type { EditorData, FigureCheck } from '@/lib/web/chart-editor';
import type { FormState } from '@/lib/web/forms';
import { callApi } from '../api-client';
import { NOT_SAVED, ProblemsSummary } from '../problems-summary';
import { UndoRedo, undoKeys } from '../undo-redo';
import { useSaveShortcut, useUnsavedChanges } from '../unsaved-changes';
import { ChartPreview } from './chart-preview';
import { figurePlace, type SaveProblem, savePlot } from './chart-save';
import { ChartFileFields } from './chart-file-fields';
import { ChartTypePicker } from './chart-type-picker';
import { DataSteps } from './data-steps';
import { CHART_KINDS, convertTrace, figureKind, kindById, kindOf, roleSrc, tracesSrcs, withRoleSrc, type ChartKind } from '@/lib/shared/figures/chart-kinds';
import { ExpertView } from './expert-view';
import { historyReducer, startHistory, type EditorFigure } from './figure-history';
import { getIn, setIn } from './figure-path';
import { columnKey, type ColumnSize } from './preview-data';
import { LayoutStylePanels, type OwnThemes } from './style/style-panels';
import { TraceStylePanel } from './style/trace-style-panel';
import { knownColumns } from './known-columns';
import { TraceRoles } from './trace-roles';
import './chart-editor.css';

export interface ChartEditorProps {
  data: EditorData;
  /** The expert view's server-side check (a server action: components never import app/). */
  check: (form: FormData) => Promise<FigureCheck>;
  /** After a save that made the plot private or secret: its grids follow it, as on the plot page (a server action). */
  followSharing: (form: FormData) => Promise<FormState>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The chart's title as the figure has it (`layout.title` as text, or its `text`), if it has one. */
function layoutTitle(layout: Record<string, unknown>): string | undefined {
  const t = layout.title;
  if (typeof t === 'string') return t;
  return isRecord(t) && typeof t.text === 'string' ? t.text : undefined;
}

export function ChartEditor({ data, check, followSharing }: ChartEditorProps) {
  const [history, dispatch] = useReducer(historyReducer, data.figure, startHistory);
  const figure = history.present;
  const [sharing, setSharing] = useState<Visibility | null>(data.sharing);
  const [filename, setFilename] = useState(data.filename);
  const [current, setCurrent] = useState(0);
  const [moreRoles, setMoreRoles] = useState(false);
  const [expert, setExpert] = useState(false);
  const [dataAttrs, setDataAttrs] = useState(data.dataAttrs);
  const [problems, setProblems] = useState<SaveProblem[]>([]);
  const [saving, setSaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  // Unsaved: the figure or its sharing differs from what the page opened with (undo back is saved again).
  const leave = useUnsavedChanges(figure !== data.figure || sharing !== data.sharing || filename !== data.filename, root);

  const grids = data.grids;
  const columns = useMemo(() => knownColumns(data.grids), [data.grids]);
  const seen = useMemo(() => new Map(data.seen.map((c) => [c.src, c.names.join(', ')])), [data.seen]);
  const seenData = useMemo(
    () =>
      data.plot && data.seen.length
        ? { plot: apiFilePath('plots', data.plot.owner, data.plot.n), sizes: new Map(data.seen.map((c) => [c.src, { length: c.values, bytes: c.bytes }])) }
        : undefined,
    [data.plot, data.seen],
  );
  const columnNames = useMemo(() => new Map<string, string>(grids.flatMap((g) => g.cols.map((c) => [`${g.fid}:${c.uid}`, c.name] as const))), [grids]);
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
  // What the chart draws, never the file's own title (a copy's, or one given by a client): the field
  // shows no title the preview does not draw.
  const drawnTitle = layoutTitle(layout);
  const title = drawnTitle ?? '';

  const change = useCallback((path: string, value: unknown) => dispatch({ type: 'change', path, value }), []);
  const setFigure = (next: EditorFigure) => dispatch({ type: 'set', figure: next });
  const undo = () => dispatch({ type: 'undo' });
  const redo = () => dispatch({ type: 'redo' });

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
      const answer = await callApi<{ figure?: { layout?: unknown } }>(apiFilePath('plots', owner, Number(n)));
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      const theme = templateOf(answer.body?.figure ?? {});
      dispatch({ type: 'apply', apply: (f) => applyTheme(f, theme) });
      return theme;
    },
  };

  function applyKind(kind: ChartKind, only?: number) {
    let next: EditorFigure = {
      ...figure,
      data: figure.data.map((t, i) => (only === undefined || i === only ? convertTrace(t, figure.layout, kind, columns) : t)),
    };
    for (const [path, value] of Object.entries(kind.layout ?? {})) next = setIn(next, path, value);
    setFigure(next);
  }

  /** A role's new column; a trace named after the column it had there is named after the new one (its legend says what it draws). */
  function setRole(attrPath: string, src: string | undefined) {
    const before = trace ? getIn(trace, attrPath) : undefined;
    const renamed = typeof before === 'string' && trace?.name === columnNames.get(before) && src !== undefined && columnNames.get(src);
    if (!renamed) return change(`data.${index}.${attrPath}`, src);
    dispatch({ type: 'apply', apply: (f) => setIn(setIn(f, `data.${index}.${attrPath}`, src), `data.${index}.name`, renamed) });
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
    if (saving) return;
    setSaving(true);
    setProblems([]);
    try {
      const saved = await savePlot({ data, figure, title: drawnTitle, filename: sharing === null ? null : filename, sharing, followSharing });
      if ('page' in saved) {
        leave();
        window.location.assign(saved.page);
        return;
      }
      setProblems(saved.problems);
      // Show the trace the first problem is in, with its control.
      const first = saved.problems.map((p) => (p.path ? /^data\.(\d+)\./.exec(figurePlace(p.path)) : null)).find((m) => m);
      if (first) setCurrent(Number(first[1]));
    } catch {
      setProblems([{ message: 'The server could not be reached; nothing was lost, try saving again.', field: null, path: null }]);
    } finally {
      setSaving(false);
    }
  }

  useSaveShortcut(save);

  const kindValue = chartKind === null ? '' : chartKind === 'mixed' ? 'mixed' : chartKind.id;
  const traceKind = trace ? kindOf(trace, layout) : null;
  const traceType = trace ? String(trace.type ?? 'scatter') : '';

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Z and Ctrl+Y anywhere in the editor; the buttons are the controls
    <div className="chart-editor" ref={root} onKeyDown={undoKeys(undo, redo)}>
      <div className="editor-bar">
        <div className="button-row">
          <UndoRedo canUndo={history.past.length > 0} canRedo={history.future.length > 0} onUndo={undo} onRedo={redo} />
          <button type="button" onClick={save} disabled={saving} aria-busy={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <ProblemsSummary lead={NOT_SAVED} problems={problems.map((p) => p.message)} />
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
            {data.suggestions.length > 0 && (
              <fieldset className="chart-suggestions">
                <legend className="field-label">Other charts of these columns</legend>
                <div className="button-row">
                  {data.suggestions.map((s) => (
                    <button
                      key={s.label}
                      type="button"
                      className="secondary"
                      // The title typed so far stays; the rest starts from the suggestion (one undo step).
                      onClick={() => setFigure({ ...s.figure, layout: { ...s.figure.layout, title: layout.title ?? s.figure.layout.title } })}
                    >
                      {s.label}
                    </button>
                  ))}
                </div>
              </fieldset>
            )}
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
              <ChartFileFields
                isNew={!data.plot}
                filename={filename}
                onFilename={setFilename}
                sharing={sharing}
                onSharing={setSharing}
                placeholder={nameFromTitle(title, 'Untitled chart')}
                problemAt={problemAt}
              />
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
                  seen={seen}
                  more={moreRoles}
                  onMore={() => setMoreRoles((m) => !m)}
                  dataAttrs={dataAttrs[traceType] ?? []}
                  problemAt={problemAt}
                  columns={columns}
                  onChange={setRole}
                />
                {traceKind && (
                  <DataSteps
                    {...{ trace, index, grids, seen, columns, sizes }}
                    kind={traceKind}
                    columnName={(src) => (src === undefined ? undefined : columnNames.get(src))}
                    onChange={(update, key) =>
                      dispatch({ type: 'apply', key, apply: (f) => ({ ...f, data: f.data.map((t, i) => (i === index ? update(t) : t)) }) })
                    }
                  />
                )}
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
          {/* The end of the controls saves too, for whoever worked down to here (Ctrl+S anywhere). */}
          <div className="button-row editor-end">
            <button type="button" onClick={save} disabled={saving} aria-busy={saving}>
              {saving ? 'Saving…' : 'Save chart'}
            </button>
          </div>
        </div>
        <div className="editor-preview-pane">
          <ChartPreview figure={figure} sizes={sizes} seen={seenData} />
        </div>
      </div>
    </div>
  );
}
