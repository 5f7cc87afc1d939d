'use client';
// The grid editor: a spreadsheet over the owner's grid. Only the rows and columns in view are drawn
// (a million rows scroll as ten do); the data is fetched in a Web Worker and held compactly
// (grid-model.ts); every edit can be undone; "Save" sends the columns after the edits in one request
// (POST /v2/grids/{fid}/edits), which the API applies all at once or refuses, e.g. when someone
// changed the grid meanwhile, and then the edits stay here.
import Papa from 'papaparse';
import {
  type ClipboardEvent,
  type CSSProperties,
  type FormEvent,
  type KeyboardEvent,
  type MouseEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { MAX_COLUMN_NAME_CHARS } from '@/lib/shared/limits';
import { apiFilePath } from '@/lib/shared/urls';
import type { GridEditorData } from '@/lib/web/grid-editor';
import { cellText, type Cell, GridModel, type LoadedColumn, parseCell } from './grid-model';
import type { LoadAnswer, LoadAsk } from './load-worker';
import type { SerializeAnswer, SerializeAsk } from './serialize-worker';
import './grid-editor.css';

const ROW_H = 28;
const HEAD_H = 32;
const ROWHEAD_W = 80;
const COL_W = 144;
/** Scroll height at most: browsers cap an element's height (Chromium near 33 million pixels, Firefox near 18), so beyond it scroll positions map onto rows. */
const MAX_SCROLL_H = 8_000_000;
/** Data one load request asks for, about. */
const REQUEST_BYTES = 8 * 1024 * 1024;
/** Cells one copy, paste or clear handles at most. */
const MAX_BLOCK_CELLS = 2_000_000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Selection {
  /** The active cell. */
  r: number;
  c: number;
  /** The other corner of the selected range. */
  r2: number;
  c2: number;
}

/** The columns' uids in requests of about REQUEST_BYTES (at most 100 uids each). */
function loadGroups(cols: GridEditorData['cols']): string[][] {
  const out: string[][] = [];
  let group: string[] = [];
  let size = 0;
  for (const c of cols) {
    if (group.length && (group.length === 100 || size + c.bytes > REQUEST_BYTES)) {
      out.push(group);
      group = [];
      size = 0;
    }
    group.push(c.uid);
    size += c.bytes;
  }
  if (group.length) out.push(group);
  return out;
}

const cellId = (r: number, c: number) => `ge-cell-${r}-${c}`;
const columnLetter = (c: number): string => (c < 26 ? String.fromCharCode(65 + c) : columnLetter(Math.floor(c / 26) - 1) + String.fromCharCode(65 + (c % 26)));

/** Tab-separated text (a spreadsheet's copy) as rows of cells; the trailing line break is not a row. */
function parseBlock(text: string): Cell[][] {
  const rows = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter: '\t', quoteChar: '"' }).data;
  return rows.map((row) => row.map(parseCell));
}

export function GridEditor({ data }: { data: GridEditorData }) {
  const model = useRef<GridModel | null>(null);
  const savedCols = useRef(data.cols.map((c) => ({ uid: c.uid, name: c.name })));
  const base = useRef(data.base);
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  /** Whether the cell input's text is still to be kept (its blur keeps it; Escape and Enter have already decided). */
  const editOpen = useRef(false);
  const [, setRev] = useState(0);
  const bump = useCallback(() => setRev((v) => v + 1), []);
  const [loaded, setLoaded] = useState(0);
  const [ready, setReady] = useState(false);
  const [sel, setSel] = useState<Selection>({ r: 0, c: 0, r2: 0, c2: 0 });
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [nameDraft, setNameDraft] = useState('');
  const [view, setView] = useState({ top: 0, left: 0, width: 800, height: 480 });
  const apiPath = apiFilePath('grids', data.owner, data.n);

  // The data, off the main thread.
  useEffect(() => {
    if (!data.cols.length) {
      model.current = new GridModel([]);
      setReady(true);
      return;
    }
    const worker = new Worker(new URL('./load-worker.ts', import.meta.url));
    const byUid = new Map<string, LoadedColumn>();
    worker.onmessage = (e: MessageEvent<LoadAnswer>) => {
      const answer = e.data;
      if ('error' in answer) {
        setProblem(answer.error);
        worker.terminate();
      } else if ('cols' in answer) {
        for (const c of answer.cols) byUid.set(c.uid, c);
        setLoaded(byUid.size);
      } else {
        model.current = new GridModel(data.cols.map((c) => byUid.get(c.uid) ?? { uid: c.uid, name: c.name, values: [] }));
        setReady(true);
        worker.terminate();
      }
    };
    worker.postMessage({ url: `${apiPath}/col`, groups: loadGroups(data.cols) } satisfies LoadAsk);
    return () => worker.terminate();
  }, [data.cols, apiPath]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView((v) => ({ ...v, width: el.clientWidth, height: el.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const m = model.current;
  const rows = m?.rows ?? 0;
  const ncols = m?.columns.length ?? 0;
  const dirty = m ? m.changed(savedCols.current) : false;

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // The active column's name in the rename field.
  const activeName = m?.columns[sel.c]?.name ?? '';
  useEffect(() => setNameDraft(activeName), [activeName]);

  // Geometry: which rows and columns are in view, and where.
  const total = rows * ROW_H;
  const scrollH = Math.min(total, MAX_SCROLL_H);
  const bodyH = Math.max(ROW_H, view.height - HEAD_H);
  const maxTop = Math.max(0, scrollH - bodyH);
  const maxFirst = Math.max(0, total - bodyH) / ROW_H;
  const first = maxTop > 0 ? (Math.min(view.top, maxTop) / maxTop) * maxFirst : 0;
  const r0 = Math.floor(first);
  const r1 = Math.min(rows - 1, Math.ceil(first + bodyH / ROW_H));
  const c0 = Math.floor(view.left / COL_W);
  const c1 = Math.min(ncols - 1, Math.floor((view.left + Math.max(0, view.width - ROWHEAD_W)) / COL_W));
  const yOf = (r: number) => HEAD_H + Math.min(view.top, maxTop) + (r - first) * ROW_H;
  const width = ROWHEAD_W + ncols * COL_W;

  const rMin = Math.min(sel.r, sel.r2);
  const rMax = Math.max(sel.r, sel.r2);
  const cMin = Math.min(sel.c, sel.c2);
  const cMax = Math.max(sel.c, sel.c2);

  /** Scrolls so the cell (r, c) is in view. */
  const reveal = (r: number, c: number) => {
    const el = scroller.current;
    if (!el) return;
    const topFor = (row: number) => (maxFirst > 0 ? (Math.max(0, Math.min(row, maxFirst)) / maxFirst) * maxTop : 0);
    const visible = Math.floor(bodyH / ROW_H);
    if (r < first) el.scrollTop = topFor(r);
    else if (r > first + visible - 1) el.scrollTop = topFor(r - visible + 1);
    const x = c * COL_W;
    const w = Math.max(COL_W, el.clientWidth - ROWHEAD_W);
    if (x < el.scrollLeft) el.scrollLeft = x;
    else if (x + COL_W > el.scrollLeft + w) el.scrollLeft = x + COL_W - w;
  };

  const select = (r: number, c: number, extend = false) => {
    const rr = Math.max(0, Math.min(r, rows - 1));
    const cc = Math.max(0, Math.min(c, ncols - 1));
    setSel((s) => (extend ? { ...s, r2: rr, c2: cc } : { r: rr, c: cc, r2: rr, c2: cc }));
    reveal(extend ? sel.r : rr, extend ? sel.c : cc);
    if (extend) reveal(rr, cc);
  };

  const focusGrid = () => scroller.current?.focus({ preventScroll: true });

  /** Runs an edit of the model and redraws; `said` goes to the status line. */
  const change = (edit: (model: GridModel) => string | undefined) => {
    if (!m || saving) return;
    setProblem(null);
    const said = edit(m);
    if (said) setStatus(said);
    bump();
  };

  const commit = (text: string, move: [number, number]) => {
    editOpen.current = false;
    change((g) => {
      const r = Math.min(sel.r, Math.max(0, g.rows - 1));
      g.setBlock(r, sel.c, [[parseCell(text)]], 'Edit cell');
      return undefined;
    });
    setEditing(null);
    select(sel.r + move[0], sel.c + move[1]);
    focusGrid();
  };

  const startEdit = (text?: string) => {
    if (!m || !ncols || saving) return;
    if (!rows) m.insertRows(0, 1);
    editOpen.current = true;
    setEditing(text ?? cellText(m.cell(sel.r, sel.c)));
  };

  // At once (before the next key arrives), so typing that starts an edit keeps every character.
  useLayoutEffect(() => {
    if (editing !== null && document.activeElement !== input.current) input.current?.focus();
  }, [editing]);

  const undo = () =>
    change((g) => {
      const label = g.undoLabel;
      return g.undo() ? `Undone: ${label}` : undefined;
    });
  const redo = () =>
    change((g) => {
      const label = g.redoLabel;
      return g.redo() ? `Redone: ${label}` : undefined;
    });

  /** Ctrl/Cmd+Z, Ctrl+Shift+Z, Ctrl+Y anywhere in the editor but in a text field (which undoes its own typing). */
  const onEditorKey = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement).tagName === 'INPUT') return;
    const key = e.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      e.preventDefault();
      if (key === 'y' || e.shiftKey) redo();
      else undo();
    }
  };

  const clearRange = () => {
    if ((rMax - rMin + 1) * (cMax - cMin + 1) > MAX_BLOCK_CELLS) {
      setStatus(`Select at most ${MAX_BLOCK_CELLS.toLocaleString('en')} cells to clear at once.`);
      return;
    }
    change((g) => {
      const last = Math.min(rMax, g.rows - 1);
      if (last < rMin) return undefined;
      g.setBlock(
        rMin,
        cMin,
        Array.from({ length: last - rMin + 1 }, () => Array<Cell>(cMax - cMin + 1).fill('')),
        'Clear cells',
      );
      return 'Cleared.';
    });
  };

  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing !== null || !m) return;
    const page = Math.max(1, Math.floor(bodyH / ROW_H) - 1);
    const ctrl = e.ctrlKey || e.metaKey;
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      PageUp: [-page, 0],
      PageDown: [page, 0],
    };
    if (e.key in moves) {
      e.preventDefault();
      const [dr, dc] = moves[e.key];
      const from = e.shiftKey ? { r: sel.r2, c: sel.c2 } : sel;
      if (ctrl) select(dr ? (dr < 0 ? 0 : rows - 1) : from.r, dc ? (dc < 0 ? 0 : ncols - 1) : from.c, e.shiftKey);
      else select(from.r + dr, from.c + dc, e.shiftKey);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const end = e.key === 'End';
      select(ctrl ? (end ? rows - 1 : 0) : sel.r, ctrl ? sel.c : end ? ncols - 1 : 0);
    } else if (e.key === 'Tab') {
      // Tab moves along the row; from the first or last column it leaves the grid.
      const to = sel.c + (e.shiftKey ? -1 : 1);
      if (to < 0 || to >= ncols) return;
      e.preventDefault();
      select(sel.r, to);
    } else if (e.key === 'Enter' || e.key === 'F2') {
      e.preventDefault();
      startEdit();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      clearRange();
    } else if (e.key.length === 1 && !ctrl && !e.altKey) {
      e.preventDefault();
      startEdit(e.key);
    }
  };

  const onInputKey = (e: KeyboardEvent<HTMLInputElement>) => {
    e.stopPropagation();
    if (e.key === 'Enter') {
      e.preventDefault();
      commit(e.currentTarget.value, [e.shiftKey ? -1 : 1, 0]);
    } else if (e.key === 'Tab') {
      e.preventDefault();
      commit(e.currentTarget.value, [0, e.shiftKey ? -1 : 1]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      editOpen.current = false;
      setEditing(null);
      focusGrid();
    }
  };

  const onCopy = (e: ClipboardEvent) => {
    if (editing !== null || !m || !ncols || !rows) return;
    e.preventDefault();
    if ((rMax - rMin + 1) * (cMax - cMin + 1) > MAX_BLOCK_CELLS) {
      setStatus(`Select at most ${MAX_BLOCK_CELLS.toLocaleString('en')} cells to copy at once; "Download CSV" has everything.`);
      return;
    }
    e.clipboardData.setData('text/plain', m.blockText(rMin, Math.min(rMax, rows - 1), cMin, cMax));
    setStatus('Copied.');
  };

  const onPaste = (e: ClipboardEvent) => {
    if (editing !== null || !m || !ncols) return;
    e.preventDefault();
    const text = e.clipboardData.getData('text/plain');
    if (text.length > 64 * 1024 * 1024) {
      setStatus('That is too much to paste at once; import it as a new grid instead.');
      return;
    }
    const block = parseBlock(text);
    const cells = block.reduce((n, row) => n + row.length, 0);
    if (!cells || cells > MAX_BLOCK_CELLS) {
      setStatus(cells ? `Paste at most ${MAX_BLOCK_CELLS.toLocaleString('en')} cells at once.` : 'Nothing to paste.');
      return;
    }
    const r = Math.min(sel.r, rows);
    let size = { rows: 0, cols: 0 };
    change((g) => {
      size = g.setBlock(r, sel.c, block, 'Paste');
      const wide = Math.max(...block.map((row) => row.length));
      const cut =
        wide > size.cols ? ` (${wide - size.cols} pasted ${wide - size.cols === 1 ? 'column' : 'columns'} beyond the last left out: add columns first)` : '';
      return `Pasted ${size.rows} × ${size.cols} cells${cut}.`;
    });
    setSel({ r, c: sel.c, r2: r + size.rows - 1, c2: sel.c + size.cols - 1 });
  };

  const onCellDown = (e: MouseEvent, r: number, c: number) => {
    if (editing !== null) return;
    e.preventDefault();
    focusGrid();
    select(r, c, e.shiftKey);
  };

  const addColumn = () =>
    change((g) => {
      const at = g.columns.length ? sel.c + 1 : 0;
      g.addColumn(at);
      setSel({ r: sel.r, c: at, r2: sel.r, c2: at });
      return `Added column ${g.columns[at].name}.`;
    });
  const deleteColumn = () =>
    change((g) => {
      const name = g.columns[sel.c]?.name;
      g.deleteColumn(sel.c);
      const c = Math.max(0, Math.min(sel.c, g.columns.length - 1));
      setSel({ r: sel.r, c, r2: sel.r, c2: c });
      return name === undefined ? undefined : `Deleted column ${name}.`;
    });
  const moveColumn = (by: number) =>
    change((g) => {
      const to = sel.c + by;
      if (to < 0 || to >= g.columns.length) return undefined;
      g.moveColumn(sel.c, to);
      setSel({ r: sel.r, c: to, r2: sel.r, c2: to });
      return `Moved column ${g.columns[to].name} ${by < 0 ? 'left' : 'right'}.`;
    });
  const rename = (e: FormEvent) => {
    e.preventDefault();
    change((g) => {
      const error = g.renameColumn(sel.c, nameDraft);
      if (error) {
        setProblem(error);
        return undefined;
      }
      return `Renamed the column to ${nameDraft}.`;
    });
  };
  const addRow = () =>
    change((g) => {
      const at = g.rows ? sel.r + 1 : 0;
      g.insertRows(at, 1);
      setSel({ r: at, c: sel.c, r2: at, c2: sel.c });
      return `Added row ${at + 1}.`;
    });
  const deleteRows = () =>
    change((g) => {
      const count = Math.min(rMax, g.rows - 1) - rMin + 1;
      if (count <= 0) return undefined;
      g.deleteRows(rMin, count);
      const r = Math.max(0, Math.min(rMin, g.rows - 1));
      setSel({ r, c: sel.c, r2: r, c2: sel.c });
      return count === 1 ? `Deleted row ${rMin + 1}.` : `Deleted rows ${rMin + 1} to ${rMin + count}.`;
    });

  // One worker writes saves and CSVs; each ask answered by id.
  const serializer = useRef<{ worker: Worker; next: number; waiting: Map<number, (a: SerializeAnswer) => void> } | null>(null);
  useEffect(() => () => serializer.current?.worker.terminate(), []);
  const serialize = (ask: DistributiveOmit<SerializeAsk, 'id'>): Promise<SerializeAnswer> => {
    if (!serializer.current) {
      const worker = new Worker(new URL('./serialize-worker.ts', import.meta.url));
      const waiting = new Map<number, (a: SerializeAnswer) => void>();
      worker.onmessage = (e: MessageEvent<SerializeAnswer>) => {
        waiting.get(e.data.id)?.(e.data);
        waiting.delete(e.data.id);
      };
      serializer.current = { worker, next: 0, waiting };
    }
    const s = serializer.current;
    const id = s.next++;
    return new Promise((resolve) => {
      s.waiting.set(id, resolve);
      s.worker.postMessage({ ...ask, id });
    });
  };

  const downloadCsv = async () => {
    if (!m) return;
    const answer = await serialize({ kind: 'csv', source: m.csvSource() });
    if (!('csv' in answer)) return;
    const url = URL.createObjectURL(answer.csv);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${data.name} (edited).csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const save = async () => {
    if (!m || saving) return;
    setSaving(true);
    setProblem(null);
    setStatus('Saving…');
    const kept = ' Nothing was saved; your edits are kept here.';
    try {
      const answer = await serialize({ kind: 'save', url: `${apiPath}/edits`, base: base.current, items: m.saveItems() });
      const outcome = 'save' in answer ? answer.save : { unreachable: true as const };
      setStatus('');
      if ('tooLarge' in outcome) {
        setProblem(`These changes are too large to save at once (over 50 MiB of data).${kept} Download them as CSV.`);
      } else if ('unreachable' in outcome) {
        setProblem(`The save could not reach the server.${kept} Try again.`);
      } else {
        const body = outcome.answer as { base?: string; cols?: { name: string; uid: string }[]; errors?: { message: string }[] } | null;
        if (outcome.status === 200 && body?.base && body.cols) {
          m.saved(body.cols);
          base.current = body.base;
          savedCols.current = body.cols;
          setStatus('Saved. Plots drawn from this grid are drawn again with the new data.');
        } else {
          const said = body?.errors?.map((x) => x.message).join(' ') || `The save failed (HTTP ${outcome.status}).`;
          setProblem(outcome.status === 409 ? said : `${said}${kept}`);
        }
      }
    } finally {
      setSaving(false);
    }
  };

  const activeVisible = ready && ncols > 0 && rows > 0 && sel.r >= r0 && sel.r <= r1 && sel.c >= c0 && sel.c <= c1;
  const busy = !ready || saving;
  const hasCol = ncols > 0;

  const visibleRows: number[] = [];
  for (let r = Math.max(0, r0); r <= r1; r++) visibleRows.push(r);
  const visibleCols: number[] = [];
  for (let c = Math.max(0, c0); c <= c1; c++) visibleCols.push(c);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: catches Ctrl+Z and friends for the whole editor; every control is a button or field of its own
    <div className="grid-editor" onKeyDown={onEditorKey}>
      <div className="ge-toolbar">
        <fieldset className="button-row">
          <legend className="visually-hidden">History</legend>
          <button type="button" className="secondary" onClick={undo} disabled={busy || !m?.canUndo} aria-keyshortcuts="Control+Z">
            Undo
          </button>
          <button type="button" className="secondary" onClick={redo} disabled={busy || !m?.canRedo} aria-keyshortcuts="Control+Shift+Z Control+Y">
            Redo
          </button>
        </fieldset>
        <fieldset className="button-row">
          <legend className="visually-hidden">Columns</legend>
          <button type="button" className="secondary" onClick={addColumn} disabled={busy}>
            Add column
          </button>
          <button type="button" className="secondary" onClick={deleteColumn} disabled={busy || !hasCol}>
            Delete column
          </button>
          <button type="button" className="secondary" onClick={() => moveColumn(-1)} disabled={busy || sel.c <= 0}>
            Move column left
          </button>
          <button type="button" className="secondary" onClick={() => moveColumn(1)} disabled={busy || sel.c >= ncols - 1}>
            Move column right
          </button>
        </fieldset>
        <fieldset className="button-row">
          <legend className="visually-hidden">Rows</legend>
          <button type="button" className="secondary" onClick={addRow} disabled={busy || !hasCol}>
            Add row
          </button>
          <button type="button" className="secondary" onClick={deleteRows} disabled={busy || !rows}>
            Delete selected rows
          </button>
        </fieldset>
        <form className="ge-rename" onSubmit={rename}>
          <label htmlFor="ge-column-name">Column name</label>
          <input
            id="ge-column-name"
            value={nameDraft}
            onChange={(e) => setNameDraft(e.target.value)}
            disabled={busy || !hasCol}
            maxLength={MAX_COLUMN_NAME_CHARS}
          />
          <button type="submit" className="secondary" disabled={busy || !hasCol || nameDraft === activeName}>
            Rename column
          </button>
        </form>
        <div className="button-row ge-save">
          <button type="button" className="secondary" onClick={downloadCsv} disabled={!ready}>
            Download CSV
          </button>
          <button type="button" onClick={save} disabled={busy || !dirty}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      {problem && (
        <div className="editor-problems" role="alert">
          <p>{problem}</p>
        </div>
      )}
      <p className="ge-status" role="status">
        {ready
          ? `${status}${status ? ' ' : ''}${rows.toLocaleString('en')} ${rows === 1 ? 'row' : 'rows'}, ${ncols.toLocaleString('en')} ${ncols === 1 ? 'column' : 'columns'}${dirty ? ' · unsaved changes' : ''}.`
          : `Loading the data… ${loaded.toLocaleString('en')} of ${data.cols.length.toLocaleString('en')} columns.`}
      </p>
      {/* biome-ignore-start lint/a11y/useSemanticElements: a virtualized grid places its rows itself, which a table's layout would not let it */}
      {/* biome-ignore-start lint/a11y/useFocusableInteractive: the grid holds the focus and names its active cell (aria-activedescendant), as the ARIA grid pattern does */}
      <div
        ref={scroller}
        className="ge-grid"
        role="grid"
        aria-label={`Data of ${data.name}`}
        aria-rowcount={rows + 1}
        aria-colcount={ncols + 1}
        aria-multiselectable="true"
        aria-busy={!ready}
        aria-describedby="ge-help"
        // Room for the scrollbar and the border below the last row.
        style={{ '--ge-rows-height': `${HEAD_H + scrollH + 20}px` } as CSSProperties}
        aria-activedescendant={activeVisible && editing === null ? cellId(sel.r, sel.c) : undefined}
        tabIndex={0}
        onKeyDown={onGridKey}
        onCopy={onCopy}
        onPaste={onPaste}
        onScroll={(e) => {
          const el = e.currentTarget;
          setView((v) => (v.top === el.scrollTop && v.left === el.scrollLeft ? v : { ...v, top: el.scrollTop, left: el.scrollLeft }));
        }}
      >
        <div role="presentation" className="ge-content" style={{ height: HEAD_H + scrollH, width }}>
          <div role="row" aria-rowindex={1} className="ge-headrow" style={{ width, height: HEAD_H }}>
            <div role="columnheader" aria-colindex={1} className="ge-corner" style={{ width: ROWHEAD_W }}>
              Row
            </div>
            {ready &&
              visibleCols.map((c) => {
                const col = m!.columns[c];
                return (
                  <div
                    key={col.key}
                    role="columnheader"
                    aria-colindex={c + 2}
                    aria-selected={c >= cMin && c <= cMax}
                    className="ge-colhead"
                    style={{ left: ROWHEAD_W + c * COL_W, width: COL_W }}
                    onMouseDown={(e) => onCellDown(e, sel.r, c)}
                    title={col.name}
                  >
                    <span className="ge-letter" aria-hidden="true">
                      {columnLetter(c)}
                    </span>{' '}
                    {col.name}
                  </div>
                );
              })}
          </div>
          {ready &&
            visibleRows.map((r) => (
              <div key={r} role="row" aria-rowindex={r + 2} className="ge-row" style={{ top: yOf(r), width, height: ROW_H }}>
                <div
                  role="rowheader"
                  aria-colindex={1}
                  aria-selected={r >= rMin && r <= rMax}
                  className="ge-rowhead"
                  style={{ width: ROWHEAD_W }}
                  onMouseDown={(e) => onCellDown(e, r, sel.c)}
                >
                  {(r + 1).toLocaleString('en')}
                </div>
                {visibleCols.map((c) => {
                  const active = r === sel.r && c === sel.c;
                  const inRange = r >= rMin && r <= rMax && c >= cMin && c <= cMax;
                  return (
                    <div
                      key={m!.columns[c].key}
                      id={cellId(r, c)}
                      role="gridcell"
                      aria-colindex={c + 2}
                      aria-selected={inRange}
                      className={`ge-cell${active ? ' active' : ''}${inRange ? ' in-range' : ''}`}
                      style={{ left: ROWHEAD_W + c * COL_W, width: COL_W }}
                      onMouseDown={(e) => onCellDown(e, r, c)}
                      onDoubleClick={() => startEdit()}
                    >
                      {active && editing !== null ? (
                        <input
                          ref={input}
                          className="ge-input"
                          aria-label={`${m!.columns[c].name}, row ${r + 1}`}
                          value={editing}
                          onChange={(e) => setEditing(e.target.value)}
                          onKeyDown={onInputKey}
                          onBlur={(e) => {
                            if (editOpen.current) commit(e.currentTarget.value, [0, 0]);
                          }}
                        />
                      ) : (
                        cellText(m!.cell(r, c))
                      )}
                    </div>
                  );
                })}
              </div>
            ))}
        </div>
      </div>
      {/* biome-ignore-end lint/a11y/useFocusableInteractive: see above */}
      {/* biome-ignore-end lint/a11y/useSemanticElements: see above */}
      <p className="ge-help" id="ge-help">
        Arrows, Tab and Page Up/Down move; Shift with them selects; Enter or F2 (or typing) edits a cell, Enter keeps it, Escape cancels; Delete clears; Ctrl+C
        and Ctrl+V copy and paste cells from a spreadsheet (rows are added as needed); Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes.
      </p>
    </div>
  );
}
