'use client';
// A trace's data steps in the chart editor: "Aggregate" (one point for each of its categories, by a
// function), "Filter" (the rows of some values of a column, or of a range of its numbers or dates) and
// "Sort". They are written into the figure as plotly.js 2's transforms (lib/shared/figures/trace-steps.ts),
// which every drawing applies first (apply-transforms.ts): the grid's data stays as it is, and the
// preview draws exactly what Save stores.
import { useEffect, useState } from 'react';
import { type ChartKind, type KnownColumns, roleSrc } from '@/lib/shared/figures/chart-kinds';
import { AGGREGATE_CHOICES, aggregateFunc, type Step, stepOf, withAggregate, withStep } from '@/lib/shared/figures/trace-steps';
import { ColumnSelect, type ColumnGrid } from './column-select';
import { columnValues, type ColumnSize } from './preview-data';
import { RangeFields } from './range-filter';

type Trace = Record<string, unknown>;

interface DataStepsProps {
  trace: Trace;
  index: number;
  kind: ChartKind;
  grids: ColumnGrid[];
  seen: ReadonlyMap<string, string>;
  columns: KnownColumns;
  sizes: Map<string, ColumnSize>;
  /** A column's name by its src. */
  columnName: (src: string | undefined) => string | undefined;
  /** Changes the trace (one undo step; changes of one `key` in a row are one, as typing is). */
  onChange: (update: (trace: Trace) => Trace, key?: string) => void;
}

/** Distinct values a filter offers to tick (more are filtered by range, or by another column). */
const MAX_CHOICES = 100;
/** What is numbers, as a sentence's words. */
const NUMERIC = ['sum', 'avg', 'median', 'min', 'max'];

export function DataSteps(props: DataStepsProps) {
  const { kind, trace } = props;
  // A wide heatmap or a surface is a table of cells: its rows are not points to filter or group.
  const cells = kind.roles.some((r) => r.multiple) && (roleSrc(trace, 'z') ?? '').includes(',');
  if (cells || kind.id === 'surface') return null;
  return (
    <div className="data-steps">
      {kind.steps && <AggregateStep {...props} steps={kind.steps} />}
      <FilterStep {...props} />
      {kind.steps && <SortStep {...props} steps={kind.steps} />}
    </div>
  );
}

type WithSteps = DataStepsProps & { steps: { group: string; value: string } };

/** A role's label and, when it has one, its column's name: "X (city)". */
function roleWords(props: DataStepsProps, attr: string): string {
  const label = props.kind.roles.find((r) => r.attr === attr)?.label ?? attr;
  const name = props.columnName(roleSrc(props.trace, attr));
  return name ? `${label} (${name})` : label;
}

function AggregateStep(props: WithSteps) {
  const { trace, index, steps, columns, onChange } = props;
  const func = aggregateFunc(stepOf(trace, 'aggregate'), steps.value);
  const known = AGGREGATE_CHOICES.find((c) => c.func === func);
  const id = `aggregate-${index}`;
  const group = roleWords(props, steps.group);
  const value = roleWords(props, steps.value);
  const valueSrc = roleSrc(trace, steps.value);
  const error =
    func && NUMERIC.includes(func) && valueSrc && columns.facts(valueSrc)?.kind === 'category'
      ? `${known?.label ?? func} works on numbers, and ${value} holds text: choose Count, or a column of numbers for ${value}.`
      : undefined;
  const hint = !func
    ? `Every row is drawn as it is. Choose a function to draw one point for each ${group}.`
    : func === 'count'
      ? `The number of rows for each ${group}.`
      : `The ${(known?.label ?? func).toLowerCase()} of ${value} for each ${group}.`;
  return (
    <fieldset className="data-step">
      <legend>Aggregate</legend>
      <div className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor={id}>Aggregate function</label>
        <select
          id={id}
          value={func ?? ''}
          aria-describedby={`${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange((t) => withAggregate(t, steps, e.target.value || undefined))}
        >
          <option value="">None</option>
          {AGGREGATE_CHOICES.map((c) => (
            <option key={c.func} value={c.func}>
              {c.label}
            </option>
          ))}
          {func && !known && <option value={func}>{func} (as saved)</option>}
        </select>
        <p id={`${id}-hint`} className={error ? 'field-error' : 'field-hint'}>
          {error ?? hint}
        </p>
      </div>
    </fieldset>
  );
}

function FilterStep(props: DataStepsProps) {
  const { trace, index, grids, seen, columns, onChange } = props;
  const step = stepOf(trace, 'filter');
  const src = typeof step?.targetsrc === 'string' ? step.targetsrc : undefined;
  const kind = src ? (columns.facts(src)?.kind ?? 'category') : undefined;
  const id = `filter-column-${index}`;
  const set = (next: Step | undefined, key?: string) => onChange((t) => withStep(t, 'filter', next), key);
  return (
    <fieldset className="data-step">
      <legend>Filter</legend>
      {step && !src ? (
        <div className="field">
          <p className="field-hint">This chart keeps some rows by a rule saved with it (kept as it is).</p>
          <button type="button" className="secondary" onClick={() => set(undefined)}>
            Remove the filter
          </button>
        </div>
      ) : (
        <ColumnSelect
          id={id}
          label="Filter by"
          src={src}
          grids={grids}
          seen={seen}
          // Chosen, a column keeps every row until values or a range are given.
          onChange={(next) => set(next ? { type: 'filter', targetsrc: next, enabled: false } : undefined)}
        />
      )}
      {!step && <p className="field-hint">Keep only the rows of some values of a column, or of a range of its numbers or dates.</p>}
      {step && src && kind === 'category' && <ValueChoices key={src} src={src} step={step} index={index} sizes={props.sizes} onStep={set} />}
      {step && src && kind !== 'category' && <RangeFields key={src} step={step} index={index} dates={kind === 'date'} onStep={set} />}
    </fieldset>
  );
}

/** The values a filter of a category column keeps, ticked. */
function ValueChoices({
  src,
  step,
  index,
  sizes,
  onStep,
}: {
  src: string;
  step: Step;
  index: number;
  sizes: Map<string, ColumnSize>;
  onStep: (s: Step) => void;
}) {
  const [choices, setChoices] = useState<string[] | 'many' | 'unknown' | null>(null);
  useEffect(() => {
    let live = true;
    const values = columnValues(src, sizes);
    if (!values) setChoices('unknown');
    values
      ?.then((vs) => {
        const distinct = new Set<string>();
        for (const v of vs) {
          if (v === null || v === undefined || v === '') continue;
          distinct.add(String(v));
          if (distinct.size > MAX_CHOICES) break;
        }
        if (live) setChoices(distinct.size > MAX_CHOICES ? 'many' : [...distinct]);
      })
      .catch(() => live && setChoices('unknown'));
    return () => {
      live = false;
    };
  }, [src, sizes]);
  if (choices === null) return <p className="field-hint">Reading the column's values…</p>;
  if (choices === 'unknown') return <p className="field-error">This column's values could not be read here, so they cannot be ticked.</p>;
  if (choices === 'many')
    return (
      <p className="field-error">
        This column has more than {MAX_CHOICES} different values, too many to tick: filter a column of fewer values, or of numbers or dates.
      </p>
    );
  const listed = Array.isArray(step.value) ? step.value.map(String) : [String(step.value)];
  const on = step.enabled === false || (step.operation !== '{}' && step.operation !== '}{');
  const kept = (v: string) => on || (step.operation === '{}' ? listed.includes(v) : !listed.includes(v));
  const keep = (values: string[]) => {
    const { enabled: _, ...rest } = step;
    onStep({ ...rest, operation: '{}', value: values });
  };
  const none = choices.every((v) => !kept(v));
  const errorId = `filter-values-${index}-error`;
  return (
    <fieldset className="data-step-values" aria-describedby={none ? errorId : undefined}>
      <legend className="field-label">Rows to keep</legend>
      <div className="button-row">
        <button type="button" className="secondary" onClick={() => keep(choices)}>
          Tick all
        </button>
        <button type="button" className="secondary" onClick={() => keep([])}>
          Untick all
        </button>
      </div>
      <ul className="data-step-choices">
        {choices.map((v) => (
          <li key={v}>
            <label>
              <input type="checkbox" checked={kept(v)} onChange={(e) => keep(choices.filter((c) => (c === v ? e.target.checked : kept(c))))} /> {v}
            </label>
          </li>
        ))}
      </ul>
      {none && (
        <p id={errorId} className="field-error">
          No value is ticked, so the chart draws nothing: tick the values whose rows to keep.
        </p>
      )}
    </fieldset>
  );
}

function SortStep(props: WithSteps) {
  const { trace, index, steps, columns, onChange } = props;
  const step = stepOf(trace, 'sort');
  const target = step && step.enabled !== false ? (typeof step.target === 'string' ? step.target : step.target === undefined ? 'x' : 'saved') : '';
  const groupSrc = roleSrc(trace, steps.group);
  // plotly sorts categories by where they first appear, which changes nothing drawn: only numbers and dates sort by the categories' role.
  const groupSorts = groupSrc !== undefined && columns.facts(groupSrc)?.kind !== 'category';
  const options = [
    { attr: steps.value, words: roleWords(props, steps.value) },
    ...(groupSorts ? [{ attr: steps.group, words: roleWords(props, steps.group) }] : []),
  ];
  const order = step?.order === 'descending' ? 'descending' : 'ascending';
  const set = (attr: string, o: string) => onChange((t) => withStep(t, 'sort', attr ? { type: 'sort', target: attr, order: o } : undefined));
  return (
    <fieldset className="data-step">
      <legend>Sort</legend>
      <div className="field">
        <label htmlFor={`sort-by-${index}`}>Sort by</label>
        <select id={`sort-by-${index}`} value={target} onChange={(e) => set(e.target.value, order)}>
          <option value="">None (in the data's order)</option>
          {options.map((o) => (
            <option key={o.attr} value={o.attr}>
              {o.words}
            </option>
          ))}
          {target && !options.some((o) => o.attr === target) && (
            <option value={target}>{target === 'saved' ? 'A column saved with the chart' : target} (as saved)</option>
          )}
        </select>
      </div>
      {target && (
        <div className="field">
          <label htmlFor={`sort-order-${index}`}>Order</label>
          <select id={`sort-order-${index}`} value={order} onChange={(e) => onChange((t) => withStep(t, 'sort', { ...step, order: e.target.value }))}>
            <option value="ascending">Smallest first</option>
            <option value="descending">Largest first</option>
          </select>
        </div>
      )}
    </fieldset>
  );
}
