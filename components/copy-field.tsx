'use client';
// A labelled read-only value (share link, embed code) with a Copy button. The result is announced
// in a live region, so screen reader users hear that the copy worked.
import { useEffect, useRef, useState } from 'react';

export interface CopyFieldProps {
  id: string;
  label: string;
  value: string;
  /** Extra words under the field (who the link works for). */
  hint?: string;
}

export function CopyField({ id, label, value, hint }: CopyFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(''), 2500);
    return () => clearTimeout(timer);
  }, [status]);

  async function copy() {
    try {
      // navigator.clipboard only exists on secure origins (https or localhost).
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(value);
      setStatus('Copied');
    } catch {
      // Leave the text selected so the visitor can copy it with the keyboard instead.
      input.current?.focus();
      input.current?.select();
      setStatus('Press Ctrl+C (⌘C) to copy');
    }
  }

  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field-row">
        <input ref={input} id={id} type="text" readOnly value={value} spellCheck={false} aria-describedby={hintId} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="secondary" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </button>
      </div>
      {hint && (
        <p id={hintId} className="copy-field-hint">
          {hint}
        </p>
      )}
      <p className="copy-field-status" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
