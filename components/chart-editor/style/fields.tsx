'use client';
// The style panels' labelled controls. Each shows the figure's current value and reports a change
// as one value for one plotly path; a typed value is checked first and, when plotly could not use
// it, stays in the field with a message under it while the figure keeps its last good value.
import { type ReactNode, useId, useState } from 'react';
import type { Option } from './options';
import styles from './style-panels.module.css';
import { colorToHex, isDeepStrictEqual, type Parsed, parseColorText, parseNumberText } from './values';

export function Section({ title, open, children }: { title: string; open?: boolean; children: ReactNode }) {
  return (
    <details className={styles.section} open={open}>
      <summary className={styles.summary}>{title}</summary>
      <div className={styles.body}>{children}</div>
    </details>
  );
}

export function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.groupTitle}>{title}</legend>
      {children}
    </fieldset>
  );
}

/** A collapsible group inside a section (one axis of many). */
export function Fold({ title, open, children }: { title: string; open?: boolean; children: ReactNode }) {
  return (
    <details className={styles.fold} open={open}>
      <summary className={styles.foldTitle}>{title}</summary>
      <div className={styles.foldBody}>{children}</div>
    </details>
  );
}

export function Hint({ children }: { children: ReactNode }) {
  return <p className={styles.hint}>{children}</p>;
}

function ErrorText({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className={styles.error} role="alert">
      {error}
    </p>
  ) : null;
}

export function TextField({ label, value, onChange }: { label: string; value: unknown; onChange: (v: string | undefined) => void }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
        onChange={(e) => onChange(e.target.value || undefined)}
      />
    </div>
  );
}

/**
 * The text a person is typing, kept while it is not (yet) a value plotly accepts, and replaced by
 * the figure's value when that changes from elsewhere (undo, the expert view).
 */
function useDraft<T>(value: unknown, format: (v: unknown) => string, parse: (text: string) => Parsed<T>, commit: (v: T) => void) {
  const [draft, setDraft] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  const [error, setError] = useState<string>();
  if (!isDeepStrictEqual(seen, value)) {
    setSeen(value);
    const mine = parse(draft);
    if (mine.error !== undefined || !isDeepStrictEqual(mine.value, value)) {
      setDraft(format(value));
      setError(undefined);
    }
  }
  const change = (text: string) => {
    setDraft(text);
    const parsed = parse(text);
    setError(parsed.error);
    if (parsed.error === undefined) commit(parsed.value as T);
  };
  return { draft, error, change };
}

/** A text field for a value that must parse (`parse`) before it is written; '' is `parse`'s to decide. */
export function ParsedField<T>({
  label,
  value,
  format,
  parse,
  placeholder,
  inputMode,
  onChange,
}: {
  label: string;
  value: unknown;
  format: (v: unknown) => string;
  parse: (text: string) => Parsed<T>;
  placeholder?: string;
  inputMode?: 'decimal' | 'text';
  onChange: (v: T) => void;
}) {
  const id = useId();
  const { draft, error, change } = useDraft(value, format, parse, onChange);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode={inputMode}
        value={draft}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => change(e.target.value)}
      />
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

const formatNumber = (v: unknown) => (typeof v === 'number' ? String(v) : '');

/** A number within `bounds`; emptied, the attribute is removed (plotly's default, the placeholder). */
export function NumberField({
  label,
  value,
  bounds,
  placeholder = 'Auto',
  onChange,
}: {
  label: string;
  value: unknown;
  bounds: { readonly min: number; readonly max: number };
  placeholder?: string;
  onChange: (v: number | undefined) => void;
}) {
  return (
    <ParsedField
      label={label}
      value={value}
      format={formatNumber}
      parse={(text) => parseNumberText(text, bounds)}
      placeholder={placeholder}
      inputMode="decimal"
      onChange={onChange}
    />
  );
}

const formatColor = (v: unknown) => (typeof v === 'string' ? v : '');

/** A colour: typed (any CSS colour plotly reads) or picked; `fallback` is what is drawn while none is set. */
export function ColorField({
  label,
  value,
  fallback,
  onChange,
}: {
  label: string;
  value: unknown;
  fallback?: unknown;
  onChange: (v: string | undefined) => void;
}) {
  const id = useId();
  const { draft, error, change } = useDraft(value, formatColor, parseColorText, onChange);
  // A list of colours (one a point) is not one colour to edit here; anything else unreadable is replaced by what is typed.
  if (Array.isArray(value)) {
    return (
      <div className={styles.field}>
        <span className={styles.label}>{label}</span>
        <Hint>Set point by point (kept as it is).</Hint>
      </div>
    );
  }
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <div className={styles.color}>
        <input
          type="color"
          value={colorToHex(value ?? fallback)}
          aria-label="Pick colour"
          aria-describedby={`${id}-label`}
          title="Pick colour"
          onChange={(e) => change(e.target.value)}
        />
        <input
          id={id}
          type="text"
          value={draft}
          placeholder="Default"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => change(e.target.value)}
        />
      </div>
      <span id={`${id}-label`} hidden>
        {label}
      </span>
      <ErrorText id={`${id}-error`} error={error} />
    </div>
  );
}

/**
 * A choice among `options`. `empty` names the attribute removed (plotly's default), or `dflt` is the
 * option plotly uses when the attribute is missing (choosing it removes the attribute). A value none
 * of the options is (set by a client or the expert view) shows as "Custom" and is kept until changed.
 */
export function SelectField<T>({
  label,
  value,
  options,
  empty,
  dflt,
  onChange,
}: {
  label: string;
  value: unknown;
  options: readonly Option<T>[];
  empty?: string;
  dflt?: T;
  onChange: (v: T | undefined) => void;
}) {
  const id = useId();
  const shown = value === undefined ? dflt : value;
  const index = options.findIndex((o) => isDeepStrictEqual(o.value, shown));
  const current = index >= 0 ? String(index) : shown === undefined ? '' : 'custom';
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={current}
        onChange={(e) => {
          const chosen = e.target.value === '' ? undefined : options[Number(e.target.value)]?.value;
          if (e.target.value !== 'custom') onChange(dflt !== undefined && isDeepStrictEqual(chosen, dflt) ? undefined : chosen);
        }}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {current === 'custom' && <option value="custom">Custom (kept as it is)</option>}
        {options.map((o, i) => (
          <option key={o.label} value={String(i)}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CheckboxField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className={styles.check}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function Swatches({ colors }: { colors: unknown }) {
  if (!Array.isArray(colors)) return null;
  return (
    <div className={styles.swatches} aria-hidden="true">
      {colors
        .filter((c): c is string => typeof c === 'string')
        .map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: colours repeat in a palette; their place is their identity
          <span key={i} className={styles.swatch} style={{ background: colorToHex(c) }} />
        ))}
    </div>
  );
}
