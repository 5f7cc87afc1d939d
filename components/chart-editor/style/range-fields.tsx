'use client';
// An axis's range: a minimum and a maximum in the axis's own units (a log axis's values, not their
// logs), both or neither (then plotly fits the data). Both fields are written as one axis change.
import { useId, useState } from 'react';
import styles from './style-panels.module.css';
import { axisWithRange, formatRangeEnd, isDeepStrictEqual } from './values';

const ends = (axis: Record<string, unknown>): [string, string] => {
  const range = Array.isArray(axis.range) && axis.autorange !== true ? axis.range : [];
  return [formatRangeEnd(range[0], axis.type), formatRangeEnd(range[1], axis.type)];
};

export function RangeFields({ label, axis, onChange }: { label: string; axis: Record<string, unknown>; onChange: (axis: Record<string, unknown>) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(() => ends(axis));
  const rangeOf = { range: axis.range, autorange: axis.autorange, type: axis.type };
  const [seen, setSeen] = useState(rangeOf);
  const [error, setError] = useState<string>();
  if (!isDeepStrictEqual(seen, rangeOf)) {
    setSeen(rangeOf);
    // Another change (undo, a new axis type) replaces the text unless it is what was typed.
    const mine = axisWithRange(axis, axis.type, ...draft);
    if (mine.error !== undefined || !isDeepStrictEqual(mine.value.range, axis.range)) {
      setDraft(ends(axis));
      setError(undefined);
    }
  }
  const change = (next: [string, string]) => {
    setDraft(next);
    const result = axisWithRange(axis, axis.type, ...next);
    setError(result.error);
    if (result.value && !isDeepStrictEqual(result.value, axis)) onChange(result.value);
  };
  const described = error ? `${id}-error` : undefined;
  return (
    <div className={styles.field}>
      <div className={styles.grid}>
        <div className={styles.field}>
          <label htmlFor={`${id}-min`}>{label} minimum</label>
          <input
            id={`${id}-min`}
            type="text"
            value={draft[0]}
            placeholder="Auto"
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            onChange={(e) => change([e.target.value, draft[1]])}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-max`}>{label} maximum</label>
          <input
            id={`${id}-max`}
            type="text"
            value={draft[1]}
            placeholder="Auto"
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            onChange={(e) => change([draft[0], e.target.value])}
          />
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
