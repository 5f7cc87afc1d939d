'use client';
// The dashboard builder: plots (of those the viewer may read) and text boxes laid out in rows and
// columns on the client's own layout tree, arranged by drag and drop or by each box's move buttons,
// panes resized, titles edited, every change undoable; saved through a server action as the content
// Python's dashboard_ops reads back. What a dashboard made elsewhere holds and the builder does not
// edit is saved as it came. Its state is one reducer (builder-state.ts).
import { type CSSProperties, useEffect, useMemo, useReducer, useRef } from 'react';
import { CONTENT_LIMITS } from '@/lib/shared/limits';
import { DocumentFileFields, SaveControls, sendSave } from '../document-file-fields';
import { NOT_SAVED, ProblemsSummary } from '../problems-summary';
import { useSaveShortcut, useUnsavedChanges } from '../unsaved-changes';
import { undoKeys } from '../undo-redo';
import { boxLabels, builderReducer, type Placement, startBuilder, targetOf } from './builder-state';
import { NodeView } from './box-view';
import { PlotPicker } from './plot-picker';
import { SplitSizes } from './split-sizes';
import { boxPaths, boxRects, isClientTop, moveInDirection, pathKey, type TreeNode } from './tree';
import type { BuilderData, PlotChoices, SaveState } from '@/lib/web/dashboard-builder';
import './dashboard-builder.css';

export interface DashboardBuilderProps {
  data: BuilderData;
  /** Saves (a server action): on success it goes on to the dashboard's page. */
  save: (form: FormData) => Promise<SaveState>;
  /** A page of plots to add (a server action): form fields `q`, `cursor`, `csrf`. */
  choosePlots: (form: FormData) => Promise<PlotChoices>;
}

const SIDES: { value: Placement; label: string }[] = [
  { value: 'grid', label: 'Next in the grid' },
  { value: 'right', label: 'Right of' },
  { value: 'below', label: 'Below' },
  { value: 'left', label: 'Left of' },
  { value: 'above', label: 'Above' },
];

/** Tall enough that the smallest pane keeps room for its controls. */
function canvasHeight(layout: TreeNode): number {
  const smallest = Math.min(...boxRects(layout).map((r) => r.rect.h / 1000), 1);
  return Math.round(Math.min(1600, Math.max(480, 240 / smallest)));
}

export function DashboardBuilder({ data, save, choosePlots }: DashboardBuilderProps) {
  const [state, dispatch] = useReducer(builderReducer, data, startBuilder);
  const { board, filename, sharing, plots, side, problems, saving, picker, dragging } = state;
  const { layout, title } = board.present;
  const root = useRef<HTMLDivElement>(null);
  // Unsaved: the boards or the file's name or sharing differ from what the page opened with.
  const opened = useRef(board.present);
  useUnsavedChanges(board.present !== opened.current || filename !== data.filename || sharing !== data.sharing, root);
  useSaveShortcut(() => {
    if (!saving) submit();
  });

  const paths = useMemo(() => boxPaths(layout), [layout]);
  const labels = useMemo(() => boxLabels(layout, plots), [layout, plots]);
  const targetKey = targetOf(state);

  useEffect(() => {
    if (state.focus) root.current?.querySelector<HTMLElement>(state.focus.selector)?.focus();
  }, [state.focus]);

  const problemAt = (field: string) => problems.find((p) => p.field === field)?.message;

  async function submit() {
    dispatch({ type: 'saving' });
    const content = { ...data.content, layout, settings: { ...data.content.settings, title } };
    const form = new FormData();
    form.set('csrf', data.csrf);
    if (data.dashboard) form.set('fid', `${data.dashboard.owner}:${data.dashboard.n}`);
    form.set('content', JSON.stringify(content));
    form.set('filename', filename);
    if (sharing) form.set('sharing', sharing);
    await sendSave(save, form, (found) => dispatch({ type: 'saved', problems: found }));
  }

  const fieldError = (id: string, field: string) =>
    problemAt(field) && (
      <p id={`${id}-error`} className="field-error">
        {problemAt(field)}
      </p>
    );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Z and Ctrl+Y anywhere in the builder; the buttons are the controls
    <div
      className="dashboard-builder"
      ref={root}
      onKeyDown={undoKeys(
        () => dispatch({ type: 'undo' }),
        () => dispatch({ type: 'redo' }),
      )}
    >
      <div className="dashboard-builder-bar">
        <div className="dashboard-add">
          <button type="button" onClick={() => dispatch({ type: 'picker', open: !picker })} aria-expanded={picker} aria-controls="dashboard-plot-picker">
            Add plot
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => dispatch({ type: 'add', box: { type: 'box', boxType: 'text', title: '', text: '' }, what: 'Text box' })}
          >
            Add text
          </button>
          {paths.length > 0 && (
            <span className="dashboard-place">
              <label htmlFor="dashboard-side">Place new boxes</label>
              <select id="dashboard-side" value={side} onChange={(e) => dispatch({ type: 'side', side: e.target.value as Placement })}>
                {SIDES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              {side !== 'grid' && (
                <>
                  <label htmlFor="dashboard-target" className="visually-hidden">
                    Box to place new boxes beside
                  </label>
                  <select id="dashboard-target" value={targetKey} onChange={(e) => dispatch({ type: 'target', key: e.target.value })}>
                    {paths.map((p) => (
                      <option key={pathKey(p)} value={pathKey(p)}>
                        {labels.get(pathKey(p))}
                      </option>
                    ))}
                  </select>
                </>
              )}
            </span>
          )}
        </div>
        <SaveControls history={board} saving={saving} dispatch={dispatch} onSave={submit} />
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {state.announce}
      </p>
      <ProblemsSummary
        lead={NOT_SAVED}
        problems={problems.map((p) => (p.field?.startsWith('box:') ? `${labels.get(p.field.slice(4)) ?? 'A box'}: ${p.message}` : p.message))}
      />
      {picker && (
        <PlotPicker
          csrf={data.csrf}
          choosePlots={choosePlots}
          onPick={(plot) =>
            dispatch({
              type: 'add',
              box: { type: 'box', boxType: 'plot', fileId: plot.fileId, shareKey: null, title: plot.title },
              what: `Plot ${plot.title || plot.fileId}`,
              plot,
            })
          }
          onClose={() => dispatch({ type: 'picker', open: false })}
        />
      )}
      <div className="dashboard-builder-body">
        <section className="dashboard-settings" aria-labelledby="dashboard-settings-heading">
          <h2 id="dashboard-settings-heading">Dashboard</h2>
          <div className={`field${problemAt('title') ? ' has-error' : ''}`}>
            <label htmlFor="dashboard-title">Title</label>
            <input
              id="dashboard-title"
              type="text"
              value={title}
              maxLength={CONTENT_LIMITS.title}
              onChange={(e) => dispatch({ type: 'title', title: e.target.value })}
              aria-invalid={problemAt('title') ? true : undefined}
              aria-describedby={problemAt('title') ? 'dashboard-title-error' : undefined}
            />
            {fieldError('dashboard-title', 'title')}
          </div>
          <DocumentFileFields
            prefix="dashboard"
            noun="dashboard"
            filename={filename}
            filenameHint="Its name among your files (the title when left empty)."
            sharing={sharing}
            problemAt={problemAt}
            onFilename={(name) => dispatch({ type: 'filename', filename: name })}
            onSharing={(v) => dispatch({ type: 'sharing', sharing: v })}
          />
          {layout && <SplitSizes layout={layout} labels={labels} onSize={(path, size) => dispatch({ type: 'size', path, size })} />}
          {problemAt('content') && <p className="field-error">{problemAt('content')}</p>}
        </section>
        <section className="dashboard-canvas-section" aria-labelledby="dashboard-boxes-heading">
          <h2 id="dashboard-boxes-heading">Boxes</h2>
          <p className="muted dashboard-help" id="dashboard-help">
            Drag a box onto another to swap them, or onto another box’s edge to place it there; or use its arrow buttons.
          </p>
          {layout && paths.length ? (
            <div className="dashboard-canvas" style={{ '--canvas-height': `${canvasHeight(layout)}px` } as CSSProperties}>
              <NodeView
                node={isClientTop(layout) ? layout.first : layout}
                path={isClientTop(layout) ? ['first'] : []}
                labels={labels}
                plots={plots}
                problems={problems}
                canMove={(p, dir) => !!moveInDirection(layout, p, dir)}
                onMove={(path, dir) => dispatch({ type: 'move', path, dir })}
                onRemove={(path) => dispatch({ type: 'remove', path })}
                onEdit={(path, patch) => dispatch({ type: 'edit', path, patch })}
                onFocusBox={(key) => dispatch({ type: 'target', key })}
                dragging={dragging}
                onDrag={(key) => dispatch({ type: 'drag', key })}
                onDrop={(from, to, side) => dispatch({ type: 'drop', from, to, side })}
              />
            </div>
          ) : (
            <div className="empty-state dashboard-empty">
              <p>No boxes yet: add a plot or a text box.</p>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
