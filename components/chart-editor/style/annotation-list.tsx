'use client';
// The chart's annotations (layout.annotations): each one's text, where it is placed (on the chart
// area, 0 to 1, or at data values), its position and arrow; add and remove. Paths are relative to
// layout.annotations: '' is the whole list, '.2.text' one annotation's text.
import { CheckboxField, Group, Hint, ParsedField, SelectField, TextField } from './fields';
import type { Option } from './options';
import styles from './style-panels.module.css';
import { annotationPlace, formatPosition, parsePosition, placedAnnotation } from './values';

type Change = (path: string, value: unknown) => void;

const PLACES: Option[] = [
  { label: 'The data (axis values)', value: 'data' },
  { label: 'The chart area (0 to 1)', value: 'paper' },
];

/** What "Add annotation" adds: a note in the middle of the chart area, without an arrow. */
const NEW_ANNOTATION = { text: 'Note', xref: 'paper', yref: 'paper', x: 0.5, y: 0.5, showarrow: false };

export function AnnotationList({ annotations, max, onChange }: { annotations: unknown[]; max: number; onChange: Change }) {
  return (
    <>
      {annotations.map((a, i) => {
        const ann = (a && typeof a === 'object' ? a : {}) as Record<string, unknown>;
        const n = i + 1;
        const place = annotationPlace(ann);
        const set = (key: string) => (v: unknown) => onChange(`.${i}.${key}`, v);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: annotations have no identity but their place in the list
          <Group key={i} title={`Annotation ${n}`}>
            <TextField label={`Annotation ${n} text`} value={ann.text} onChange={set('text')} />
            <SelectField
              label={`Annotation ${n} placed on`}
              value={place}
              options={PLACES}
              onChange={(v) => onChange(`.${i}`, placedAnnotation(ann, v ?? 'data'))}
            />
            <div className={styles.grid}>
              <ParsedField
                label={`Annotation ${n} x`}
                value={ann.x}
                format={formatPosition}
                parse={(text) => parsePosition(text, place)}
                placeholder="Auto"
                onChange={set('x')}
              />
              <ParsedField
                label={`Annotation ${n} y`}
                value={ann.y}
                format={formatPosition}
                parse={(text) => parsePosition(text, place)}
                placeholder="Auto"
                onChange={set('y')}
              />
            </div>
            <CheckboxField label={`Annotation ${n} has an arrow`} checked={ann.showarrow !== false} onChange={set('showarrow')} />
            <button type="button" className={styles.button} onClick={() => onChange('', annotations.toSpliced(i, 1))}>
              Remove annotation {n}
            </button>
          </Group>
        );
      })}
      {annotations.length >= max ? (
        <Hint>A chart draws at most {max} annotations.</Hint>
      ) : (
        <button type="button" className={styles.button} onClick={() => onChange('', [...annotations, NEW_ANNOTATION])}>
          Add annotation
        </button>
      )}
    </>
  );
}
