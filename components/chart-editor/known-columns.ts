// The editor's grids' columns with what each holds (the page's column facts), as the chart kinds'
// rules ask for them: a type change keeps only the columns that fit, and a role says what it lacks.
import type { KnownColumns } from '@/lib/shared/figures/chart-kinds';
import type { EditorGrid } from '@/lib/web/chart-editor';

/** A src's key: usernames are case-insensitive, uids are not. */
const keyOf = (src: string) => {
  const at = src.indexOf(':');
  return at < 0 ? src : src.slice(0, at).toLowerCase() + src.slice(at);
};

export function knownColumns(grids: EditorGrid[]): KnownColumns {
  const all = grids.flatMap((g) => g.cols.flatMap((c) => (g.facts[c.uid] ? [{ src: `${g.fid}:${c.uid}`, facts: g.facts[c.uid] }] : [])));
  const byKey = new Map(all.map((c) => [keyOf(c.src), c.facts]));
  return { facts: (src) => byKey.get(keyOf(src)), all };
}
