'use client';
// The data import (/create): a file or pasted data goes to a worker that parses it; the page shows
// the first rows with each column's type, takes the person's choices (header row, types, name,
// sharing), and the worker stores the grid. Then the chart editor opens on it.
import { useRouter } from 'next/navigation';
import { startTransition, useCallback, useEffect, useId, useRef, useState } from 'react';
import { MAX_FILENAME_CHARS } from '@/lib/shared/limits';
import { VISIBILITY_LABEL, visibilityHint } from '@/lib/shared/sharing';
import { newChartPath } from '@/lib/shared/urls';
import type { FromWorker, Sharing, TablePreview, ToWorker } from './messages';
import { COLUMN_TYPES, columnNames, type ColumnType, MAX_IMPORT_BYTES, PREVIEW_ROWS, sizeText } from './table-data';

type Source = 'file' | 'paste';
type Problem = { message: string; at: Source | 'import' | 'filename' };

const TYPE_LABELS: Record<ColumnType, string> = { number: 'Number', date: 'Date', text: 'Text' };
/** The new grid's sharing, private first (the default). */
const SHARING: Sharing[] = ['private', 'public', 'secret'];
const PASTE_DELAY_MS = 400;

export interface DataImportProps {
  /** The person's templates: "Start from a template" draws the imported data as one of them. */
  templates: { fid: string; name: string }[];
}

export function DataImport({ templates }: DataImportProps) {
  const router = useRouter();
  const id = useId();
  const worker = useRef<Worker | null>(null);
  const pasteTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  const pasteArea = useRef<HTMLTextAreaElement>(null);
  const [source, setSource] = useState<Source | null>(null);
  const [busy, setBusy] = useState<'read' | 'store' | null>(null);
  const [fraction, setFraction] = useState(0);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [table, setTable] = useState<TablePreview | null>(null);
  const [header, setHeader] = useState(true);
  const [types, setTypes] = useState<ColumnType[]>([]);
  const [columnProblems, setColumnProblems] = useState<(string | null)[]>([]);
  const [filename, setFilename] = useState('');
  const [sharing, setSharing] = useState<Sharing>('private');
  const [template, setTemplate] = useState('');

  const onMessage = useCallback(
    (message: FromWorker, from: Source) => {
      if (message.type === 'progress') {
        setBusy(message.phase);
        setFraction(message.fraction);
      } else if (message.type === 'table') {
        performance.mark('import-preview');
        const t = message.table;
        setBusy(null);
        // The preview renders in slices, so the page answers input while it is drawn.
        startTransition(() => {
          setTable(t);
          setHeader(t.header);
          setTypes(t.header ? t.detected.header : t.detected.data);
          setColumnProblems([]);
          setFilename(t.name);
        });
      } else if (message.type === 'checked') {
        setColumnProblems(message.problems);
      } else if (message.type === 'error') {
        const storing = busy === 'store';
        setBusy(null);
        if (!storing) setTable(null);
        setProblem({ message: message.message, at: message.field === 'filename' ? 'filename' : storing ? 'import' : from });
      } else if (message.type === 'stored') {
        // Where the import ends and the editor's loading begins (bench/import.ts reads the marks).
        performance.mark('grid-stored');
        const [owner, n] = template ? template.split(':') : [];
        router.push(newChartPath({ owner: message.owner, n: message.n }, owner ? { owner, n: Number(n) } : undefined));
      }
    },
    [router, busy, template],
  );
  const handler = useRef(onMessage);
  handler.current = onMessage;

  /** A fresh worker for each new data: whatever the last one was doing is dropped. */
  const start = useCallback((message: ToWorker, from: Source) => {
    worker.current?.terminate();
    const w = new Worker(new URL('./import.worker.ts', import.meta.url));
    w.onmessage = (event: MessageEvent<FromWorker>) => handler.current(event.data, from);
    worker.current = w;
    setSource(from);
    setTable(null);
    setProblem(null);
    setBusy('read');
    setFraction(0);
    w.postMessage(message);
  }, []);

  useEffect(
    () => () => {
      worker.current?.terminate();
      clearTimeout(pasteTimer.current);
    },
    [],
  );

  // A file chosen, or cells pasted, while the page was still loading fired no event that React heard
  // (its handlers were not attached yet): take them up once they are.
  useEffect(() => {
    const file = fileInput.current?.files?.[0];
    const text = pasteArea.current?.value ?? '';
    if (file) start({ type: 'file', file }, 'file');
    else if (text.trim() !== '') start({ type: 'paste', text }, 'paste');
  }, [start]);

  const send = (message: ToWorker) => worker.current?.postMessage(message);

  const choose = (header: boolean, types: ColumnType[]) => {
    setHeader(header);
    setTypes(types);
    send({ type: 'check', header, types });
  };

  const onFile = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    performance.mark('import-file-chosen');
    if (file) start({ type: 'file', file }, 'file');
  };

  const onPaste = (event: React.FormEvent<HTMLTextAreaElement>) => {
    const text = event.currentTarget.value;
    clearTimeout(pasteTimer.current);
    pasteTimer.current = setTimeout(() => {
      if (text.trim() === '') {
        worker.current?.terminate();
        worker.current = null;
        setTable(null);
        setProblem(null);
        return;
      }
      start({ type: 'paste', text }, 'paste');
    }, PASTE_DELAY_MS);
  };

  const onImport = (event: React.FormEvent) => {
    event.preventDefault();
    if (!table) return;
    performance.mark('import-clicked');
    setProblem(null);
    setBusy('store');
    setFraction(0);
    send({ type: 'import', header, types, filename: filename.trim() || table.name, sharing });
  };

  const names = table ? columnNames(header ? table.rows[0] : null, table.width) : [];
  const rows = table ? table.rows.slice(header ? 1 : 0, (header ? 1 : 0) + PREVIEW_ROWS) : [];
  const dataRows = table ? table.rowCount - (header ? 1 : 0) : 0;
  const detected = table ? (header ? table.detected.header : table.detected.data) : [];
  const errorId = (at: Problem['at']) => `${id}-${at}-error`;
  const errorAt = (at: Problem['at']) =>
    problem?.at === at ? (
      <p id={errorId(at)} role="alert" className="form-error">
        {problem.message}
      </p>
    ) : null;
  const invalid = (at: Problem['at']) => (problem?.at === at ? { 'aria-invalid': true, 'aria-describedby': errorId(at) } : {});
  const blocked = columnProblems.some(Boolean);

  return (
    <div className="data-import">
      <div className="form import-template">
        <label htmlFor={`${id}-template`}>Start from a template</label>
        <select id={`${id}-template`} value={template} onChange={(e) => setTemplate(e.target.value)} aria-describedby={`${id}-template-hint`}>
          <option value="">None (a line of the first columns)</option>
          {templates.map((t) => (
            <option key={t.fid} value={t.fid}>
              {t.name}
            </option>
          ))}
        </select>
        <p id={`${id}-template-hint`} className="muted import-hint">
          {templates.length
            ? "The imported data takes the template's columns: those of the same name, else in order."
            : 'You have no templates yet: "Save as template" on one of your charts\' pages makes one.'}
        </p>
      </div>
      <div className="import-sources">
        <div className="form import-source">
          <label>
            Data file
            <input
              ref={fileInput}
              type="file"
              accept=".csv,.tsv,.tab,.txt,.xlsx,text/csv,text/tab-separated-values"
              onChange={onFile}
              disabled={busy === 'store'}
              {...invalid('file')}
            />
          </label>
          <p className="muted import-hint">CSV, TSV or Excel (.xlsx: choose the sheet), UTF-8, at most {sizeText(MAX_IMPORT_BYTES)}.</p>
          {errorAt('file')}
        </div>
        <div className="form import-source">
          <label>
            Paste data
            <textarea
              ref={pasteArea}
              rows={5}
              spellCheck={false}
              placeholder="Copy cells from a spreadsheet and paste them here"
              onInput={onPaste}
              disabled={busy === 'store'}
              {...invalid('paste')}
            />
          </label>
          {errorAt('paste')}
        </div>
      </div>

      {busy && (
        <div className="import-progress">
          <label htmlFor={`${id}-progress`}>{busy === 'read' ? 'Reading the data…' : 'Storing the grid…'}</label>
          <progress id={`${id}-progress`} max={1} value={fraction}>
            {Math.round(fraction * 100)}%
          </progress>
        </div>
      )}

      {table && (
        <form className="import-preview" onSubmit={onImport} aria-labelledby={`${id}-preview-heading`}>
          <h2 id={`${id}-preview-heading`}>Preview</h2>
          {table.sheets.length > 1 && (
            <div className="import-sheet">
              <label htmlFor={`${id}-sheet`}>Sheet</label>
              <select
                id={`${id}-sheet`}
                value={table.sheet ?? ''}
                onChange={(e) => {
                  setBusy('read');
                  send({ type: 'sheet', sheet: e.target.value });
                }}
                disabled={busy !== null}
              >
                {table.sheets.map((s) => (
                  <option key={s.name} value={s.name} disabled={s.note !== null}>
                    {s.name}
                    {s.note ? ` (${s.note})` : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          <p className="muted" aria-live="polite">
            {source === 'file' && table.sheet ? `Sheet '${table.sheet}': ` : ''}
            {dataRows.toLocaleString('en-US')} {dataRows === 1 ? 'row' : 'rows'} × {table.width} {table.width === 1 ? 'column' : 'columns'}
            {dataRows > rows.length ? `; the first ${rows.length} shown` : ''}. Nothing is stored until you import it.
          </p>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={header}
              onChange={(e) => choose(e.target.checked, e.target.checked ? table.detected.header : table.detected.data)}
            />{' '}
            First row is the header
          </label>
          <div className="table-wrap import-table">
            <table className="grid-table">
              <thead>
                <tr>
                  {names.map((name) => (
                    <th key={name} scope="col">
                      {name}
                    </th>
                  ))}
                </tr>
                <tr className="import-types">
                  {names.map((name, k) => (
                    <td key={name}>
                      <select
                        aria-label={`Type of ${name}`}
                        value={types[k]}
                        onChange={(e) =>
                          choose(
                            header,
                            types.map((t, j) => (j === k ? (e.target.value as ColumnType) : t)),
                          )
                        }
                        aria-invalid={columnProblems[k] ? true : undefined}
                        aria-describedby={columnProblems[k] ? `${id}-col-${k}` : undefined}
                      >
                        {COLUMN_TYPES.map((t) => (
                          <option key={t} value={t}>
                            {TYPE_LABELS[t]}
                            {t === detected[k] ? ' (detected)' : ''}
                          </option>
                        ))}
                      </select>
                    </td>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity but their place
                  <tr key={i}>
                    {row.map((cell, k) => (
                      <td key={names[k]} className={types[k] === 'number' ? 'number' : undefined}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {blocked && (
            <ul className="form-error import-column-problems" role="alert">
              {columnProblems.map((message, k) =>
                message ? (
                  <li key={names[k]} id={`${id}-col-${k}`}>
                    Column &lsquo;{names[k]}&rsquo; cannot be {TYPE_LABELS[types[k]].toLowerCase()}: {message}
                  </li>
                ) : null,
              )}
            </ul>
          )}
          <div className="import-fields">
            <label>
              Name
              <input
                value={filename}
                onChange={(e) => setFilename(e.target.value)}
                required
                maxLength={MAX_FILENAME_CHARS}
                autoComplete="off"
                {...invalid('filename')}
              />
            </label>
            {errorAt('filename')}
            <label>
              Sharing
              <select value={sharing} onChange={(e) => setSharing(e.target.value as Sharing)} aria-describedby={`${id}-sharing-hint`}>
                {SHARING.map((s) => (
                  <option key={s} value={s}>
                    {VISIBILITY_LABEL[s]}
                  </option>
                ))}
              </select>
            </label>
            <p id={`${id}-sharing-hint`} className="field-hint muted">
              {visibilityHint(sharing, { noun: 'data', own: true })}
            </p>
          </div>
          <button type="submit" className="button" disabled={busy !== null || blocked}>
            Import and make a chart
          </button>
          {errorAt('import')}
        </form>
      )}
    </div>
  );
}
