'use client';
// A trace's columns in the chart editor: one column choice per role of its chart kind, then every
// other src the trace has, and for types outside the picker the data attributes plotly's schema gives.
import type { EditorData } from '@/lib/web/chart-editor';
import { type ChartKind, type KnownColumns, type Role, roleProblem, roleSrc, srcPath, tracesSrcs } from '@/lib/shared/figures/chart-kinds';
import { stepsOf } from '@/lib/shared/figures/trace-steps';
import { ColumnSelect } from './column-select';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface TraceRolesProps {
  trace: Record<string, unknown>;
  index: number;
  kind: ChartKind | null;
  grids: EditorData['grids'];
  /** Names of the columns seen through the plot alone, by src. */
  seen: ReadonlyMap<string, string>;
  more: boolean;
  onMore: () => void;
  /** The schema's data attributes of the trace's type (for types outside the picker). */
  dataAttrs: string[];
  problemAt: (place: string) => string | undefined;
  /** The grids' columns and what they hold: a role that cannot be drawn says why at its control. */
  columns: KnownColumns;
  /** A src path inside the trace (`marker.colorsrc`) and its new src. */
  onChange: (srcPathText: string, src: string | undefined) => void;
}

/**
 * A trace's columns: its kind's roles (optional ones on request, or when mapped), then every other
 * src it has (nested, in transforms...), and for types outside the picker the data attributes
 * plotly's schema gives the type.
 */
export function TraceRoles({ trace, index, kind, grids, seen, more, onMore, dataAttrs, problemAt, columns, onChange }: TraceRolesProps) {
  const roles: Role[] = kind?.roles ?? [];
  const optional = roles.filter((r) => !r.required);
  const shown = roles.filter((r) => r.required || more || roleSrc(trace, r.attr) !== undefined);
  const covered = new Set(roles.map((r) => srcPath(r.attr).join('.')));
  // The data steps' own controls show the filter's column ("Filter by"): not again here by its path.
  const filterAt = stepsOf(trace).findIndex((t) => isRecord(t) && t.type === 'filter');
  if (kind && filterAt >= 0) covered.add(`transforms.${filterAt}.targetsrc`);
  const extra = tracesSrcs(trace)
    .map((s) => s.path)
    .filter((p) => !covered.has(p));
  if (!kind) for (const attr of dataAttrs) if (more && !extra.includes(srcPath(attr).join('.'))) extra.push(srcPath(attr).join('.'));
  const place = (p: string) => `data.${index}.${p}`;
  const idOf = (p: string) => `role-${p.replace(/[^A-Za-z0-9]/g, '-')}`;
  return (
    <div className="trace-roles">
      {shown.map((role) => {
        const p = srcPath(role.attr).join('.');
        return (
          <ColumnSelect
            key={role.attr}
            id={idOf(p)}
            label={role.label}
            src={roleSrc(trace, role.attr)}
            grids={grids}
            seen={seen}
            multiple={role.multiple}
            hint={
              role.long
                ? 'One column: each row a cell at its X and Y (long data). Several: one row of cells each (wide data; Ctrl or Shift to choose several).'
                : undefined
            }
            required={role.required}
            error={problemAt(place(p)) ?? (kind ? roleProblem(kind, role, trace, columns) : null) ?? undefined}
            onChange={(src) => onChange(p, src)}
          />
        );
      })}
      {extra.map((p) => {
        const src = p
          .split('.')
          .reduce<unknown>((node, key) => (isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined), trace);
        return (
          <ColumnSelect
            key={p}
            id={idOf(p)}
            label={p.slice(0, -3)}
            src={typeof src === 'string' ? src : undefined}
            grids={grids}
            seen={seen}
            error={problemAt(place(p))}
            onChange={(next) => onChange(p, next)}
          />
        );
      })}
      {(optional.some((r) => roleSrc(trace, r.attr) === undefined) || (!kind && dataAttrs.length > 0)) && (
        <button type="button" className="link-button" aria-expanded={more} onClick={onMore}>
          {more ? 'Fewer columns' : 'More columns'}
        </button>
      )}
    </div>
  );
}
