'use client';
// The grid editor's spreadsheet: an ARIA grid whose rows and columns are drawn as they come into view
// (grid-geometry.ts), the active cell named to assistive technology (aria-activedescendant), and the
// cell being edited as a text field in its place.
import type { ClipboardEvent, CSSProperties, KeyboardEvent, MouseEvent, Ref, UIEvent } from 'react';
import { range, type Selection } from './grid-edits';
import { COL_W, type GridWindow, HEAD_H, ROW_H, ROWHEAD_W, rowTop, span, type View } from './grid-geometry';
import type { GridModel } from './grid-model';
import { cellText } from './grid-values';

const cellId = (r: number, c: number) => `ge-cell-${r}-${c}`;
const columnLetter = (c: number): string => (c < 26 ? String.fromCharCode(65 + c) : columnLetter(Math.floor(c / 26) - 1) + String.fromCharCode(65 + (c % 26)));

/** The cell being edited: its text so far, and its field's handlers. */
export interface CellEdit {
  text: string;
  input: Ref<HTMLInputElement>;
  onText: (text: string) => void;
  onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => void;
  onBlur: (text: string) => void;
}

interface TableProps {
  /** null while loading. */
  model: GridModel | null;
  name: string;
  scroller: Ref<HTMLDivElement>;
  view: View;
  win: GridWindow;
  sel: Selection;
  edit: CellEdit | null;
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  onCopy: (e: ClipboardEvent) => void;
  onPaste: (e: ClipboardEvent) => void;
  onScroll: (e: UIEvent<HTMLDivElement>) => void;
  onCellDown: (e: MouseEvent, r: number, c: number) => void;
  onStartEdit: () => void;
}

export function GridTable({ model: m, name, scroller, view, win, sel, edit, onKeyDown, onCopy, onPaste, onScroll, onCellDown, onStartEdit }: TableProps) {
  const rows = m?.rows ?? 0;
  const ncols = m?.columns.length ?? 0;
  const { rMin, rMax, cMin, cMax } = range(sel);
  const { width, scrollH } = win;
  const activeVisible = !!m && ncols > 0 && rows > 0 && sel.r >= win.r0 && sel.r <= win.r1 && sel.c >= win.c0 && sel.c <= win.c1;
  const visibleCols = span(win.c0, win.c1);
  return (
    <>
      {/* biome-ignore-start lint/a11y/useSemanticElements: a virtualized grid places its rows itself, which a table's layout would not let it */}
      {/* biome-ignore-start lint/a11y/useFocusableInteractive: the grid holds the focus and names its active cell (aria-activedescendant), as the ARIA grid pattern does */}
      <div
        ref={scroller}
        className="ge-grid"
        role="grid"
        aria-label={`Data of ${name}`}
        aria-rowcount={rows + 1}
        aria-colcount={ncols + 1}
        aria-multiselectable="true"
        aria-busy={!m}
        aria-describedby="ge-help"
        // Room for the scrollbar and the border below the last row.
        style={{ '--ge-rows-height': `${HEAD_H + scrollH + 20}px` } as CSSProperties}
        aria-activedescendant={activeVisible && !edit ? cellId(sel.r, sel.c) : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onCopy={onCopy}
        onPaste={onPaste}
        onScroll={onScroll}
      >
        <div role="presentation" className="ge-content" style={{ height: HEAD_H + scrollH, width }}>
          <div role="row" aria-rowindex={1} className="ge-headrow" style={{ width, height: HEAD_H }}>
            <div role="columnheader" aria-colindex={1} className="ge-corner" style={{ width: ROWHEAD_W }}>
              Row
            </div>
            {m &&
              visibleCols.map((c) => {
                const col = m.columns[c];
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
          {m &&
            span(win.r0, win.r1).map((r) => (
              <div key={r} role="row" aria-rowindex={r + 2} className="ge-row" style={{ top: rowTop(win, view, r), width, height: ROW_H }}>
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
                      key={m.columns[c].key}
                      id={cellId(r, c)}
                      role="gridcell"
                      aria-colindex={c + 2}
                      aria-selected={inRange}
                      className={`ge-cell${active ? ' active' : ''}${inRange ? ' in-range' : ''}`}
                      style={{ left: ROWHEAD_W + c * COL_W, width: COL_W }}
                      onMouseDown={(e) => onCellDown(e, r, c)}
                      onDoubleClick={onStartEdit}
                    >
                      {active && edit ? (
                        <input
                          ref={edit.input}
                          className="ge-input"
                          data-own-undo=""
                          aria-label={`${m.columns[c].name}, row ${r + 1}`}
                          value={edit.text}
                          onChange={(e) => edit.onText(e.target.value)}
                          onKeyDown={edit.onKeyDown}
                          onBlur={(e) => edit.onBlur(e.currentTarget.value)}
                        />
                      ) : (
                        cellText(m.cell(r, c))
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
    </>
  );
}
