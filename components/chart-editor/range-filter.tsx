'use client';
// A filter's range of a column of numbers or dates: "From" and "To", either left empty for no bound,
// stored as plotly's `[]`, `>=` or `<=` filter. What is typed stays in the field while it is no number
// (or date), said at the field, and the figure keeps its last good range.
import { useState } from 'react';
import { valueKind } from '@/lib/shared/figures/column-facts';
import type { Step } from '@/lib/shared/figures/trace-steps';

type Bound = string | number | undefined;

/** The range a filter step keeps, as its bounds. */
function boundsOf(step: Step): { from: Bound; to: Bound } {
  if (step.enabled === false) return { from: undefined, to: undefined };
  const v = step.value as Bound | Bound[];
  const first = Array.isArray(v) ? v[0] : v;
  if (step.operation === '[]' && Array.isArray(v)) return { from: v[0], to: v[1] };
  if (step.operation === '>=' || step.operation === '>') return { from: first, to: undefined };
  if (step.operation === '<=' || step.operation === '<') return { from: undefined, to: first };
  return { from: undefined, to: undefined };
}

const text = (b: Bound) => (b === undefined || b === null ? '' : String(b));
/** A date's time, for comparing (a space or a T between date and time). */
const timeOf = (s: string) => Date.parse(s.trim().replace(' ', 'T'));

interface RangeFieldsProps {
  step: Step;
  index: number;
  dates: boolean;
  /** The new step; `key` folds typing in one field into one undo step. */
  onStep: (step: Step, key: string) => void;
}

export function RangeFields({ step, index, dates, onStep }: RangeFieldsProps) {
  const stored = boundsOf(step);
  const storedKey = JSON.stringify(stored);
  // What was typed, while it belongs to the stored range (an undo elsewhere shows the stored one).
  const [draft, setDraft] = useState<{ from: string; to: string; of: string } | null>(null);
  const shown = draft && draft.of === storedKey ? draft : { from: text(stored.from), to: text(stored.to), of: storedKey };
  const what = dates ? 'a date, such as 2024-01-31' : 'a number, such as 12.5';
  const problemOf = (t: string) => (t.trim() === '' || valueKind([t]) === (dates ? 'date' : 'number') ? undefined : `This is not ${what}.`);
  const problems = { from: problemOf(shown.from), to: problemOf(shown.to) };
  const order = (a: string, b: string) => (dates ? timeOf(a) - timeOf(b) : Number(a) - Number(b));
  const reversed = !problems.from && !problems.to && shown.from.trim() && shown.to.trim() && order(shown.from, shown.to) > 0;
  if (reversed) problems.to = 'To comes before From, so no row is kept: swap them.';

  function change(which: 'from' | 'to', value: string) {
    const next = { ...shown, [which]: value };
    const [f, t] = [next.from.trim(), next.to.trim()];
    if (problemOf(f) || problemOf(t)) return setDraft({ ...next, of: storedKey });
    const bound = (s: string) => (dates ? s : Number(s));
    const { enabled: _, operation: _o, value: _v, ...rest } = step;
    const written: Step =
      f && t
        ? { ...rest, operation: '[]', value: [bound(f), bound(t)] }
        : f
          ? { ...rest, operation: '>=', value: bound(f) }
          : t
            ? { ...rest, operation: '<=', value: bound(t) }
            : { ...rest, enabled: false };
    onStep(written, `filter-range-${which}-${index}`);
    setDraft({ ...next, of: JSON.stringify(boundsOf(written)) });
  }

  return (
    <div className="data-step-range">
      {(['from', 'to'] as const).map((which) => {
        const id = `filter-${which}-${index}`;
        const problem = problems[which];
        return (
          <div key={which} className={`field${problem ? ' has-error' : ''}`}>
            <label htmlFor={id}>{which === 'from' ? 'From' : 'To'}</label>
            <input
              id={id}
              type="text"
              inputMode={dates ? undefined : 'decimal'}
              placeholder={dates ? 'yyyy-mm-dd' : 'no bound'}
              value={shown[which]}
              onChange={(e) => change(which, e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
            />
            {problem && (
              <p id={`${id}-error`} className="field-error">
                {problem}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
