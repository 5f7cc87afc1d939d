'use client';
// The editors' one list of problems (chart editor, grid editor, dashboard builder, after a refused
// save or a refused edit): shown as an alert, and, after a save, taking the focus so that screen
// readers read it and Tab goes on to the controls.
import { useEffect, useRef } from 'react';
import './problems-summary.css';

export interface ProblemsSummaryProps {
  /** Each problem in words. */
  problems: string[];
  /** What the list is about ("Not saved…"): the problems follow as a list; without it, each is a sentence. */
  lead?: string;
  /** Whether the list takes the focus when it appears (off where the person is typing on). */
  takeFocus?: boolean;
}

export const NOT_SAVED = 'Not saved: nothing was lost. Fix what is marked and save again.';

export function ProblemsSummary({ problems, lead, takeFocus = true }: ProblemsSummaryProps) {
  const box = useRef<HTMLDivElement>(null);
  const said = problems.join('\n');
  useEffect(() => {
    if (takeFocus && said) box.current?.focus();
  }, [said, takeFocus]);
  if (!problems.length) return null;
  return (
    <div className="editor-problems" role="alert" tabIndex={takeFocus ? -1 : undefined} ref={box}>
      {lead ? (
        <>
          <p>{lead}</p>
          <ul>
            {problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list as it came
              <li key={i}>{p}</li>
            ))}
          </ul>
        </>
      ) : (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list as it came
        problems.map((p, i) => <p key={i}>{p}</p>)
      )}
    </div>
  );
}
