// A refused save's edits re-applied onto the grid as someone else saved it meanwhile, cell by cell (a
// three-way merge): a cell only you changed takes your value, one only they changed keeps theirs, and
// one you both changed differently is a conflict (yours kept, theirs shown to take back). Cells are
// matched by column uid and row number, so edits that added or deleted rows are not re-applied (their
// rows would land on others).
import { type Cell, type Values, valueAt } from './grid-values';

/** A column as it was saved last (the edits' base), as it is here, and as it is now on the server. */
export interface BaseColumn {
  name: string;
  values: Values;
}
export interface MineColumn {
  /** null: a column added here. */
  uid: string | null;
  name: string;
  values: Values;
  /** Whether its values changed here since the base. */
  edited: boolean;
}
export interface TheirColumn {
  uid: string;
  name: string;
  values: Values;
}

/** A cell both changed: its place, and both values. */
export interface Conflict {
  column: string;
  row: number;
  theirs: Cell;
  yours: Cell;
}

export interface Merged {
  /** In your order, then their new columns; uid null for a column that is new to the saved grid;
   * `changed`: its values differ from theirs. */
  columns: { uid: string | null; name: string; values: Cell[] | Values; changed: boolean }[];
  /** Cells of yours re-applied (changed from theirs). */
  applied: number;
  conflicts: Conflict[];
  /** What could not be re-applied as it was, in words. */
  notes: string[];
}

/** Conflicts listed at most (the count says the rest). */
export const MAX_CONFLICTS_LISTED = 200;

const same = (a: Cell, b: Cell): boolean =>
  a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));

const copy = (values: Values): Values => values.slice();

/** Your columns' edits since `base`, onto `theirs`. */
export function mergeEdits(base: Map<string, BaseColumn>, mine: MineColumn[], theirs: TheirColumn[]): Merged {
  const theirsByUid = new Map(theirs.map((c) => [c.uid, c]));
  const mineUids = new Set(mine.flatMap((c) => (c.uid ? [c.uid] : [])));
  const out: Merged = { columns: [], applied: 0, conflicts: [], notes: [] };
  let conflicts = 0;

  for (const col of mine) {
    const was = col.uid ? base.get(col.uid) : undefined;
    const now = col.uid ? theirsByUid.get(col.uid) : undefined;
    if (!was) {
      out.columns.push({ uid: null, name: col.name, values: copy(col.values), changed: true });
      continue;
    }
    if (!now) {
      // They deleted it: your edits to it come back as a new column; an untouched one stays deleted.
      if (col.edited) {
        out.columns.push({ uid: null, name: col.name, values: copy(col.values), changed: true });
        out.notes.push(`“${col.name}” was deleted by someone else; your edits to it are kept as a new column.`);
      }
      continue;
    }
    const renamed = col.name !== was.name;
    const name = renamed ? col.name : now.name;
    if (renamed && now.name !== was.name && now.name !== col.name)
      out.notes.push(`“${was.name}” was renamed “${now.name}” by someone else; your name “${col.name}” is kept.`);
    if (!col.edited) {
      out.columns.push({ uid: now.uid, name, values: now.values, changed: false });
      continue;
    }
    const rows = Math.max(col.values.length, now.values.length, was.values.length);
    const values: Cell[] = new Array(rows);
    let changed = false;
    for (let r = 0; r < rows; r++) {
      const b = valueAt(was.values, r);
      const m = valueAt(col.values, r);
      const t = valueAt(now.values, r);
      if (same(m, b) || same(m, t)) {
        values[r] = t;
        continue;
      }
      values[r] = m;
      changed = true;
      if (same(t, b)) out.applied++;
      else if (conflicts++ < MAX_CONFLICTS_LISTED) out.conflicts.push({ column: name, row: r, theirs: t, yours: m });
    }
    // Trailing empty cells are no rows.
    let end = values.length;
    while (end > now.values.length && values[end - 1] === '') end--;
    values.length = end;
    out.columns.push({ uid: now.uid, name, values: changed ? values : now.values, changed });
  }
  // Their new columns, after yours; a column you deleted stays deleted.
  for (const col of theirs)
    if (!base.has(col.uid) && !mineUids.has(col.uid)) out.columns.push({ uid: col.uid, name: col.name, values: col.values, changed: false });
  if (conflicts > MAX_CONFLICTS_LISTED) out.notes.push(`${conflicts - MAX_CONFLICTS_LISTED} more cells conflict than are listed; yours are kept in them.`);

  // Names are unique in a grid: where yours meets one of theirs, theirs keeps it and yours is told apart.
  const theirName = new Map(theirs.map((c) => [c.uid, c.name]));
  const kept = (c: Merged['columns'][number]) => c.uid !== null && theirName.get(c.uid) === c.name;
  const taken = new Set(out.columns.filter(kept).map((c) => c.name));
  for (const c of out.columns) {
    if (kept(c)) continue;
    let name = c.name;
    for (let i = 2; taken.has(name); i++) name = `${c.name} (${i})`;
    if (name !== c.name) out.notes.push(`Someone else named a column “${c.name}” too; yours is now “${name}”.`);
    c.name = name;
    taken.add(name);
  }
  return out;
}
