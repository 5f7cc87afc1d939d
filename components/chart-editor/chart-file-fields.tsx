'use client';
// The owner's fields of the chart's file in the editor: its Name (a new chart's is its title's when
// left empty, numbered when taken) and its Sharing, each with its hint and the save's problem at it.
import { MAX_FILENAME_CHARS } from '@/lib/shared/limits';
import { type Visibility, visibilityHint } from '@/lib/shared/sharing';

const SHARING: { value: Visibility; label: string }[] = [
  { value: 'public', label: 'Public' },
  { value: 'private', label: 'Private' },
  { value: 'secret', label: 'Secret' },
];

interface ChartFileFieldsProps {
  isNew: boolean;
  filename: string;
  onFilename: (name: string) => void;
  sharing: Visibility;
  onSharing: (sharing: Visibility) => void;
  /** The name a new chart gets when the field is left empty. */
  placeholder: string;
  problemAt: (place: string) => string | undefined;
}

export function ChartFileFields({ isNew, filename, onFilename, sharing, onSharing, placeholder, problemAt }: ChartFileFieldsProps) {
  const nameProblem = problemAt('filename');
  return (
    <>
      <div className={`field${nameProblem ? ' has-error' : ''}`}>
        <label htmlFor="chart-name">Name</label>
        <input
          id="chart-name"
          type="text"
          value={filename}
          placeholder={isNew ? placeholder : undefined}
          maxLength={MAX_FILENAME_CHARS}
          onChange={(e) => onFilename(e.target.value)}
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={nameProblem ? 'chart-name-hint chart-name-error' : 'chart-name-hint'}
        />
        <p id="chart-name-hint" className="field-hint">
          {isNew ? 'The file’s name in your files: the title’s when left empty, numbered when taken.' : 'The file’s name in your files.'}
        </p>
        {nameProblem && (
          <p id="chart-name-error" className="field-error">
            {nameProblem}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="chart-sharing">Sharing</label>
        <select
          id="chart-sharing"
          value={sharing}
          onChange={(e) => onSharing(e.target.value as Visibility)}
          aria-describedby="chart-sharing-hint"
          aria-invalid={problemAt('world_readable') || problemAt('share_key_enabled') ? true : undefined}
        >
          {SHARING.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <p id="chart-sharing-hint" className="field-hint">
          {sharing === 'public'
            ? 'Anyone can see the chart and the data it draws (only the columns it uses; the rest of your data stays as it is shared).'
            : `${visibilityHint(sharing, { noun: 'chart', own: true })} Your public grids it draws from become private too, unless a public chart of yours uses them.`}
        </p>
      </div>
    </>
  );
}
