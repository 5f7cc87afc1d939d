'use client';
// A data role's control: a native select of the grids' columns by name (a src `owner:n:uid`), or
// several columns of one grid for a 2D role (`owner:n:uid,uid`). A src naming something not listed
// (a grid the viewer cannot read, several columns in a one-column role) stays as it is, shown by its
// name when the plot shows it to the viewer, else as data kept as it is.
import { columnKey, splitSrc } from './preview-data';

export interface ColumnGrid {
  fid: string;
  owner: string;
  n: number;
  name: string;
  cols: { name: string; uid: string }[];
}

interface ColumnSelectProps {
  id: string;
  label: string;
  src: string | undefined;
  grids: ColumnGrid[];
  /** Names of the columns seen through the plot alone, by src: shown by name, kept as they are. */
  seen: ReadonlyMap<string, string>;
  multiple?: boolean;
  required?: boolean;
  error?: string;
  /** What choosing several columns means, when it is not the usual (one row each). */
  hint?: string;
  onChange: (src: string | undefined) => void;
}

const optionValue = (g: ColumnGrid, uid: string) => `${g.fid}:${uid}`;

export function ColumnSelect({ id, label, src, grids, seen, multiple, required, error, hint, onChange }: ColumnSelectProps) {
  const parsed = src ? splitSrc(src) : null;
  const known = new Map<string, string>();
  for (const g of grids) for (const c of g.cols) known.set(columnKey(g.owner, g.n, c.uid), optionValue(g, c.uid));
  const chosen = parsed ? parsed.uids.map((uid) => known.get(columnKey(parsed.owner, parsed.n, uid))) : [];
  const listed = chosen.length > 0 && chosen.every((v) => v !== undefined) && (multiple || chosen.length === 1);
  const other = src !== undefined && !listed ? src : null;
  const errorId = `${id}-error`;
  // Never the src itself: a person reads a column's name, or what it is.
  const otherLabel = other === null ? '' : seen.has(other) ? `${seen.get(other)} (this chart's data)` : 'Data you cannot read here (kept as it is)';

  const change = (e: React.ChangeEvent<HTMLSelectElement>) => {
    const values = [...e.target.selectedOptions].map((o) => o.value).filter((v) => v !== '');
    if (!values.length) return onChange(undefined);
    if (!multiple || values.length === 1) return onChange(values[0]);
    // Several columns make one src only within one grid: those of the first one's grid.
    const first = splitSrc(values[0]);
    if (!first) return onChange(values[0]);
    const uids = values
      .map(splitSrc)
      .filter((s) => s && s.owner === first.owner && s.n === first.n)
      .map((s) => s!.uids[0]);
    onChange(`${first.owner}:${first.n}:${uids.join(',')}`);
  };

  const options = grids.map((g) => {
    const items = g.cols.map((c) => (
      <option key={c.uid} value={optionValue(g, c.uid)}>
        {c.name}
      </option>
    ));
    return grids.length > 1 ? (
      <optgroup key={g.fid} label={g.name}>
        {items}
      </optgroup>
    ) : (
      items
    );
  });

  return (
    <div className={`field column-field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiple ? (
        <select
          id={id}
          multiple
          size={Math.min(6, Math.max(3, grids.reduce((n, g) => n + g.cols.length, 0) + (other ? 1 : 0)))}
          value={other ? [other] : (chosen as string[])}
          onChange={change}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : `${id}-hint`}
        >
          {other && <option value={other}>{otherLabel}</option>}
          {options}
        </select>
      ) : (
        <select
          id={id}
          value={other ?? chosen[0] ?? ''}
          onChange={change}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        >
          <option value="">{required ? 'Choose a column' : 'None'}</option>
          {other && <option value={other}>{otherLabel}</option>}
          {options}
        </select>
      )}
      {multiple && !error && (
        <p id={`${id}-hint`} className="field-hint">
          {hint ?? 'One row for each column chosen (Ctrl or Shift to choose several).'}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
