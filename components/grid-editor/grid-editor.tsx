'use client';
// The grid editor: a spreadsheet over the owner's grid. Only the rows and columns in view are drawn
// (grid-table.tsx, grid-geometry.ts); the data is fetched in a Web Worker and held compactly
// (use-grid-data.ts, grid-model.ts); every edit (grid-edits.ts) can be undone; "Save" sends the
// edits in one request, refused all at once or applied (use-grid-saving.ts); refused because someone
// else saved meanwhile, the edits can be re-applied onto their data (grid-merge.ts).
import { type ClipboardEvent, type KeyboardEvent, type MouseEvent, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { apiFilePath } from '@/lib/shared/urls';
import type { GridEditorData } from '@/lib/web/grid-editor';
import { ProblemsSummary } from '../problems-summary';
import { undoKeys } from '../undo-redo';
import { activeText, clearRange, copyText, type GridEdit, paste, redoEdit, type Selection, setCell, undoEdit } from './grid-edits';
import { gridWindow, pageRows, reveal, type View } from './grid-geometry';
import { gridKey } from './grid-keys';
import { GridMergeReport } from './grid-merge-report';
import { GridTable } from './grid-table';
import { GridToolbar } from './grid-toolbar';
import { useGridData } from './use-grid-data';
import { useGridSaving } from './use-grid-saving';
import './grid-editor.css';

/** The scroller's size and scroll position, followed as it is resized. */
function useView() {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>({ top: 0, left: 0, width: 800, height: 480 });
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView((v) => ({ ...v, width: el.clientWidth, height: el.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const onScroll = (e: { currentTarget: HTMLDivElement }) => {
    const el = e.currentTarget;
    setView((v) => (v.top === el.scrollTop && v.left === el.scrollLeft ? v : { ...v, top: el.scrollTop, left: el.scrollLeft }));
  };
  return { scroller, view, onScroll };
}

export function GridEditor({ data }: { data: GridEditorData }) {
  const apiPath = apiFilePath('grids', data.owner, data.n);
  const { model: m, loaded, problem: loadProblem } = useGridData(data.cols, apiPath);
  const { scroller, view, onScroll } = useView();
  const input = useRef<HTMLInputElement>(null);
  /** Whether the cell input's text is still to be kept (its blur keeps it; Escape and Enter have already decided). */
  const editOpen = useRef(false);
  // The model changes in place: a new revision draws it again.
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [sel, setSel] = useState<Selection>({ r: 0, c: 0, r2: 0, c2: 0 });
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { saving, dirty, save, downloadCsv, stale, reapply, merged, dismissMerged } = useGridSaving(m, {
    name: data.name,
    cols: data.cols,
    base: data.base,
    apiPath,
    onStatus: setStatus,
    onProblem: setProblem,
  });

  const rows = m?.rows ?? 0;
  const ncols = m?.columns.length ?? 0;
  const win = gridWindow(view, rows, ncols);

  const select = (r: number, c: number, extend = false) => {
    const rr = Math.max(0, Math.min(r, rows - 1));
    const cc = Math.max(0, Math.min(c, ncols - 1));
    setSel((s) => (extend ? { ...s, r2: rr, c2: cc } : { r: rr, c: cc, r2: rr, c2: cc }));
    const el = scroller.current;
    if (!el) return;
    reveal(el, win, extend ? sel.r : rr, extend ? sel.c : cc);
    if (extend) reveal(el, win, rr, cc);
  };

  const focusGrid = () => scroller.current?.focus({ preventScroll: true });

  /** Runs an edit of the model and draws it again. */
  const run = (edit: GridEdit) => {
    if (!m || saving) return;
    setProblem(null);
    const out = edit(m, sel);
    if (out.said) setStatus(out.said);
    if (out.problem) setProblem(out.problem);
    if (out.sel) setSel(out.sel);
    redraw();
  };

  const commit = (text: string, move: [number, number]) => {
    editOpen.current = false;
    run(setCell(text));
    setEditing(null);
    select(sel.r + move[0], sel.c + move[1]);
    focusGrid();
  };

  const startEdit = (text?: string) => {
    if (!m || !ncols || saving) return;
    if (!rows) m.insertRows(0, 1);
    editOpen.current = true;
    setEditing(text ?? activeText(m, sel));
  };

  // At once (before the next key arrives), so typing that starts an edit keeps every character.
  useLayoutEffect(() => {
    if (editing !== null && document.activeElement !== input.current) input.current?.focus();
  }, [editing]);

  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing !== null || !m) return;
    const command = gridKey(e, sel, rows, ncols, pageRows(win));
    if (!command) return;
    e.preventDefault();
    if (command.type === 'select') select(command.r, command.c, command.extend);
    else if (command.type === 'edit') startEdit(command.text);
    else run(clearRange);
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
    const copied = copyText(m, sel);
    if ('text' in copied) e.clipboardData.setData('text/plain', copied.text);
    setStatus('text' in copied ? 'Copied.' : copied.said);
  };

  const onPaste = (e: ClipboardEvent) => {
    if (editing !== null || !m || !ncols) return;
    e.preventDefault();
    run(paste(e.clipboardData.getData('text/plain')));
  };

  const onCellDown = (e: MouseEvent, r: number, c: number) => {
    if (editing !== null) return;
    e.preventDefault();
    focusGrid();
    select(r, c, e.shiftKey);
  };

  const busy = !m || saving;
  const statusLine = m
    ? `${status}${status ? ' ' : ''}${rows.toLocaleString('en')} ${rows === 1 ? 'row' : 'rows'}, ${ncols.toLocaleString('en')} ${ncols === 1 ? 'column' : 'columns'}${dirty ? ' · unsaved changes' : ''}.`
    : `Loading the data… ${loaded.toLocaleString('en')} of ${data.cols.length.toLocaleString('en')} columns.`;
  const shownProblem = problem ?? loadProblem;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: catches Ctrl+Z and friends for the whole editor; every control is a button or field of its own
    <div
      className="grid-editor"
      onKeyDown={undoKeys(
        () => run(undoEdit),
        () => run(redoEdit),
      )}
    >
      <GridToolbar model={m} column={sel.c} busy={busy} saving={saving} dirty={dirty} run={run} onDownload={downloadCsv} onSave={save} />
      <ProblemsSummary problems={shownProblem ? [shownProblem] : []} takeFocus={false} />
      <GridMergeReport stale={stale} merged={merged} busy={busy} onReapply={reapply} onDismiss={dismissMerged} run={run} />
      <p className="ge-status" role="status">
        {statusLine}
      </p>
      <GridTable
        model={m}
        name={data.name}
        scroller={scroller}
        view={view}
        win={win}
        sel={sel}
        edit={
          editing === null
            ? null
            : {
                text: editing,
                input,
                onText: setEditing,
                onKeyDown: onInputKey,
                onBlur: (text) => {
                  if (editOpen.current) commit(text, [0, 0]);
                },
              }
        }
        onKeyDown={onGridKey}
        onCopy={onCopy}
        onPaste={onPaste}
        onScroll={onScroll}
        onCellDown={onCellDown}
        onStartEdit={() => startEdit()}
      />
      <p className="ge-help" id="ge-help">
        Arrows, Tab and Page Up/Down move; Shift with them selects; Enter or F2 (or typing) edits a cell, Enter keeps it, Escape cancels; Delete clears; Ctrl+C
        and Ctrl+V copy and paste cells from a spreadsheet (rows are added as needed); Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes.
      </p>
    </div>
  );
}
