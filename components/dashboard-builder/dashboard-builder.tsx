'use client';
// The dashboard builder: plots (of those the viewer may read) and text boxes laid out in rows and
// columns on the client's own layout tree, arranged by drag and drop or by each box's move buttons,
// panes resized, titles edited; saved through a server action as the content Python's dashboard_ops
// reads back. What a dashboard made elsewhere holds and the builder does not edit is saved as it came.
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Visibility, VISIBILITIES, VISIBILITY_LABEL, visibilityHint } from '@/lib/shared/sharing';
import { CONTENT_LIMITS, MAX_FILENAME_CHARS, MAX_QUERY_CHARS } from '@/lib/shared/limits';
import {
  boxPaths,
  boxRects,
  type Direction,
  insertBox,
  isClientTop,
  moveBox,
  moveInDirection,
  nodeAt,
  type Path,
  parsePathKey,
  pathKey,
  removeBox,
  type Side,
  setSplitSize,
  splitPaths,
  swapBoxes,
  type TreeBox,
  type TreeNode,
  type TreeSplit,
  updateBox,
} from './tree';
import type { BuilderData, BuilderPlot, PlotChoices, SaveProblem, SaveState } from '@/lib/web/dashboard-builder';
import './dashboard-builder.css';

export interface DashboardBuilderProps {
  data: BuilderData;
  /** Saves (a server action): on success it goes on to the dashboard's page. */
  save: (form: FormData) => Promise<SaveState>;
  /** A page of plots to add (a server action): form fields `q`, `cursor`, `csrf`. */
  choosePlots: (form: FormData) => Promise<PlotChoices>;
}

/** What a sharing means for the dashboard; its plots keep their own. */
const sharingHint = (v: Visibility) => `${visibilityHint(v, { noun: 'dashboard', own: true })} Each plot in it shows only to people who may see that plot.`;

const SIDES: { value: Side; label: string }[] = [
  { value: 'right', label: 'Right of' },
  { value: 'below', label: 'Below' },
  { value: 'left', label: 'Left of' },
  { value: 'above', label: 'Above' },
];

const MOVES: { dir: Direction; arrow: string; word: string }[] = [
  { dir: 'left', arrow: '←', word: 'left' },
  { dir: 'up', arrow: '↑', word: 'up' },
  { dir: 'down', arrow: '↓', word: 'down' },
  { dir: 'right', arrow: '→', word: 'right' },
];

/** A box as a person names it: its number in reading order, and its title or what it shows. */
function boxLabel(box: TreeBox, index: number, plots: Record<string, BuilderPlot>): string {
  const plot = box.boxType === 'plot' && box.fileId ? plots[box.fileId] : undefined;
  const name = box.title || (plot?.readable && plot.title) || box.boxType;
  return `Box ${index + 1} (${name})`;
}

export function DashboardBuilder({ data, save, choosePlots }: DashboardBuilderProps) {
  const [layout, setLayout] = useState<TreeNode | null>(data.content.layout);
  const [title, setTitle] = useState(typeof data.content.settings.title === 'string' ? data.content.settings.title : '');
  const [filename, setFilename] = useState(data.filename);
  const [sharing, setSharing] = useState<Visibility | null>(data.sharing);
  const [plots, setPlots] = useState<Record<string, BuilderPlot>>(data.plots);
  const [target, setTarget] = useState<string>('');
  const [side, setSide] = useState<Side>('right');
  const [announce, setAnnounce] = useState('');
  const [problems, setProblems] = useState<SaveProblem[]>([]);
  const [saving, setSaving] = useState(false);
  const [picker, setPicker] = useState(false);
  const [dragging, setDragging] = useState<string | null>(null);
  const focusNext = useRef<string | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  const paths = useMemo(() => boxPaths(layout), [layout]);
  const labels = useMemo(() => {
    const m = new Map<string, string>();
    paths.forEach((p, i) => {
      m.set(pathKey(p), boxLabel(nodeAt(layout!, p) as TreeBox, i, plots));
    });
    return m;
  }, [paths, layout, plots]);
  // New boxes go beside the box last worked on (the last box when none was).
  const targetKey = labels.has(target) ? target : (pathKey(paths.at(-1) ?? []) ?? '');

  useEffect(() => {
    if (!focusNext.current) return;
    root.current?.querySelector<HTMLElement>(focusNext.current)?.focus();
    focusNext.current = null;
  });

  useEffect(() => {
    if (problems.length) summary.current?.focus();
  }, [problems]);

  const problemAt = (field: string) => problems.find((p) => p.field === field)?.message;

  function add(box: TreeBox, what: string) {
    const next = insertBox(layout, box, layout && labels.has(targetKey) ? parsePathKey(targetKey) : null, side);
    setLayout(next);
    // The new box: the one not among the old boxes' places, found by identity.
    const at = boxPaths(next).find((p) => nodeAt(next, p) === box);
    if (at) {
      setTarget(pathKey(at));
      focusNext.current = `[data-path="${pathKey(at)}"] .dashboard-box-title input, [data-path="${pathKey(at)}"] textarea`;
    }
    setAnnounce(`${what} added.`);
  }

  function move(path: Path, dir: Direction) {
    if (!layout) return;
    const label = labels.get(pathKey(path));
    const step = moveInDirection(layout, path, dir);
    if (!step) return;
    setLayout(step.root);
    setTarget(pathKey(step.path));
    focusNext.current = `[data-path="${pathKey(step.path)}"] [data-move="${dir}"]`;
    setAnnounce(`${label} moved ${dir}.`);
  }

  function remove(path: Path) {
    if (!layout) return;
    const label = labels.get(pathKey(path));
    const next = removeBox(layout, path);
    setLayout(next);
    setTarget('');
    focusNext.current = '.dashboard-add button';
    setAnnounce(`${label} removed.`);
  }

  function drop(from: string, to: string, e: React.DragEvent<HTMLElement>) {
    if (!layout || from === to) return;
    // The middle of a box swaps the two; its edges put the dragged box on that side.
    const r = e.currentTarget.getBoundingClientRect();
    const fx = (e.clientX - r.left) / r.width;
    const fy = (e.clientY - r.top) / r.height;
    const edge: Side | null = fx < 0.2 ? 'left' : fx > 0.8 ? 'right' : fy < 0.2 ? 'above' : fy > 0.8 ? 'below' : null;
    const a = labels.get(from);
    const b = labels.get(to);
    if (edge) {
      const box = nodeAt(layout, parsePathKey(from)) as TreeBox;
      const next = moveBox(layout, parsePathKey(from), parsePathKey(to), edge);
      setLayout(next);
      const at = boxPaths(next).find((p) => nodeAt(next, p) === box);
      if (at) setTarget(pathKey(at));
      setAnnounce(`${a} placed ${edge === 'left' ? 'left of' : edge === 'right' ? 'right of' : edge} ${b}.`);
    } else {
      setLayout(swapBoxes(layout, parsePathKey(from), parsePathKey(to)));
      setTarget(to);
      setAnnounce(`${a} and ${b} swapped.`);
    }
  }

  async function submit() {
    setSaving(true);
    setProblems([]);
    const content = { ...data.content, layout, settings: { ...data.content.settings, title } };
    const form = new FormData();
    form.set('csrf', data.csrf);
    if (data.dashboard) form.set('fid', `${data.dashboard.owner}:${data.dashboard.n}`);
    form.set('content', JSON.stringify(content));
    form.set('filename', filename);
    if (sharing) form.set('sharing', sharing);
    try {
      const answer = await save(form);
      // A save that succeeded went on to the dashboard's page; an answer is a refusal.
      setProblems(answer.problems.length ? answer.problems : [{ field: null, message: 'Saving failed; try again.' }]);
    } catch (e) {
      // Next's redirect after a save is not a failure.
      if (e && typeof e === 'object' && 'digest' in e && String((e as { digest: unknown }).digest).startsWith('NEXT_REDIRECT')) throw e;
      setProblems([{ field: null, message: 'The server could not be reached; nothing was lost, try saving again.' }]);
    } finally {
      setSaving(false);
    }
  }

  const fieldError = (id: string, field: string) =>
    problemAt(field) && (
      <p id={`${id}-error`} className="field-error">
        {problemAt(field)}
      </p>
    );

  return (
    <div className="dashboard-builder" ref={root}>
      <div className="dashboard-builder-bar">
        <div className="dashboard-add">
          <button type="button" onClick={() => setPicker((v) => !v)} aria-expanded={picker} aria-controls="dashboard-plot-picker">
            Add plot
          </button>
          <button type="button" className="secondary" onClick={() => add({ type: 'box', boxType: 'text', title: '', text: '' }, 'Text box')}>
            Add text
          </button>
          {paths.length > 0 && (
            <span className="dashboard-place">
              <label htmlFor="dashboard-side">Place new boxes</label>
              <select id="dashboard-side" value={side} onChange={(e) => setSide(e.target.value as Side)}>
                {SIDES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
              <label htmlFor="dashboard-target" className="visually-hidden">
                Box to place new boxes beside
              </label>
              <select id="dashboard-target" value={targetKey} onChange={(e) => setTarget(e.target.value)}>
                {paths.map((p) => (
                  <option key={pathKey(p)} value={pathKey(p)}>
                    {labels.get(pathKey(p))}
                  </option>
                ))}
              </select>
            </span>
          )}
        </div>
        <button type="button" className="dashboard-save" onClick={submit} disabled={saving} aria-busy={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {problems.length > 0 && (
        <div className="editor-problems" role="alert" tabIndex={-1} ref={summary}>
          <p>Not saved: nothing was lost. Fix what is marked and save again.</p>
          <ul>
            {problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the save's list, shown as it came
              <li key={i}>{p.field?.startsWith('box:') ? `${labels.get(p.field.slice(4)) ?? 'A box'}: ${p.message}` : p.message}</li>
            ))}
          </ul>
        </div>
      )}
      {picker && (
        <PlotPicker
          csrf={data.csrf}
          choosePlots={choosePlots}
          onPick={(plot) => {
            setPlots((all) => ({ ...all, [plot.fileId]: plot }));
            add({ type: 'box', boxType: 'plot', fileId: plot.fileId, shareKey: null, title: plot.title }, `Plot ${plot.title || plot.fileId}`);
          }}
          onClose={() => {
            setPicker(false);
            focusNext.current = '.dashboard-add button';
          }}
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
              onChange={(e) => setTitle(e.target.value)}
              aria-invalid={problemAt('title') ? true : undefined}
              aria-describedby={problemAt('title') ? 'dashboard-title-error' : undefined}
            />
            {fieldError('dashboard-title', 'title')}
          </div>
          <div className={`field${problemAt('filename') ? ' has-error' : ''}`}>
            <label htmlFor="dashboard-filename">File name</label>
            <input
              id="dashboard-filename"
              type="text"
              value={filename}
              maxLength={MAX_FILENAME_CHARS}
              onChange={(e) => setFilename(e.target.value)}
              aria-invalid={problemAt('filename') ? true : undefined}
              aria-describedby={problemAt('filename') ? 'dashboard-filename-error' : 'dashboard-filename-hint'}
            />
            {fieldError('dashboard-filename', 'filename') || (
              <p id="dashboard-filename-hint" className="field-hint muted">
                Its name among your files (the title when left empty).
              </p>
            )}
          </div>
          {sharing !== null && (
            <div className={`field${problemAt('sharing') ? ' has-error' : ''}`}>
              <label htmlFor="dashboard-sharing">Sharing</label>
              <select
                id="dashboard-sharing"
                value={sharing}
                onChange={(e) => setSharing(e.target.value as Visibility)}
                aria-describedby="dashboard-sharing-hint"
                aria-invalid={problemAt('sharing') ? true : undefined}
              >
                {VISIBILITIES.map((v) => (
                  <option key={v} value={v}>
                    {VISIBILITY_LABEL[v]}
                  </option>
                ))}
              </select>
              <p id="dashboard-sharing-hint" className="field-hint muted">
                {problemAt('sharing') ?? sharingHint(sharing)}
              </p>
            </div>
          )}
          {layout && <SplitSizes layout={layout} labels={labels} onSize={(p, size) => setLayout(setSplitSize(layout, p, size))} />}
          {problemAt('content') && <p className="field-error">{problemAt('content')}</p>}
        </section>
        <section className="dashboard-canvas-section" aria-labelledby="dashboard-boxes-heading">
          <h2 id="dashboard-boxes-heading">Boxes</h2>
          <p className="muted dashboard-help" id="dashboard-help">
            Drag a box onto another to swap them, or onto another box’s edge to place it there; or use its arrow buttons.
          </p>
          {layout && paths.length ? (
            <div className="dashboard-canvas" style={{ '--canvas-height': `${canvasHeight(layout)}px` } as React.CSSProperties}>
              <NodeView
                root={layout}
                node={isClientTop(layout) ? layout.first : layout}
                path={isClientTop(layout) ? ['first'] : []}
                labels={labels}
                plots={plots}
                problems={problems}
                canMove={(p, dir) => !!moveInDirection(layout, p, dir)}
                onMove={move}
                onRemove={remove}
                onEdit={(p, patch) => setLayout(updateBox(layout, p, patch))}
                onFocusBox={setTarget}
                dragging={dragging}
                onDrag={setDragging}
                onDrop={drop}
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

/** Tall enough that the smallest pane keeps room for its controls. */
function canvasHeight(layout: TreeNode): number {
  const smallest = Math.min(...boxRects(layout).map((r) => r.rect.h / 1000), 1);
  return Math.round(Math.min(1600, Math.max(480, 240 / smallest)));
}

interface NodeProps {
  root: TreeNode;
  node: TreeNode;
  path: Path;
  labels: Map<string, string>;
  plots: Record<string, BuilderPlot>;
  problems: SaveProblem[];
  canMove: (path: Path, dir: Direction) => boolean;
  onMove: (path: Path, dir: Direction) => void;
  onRemove: (path: Path) => void;
  onEdit: (path: Path, patch: Partial<TreeBox>) => void;
  onFocusBox: (key: string) => void;
  dragging: string | null;
  onDrag: (key: string | null) => void;
  onDrop: (from: string, to: string, e: React.DragEvent<HTMLElement>) => void;
}

/** A split as two panes (side by side, or one above the other) sized as it says, or a box. */
function NodeView(props: NodeProps) {
  const { node, path } = props;
  if (node.type === 'box') return <BoxView {...props} box={node} />;
  const basis = node.sizeUnit === 'px' ? `${Math.min(95, Math.max(5, node.size / 10))}%` : `${node.size}%`;
  return (
    <div className={`dashboard-split dashboard-split-${node.direction === 'horizontal' ? 'row' : 'column'}`}>
      <div className="dashboard-pane" style={{ '--pane-basis': basis } as React.CSSProperties}>
        <NodeView {...props} node={node.first} path={[...path, 'first']} />
      </div>
      <div className="dashboard-pane dashboard-pane-rest">
        <NodeView {...props} node={node.second} path={[...path, 'second']} />
      </div>
    </div>
  );
}

function BoxView({
  box,
  path,
  labels,
  plots,
  problems,
  canMove,
  onMove,
  onRemove,
  onEdit,
  onFocusBox,
  dragging,
  onDrag,
  onDrop,
}: NodeProps & { box: TreeBox }) {
  const key = pathKey(path);
  const label = labels.get(key) ?? 'Box';
  const id = `box-${key.replace(/\./g, '-')}`;
  const problem = problems.find((p) => p.field === `box:${key}`)?.message;
  const plot = box.boxType === 'plot' && box.fileId ? plots[box.fileId] : undefined;
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dragging is the pointer's way; each box's move buttons are the keyboard's
    <div
      className={`dashboard-box${problem ? ' has-error' : ''}${over ? ' drop-over' : ''}${dragging === key ? ' is-dragging' : ''}`}
      data-path={key}
      data-box-type={box.boxType}
      data-title={box.title ?? ''}
      onFocus={() => onFocusBox(key)}
      onDragOver={(e) => {
        if (!dragging || dragging === key) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const from = dragging ?? e.dataTransfer.getData('text/plain');
        onDrag(null);
        if (from) onDrop(from, key, e);
      }}
    >
      <div className="dashboard-box-head">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the pointer's handle; the move buttons beside it are the keyboard's way */}
        <span
          className="dashboard-drag"
          draggable
          title="Drag to move"
          onDragStart={(e) => {
            e.dataTransfer.setData('text/plain', key);
            e.dataTransfer.effectAllowed = 'move';
            onDrag(key);
          }}
          onDragEnd={() => onDrag(null)}
        >
          <span aria-hidden="true">⠿</span>
          <span className="dashboard-box-label">{label}</span>
        </span>
        <div className="dashboard-box-tools">
          {MOVES.map((m) => (
            <button
              key={m.dir}
              type="button"
              className="secondary icon-button"
              data-move={m.dir}
              disabled={!canMove(path, m.dir)}
              onClick={() => onMove(path, m.dir)}
              aria-label={`Move ${label} ${m.word}`}
              title={`Move ${m.word}`}
            >
              <span aria-hidden="true">{m.arrow}</span>
            </button>
          ))}
          <button type="button" className="secondary icon-button danger-text" onClick={() => onRemove(path)} aria-label={`Remove ${label}`} title="Remove">
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      </div>
      {box.boxType !== 'empty' && (
        <div className="dashboard-box-title">
          <label htmlFor={`${id}-title`}>Title of {label}</label>
          <input
            id={`${id}-title`}
            type="text"
            value={box.title ?? ''}
            maxLength={CONTENT_LIMITS.title}
            onChange={(e) => onEdit(path, { title: e.target.value })}
          />
        </div>
      )}
      {box.boxType === 'text' && (
        <div className="dashboard-box-text">
          <label htmlFor={`${id}-text`}>Text of {label}</label>
          <textarea id={`${id}-text`} value={box.text ?? ''} maxLength={CONTENT_LIMITS.text} onChange={(e) => onEdit(path, { text: e.target.value })} />
        </div>
      )}
      {box.boxType === 'plot' &&
        (plot?.readable ? (
          <div className="dashboard-box-plot">
            {plot.thumbnail && <img src={plot.thumbnail} alt="" loading="lazy" />}
            <span className="muted">{plot.href ? <a href={plot.href}>{plot.title || box.fileId}</a> : plot.title || box.fileId}</span>
          </div>
        ) : (
          <p className="dashboard-box-unreadable">{box.fileId ? `This plot (${box.fileId}) is not shared with you.` : 'This box names no plot.'}</p>
        ))}
      {box.boxType === 'empty' && <p className="muted">Empty box</p>}
      {problem && <p className="field-error">{problem}</p>}
    </div>
  );
}

/** Each split's size: the width (side by side) or height (one above the other) of its first pane. */
function SplitSizes({ layout, labels, onSize }: { layout: TreeNode; labels: Map<string, string>; onSize: (path: Path, size: number) => void }) {
  const splits = splitPaths(layout);
  if (!splits.length) return null;
  const names = (path: Path) =>
    boxPaths(layout)
      .filter((p) => path.every((b, i) => p[i] === b))
      .map((p) => labels.get(pathKey(p)))
      .join(', ');
  return (
    <fieldset className="dashboard-sizes">
      <legend>Sizes</legend>
      {splits.map((p) => {
        const split = nodeAt(layout, p) as TreeSplit;
        const top = !p.length && isClientTop(layout);
        const px = split.sizeUnit === 'px';
        const what = top ? 'Height of the dashboard' : `${split.direction === 'horizontal' ? 'Width' : 'Height'} of ${names([...p, 'first'])}`;
        const id = `size-${pathKey(p).replace(/\./g, '-')}`;
        return (
          <div key={pathKey(p)} className="field dashboard-size">
            <label htmlFor={id}>{what}</label>
            <div className="dashboard-size-input">
              <input
                id={id}
                type="range"
                min={px ? 200 : 10}
                max={px ? 6000 : 90}
                step={px ? 50 : 5}
                value={split.size}
                onChange={(e) => onSize(p, Number(e.target.value))}
              />
              <output htmlFor={id}>{px ? `${split.size} px` : `${split.size}%`}</output>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}

/** "Add plot": the viewer's plots, newest first or matching a search, a page at a time. */
function PlotPicker({
  csrf,
  choosePlots,
  onPick,
  onClose,
}: {
  csrf: string;
  choosePlots: DashboardBuilderProps['choosePlots'];
  onPick: (plot: BuilderPlot) => void;
  onClose: () => void;
}) {
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
        <input id="dashboard-picker-q" ref={search} type="search" value={q} maxLength={MAX_QUERY_CHARS} onChange={(e) => setQ(e.target.value)} />
        <button type="submit" className="secondary">
          Search
        </button>
      </form>
      {page?.error && <p className="field-error">{page.error}</p>}
      {page && !page.error && !page.plots.length && <p className="muted">{q ? 'No plot of yours matches.' : 'You have no plots yet.'}</p>}
      <ul className="dashboard-picker-list" aria-busy={loading}>
        {page?.plots.map((p) => (
          <li key={p.fileId}>
            {p.thumbnail && <img src={p.thumbnail} alt="" width={100} height={75} loading="lazy" />}
            <span className="dashboard-picker-name">{p.title || p.fileId}</span>
            <button type="button" className="secondary" onClick={() => onPick(p)}>
              Add <span className="visually-hidden">{p.title || p.fileId}</span>
            </button>
          </li>
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
