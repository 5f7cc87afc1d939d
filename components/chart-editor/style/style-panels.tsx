'use client';
// The chart editor's Style panels of the layout (axes, legend, colours, fonts, margins, size,
// annotations, theme), grouped as react-chart-editor's Style panels group them
// (src/default_panels/Style*Panel.js); one trace's panel is trace-style-panel.tsx. Every control
// reads the figure by its plotly path and reports one change for one path; undefined removes the
// attribute, back to plotly's (or the theme's) default.
import { type JSX, useState } from 'react';
import { THEMES } from '@/lib/shared/figures/builtin-themes';
import { getIn } from '../figure-path';
import { AnnotationList } from './annotation-list';
import { type AxisRef, figureAxes } from './axes';
import { CheckboxField, ColorField, Fold, Hint, NumberField, Section, SelectField, Swatches, TextField } from './fields';
import { AXIS_TYPES, BOUNDS, FONT_FAMILIES, LEGEND_PRESETS, MAX_ANNOTATIONS, type Option, PALETTE_OPTIONS, PLOTLY_DEFAULTS, TICK_FORMATS } from './options';
import { RangeFields } from './range-fields';
import styles from './style-panels.module.css';
import { themeOf } from './themes';
import { bool, isDeepStrictEqual, isFixedSize, layoutWithSize, legendPresetOf, legendWithPreset } from './values';

export interface FigureLike {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}
export type Change = (path: string, value: unknown) => void;

type Props = { figure: FigureLike; onChange: Change };

/** The person's own themes (saved plots), offered after the built-in ones. */
export interface OwnThemes {
  themes: { fid: string; name: string }[];
  /** Applies the theme at `fid` to the figure (an undoable edit); answers the template it applied. */
  apply: (fid: string) => Promise<unknown>;
}

const THEME_OPTIONS: Option<string>[] = THEMES.map((t) => ({ label: t.label, value: t.key }));

const NONE: Record<string, unknown> = Object.freeze({});
const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : NONE);
/** A title's text, whether written as {text} or (older figures) as the string itself. */
const titleText = (title: unknown) => (typeof title === 'string' ? title : getIn(title, 'text'));

function AxisFields({ figure, axis, open, onChange }: Props & { axis: AxisRef; open: boolean }) {
  const at = (key: string) => getIn(figure, `${axis.path}.${key}`);
  const obj = asRecord(getIn(figure, axis.path));
  const type = obj.type;
  const grid = bool(obj.showgrid, bool(getIn(figure, `${axis.templatePath}.showgrid`), true));
  return (
    <Fold title={axis.label} open={open}>
      <TextField
        label={`${axis.label} title`}
        value={titleText(obj.title)}
        onChange={(v) =>
          typeof obj.title === 'string' ? onChange(`${axis.path}.title`, v === undefined ? undefined : { text: v }) : onChange(`${axis.path}.title.text`, v)
        }
      />
      <SelectField
        label={`${axis.label} type`}
        value={type === '-' ? undefined : type}
        options={AXIS_TYPES}
        empty="Auto"
        onChange={(v) => onChange(`${axis.path}.type`, v)}
      />
      <RangeFields label={axis.label} axis={obj} onChange={(v) => onChange(axis.path, v)} />
      <CheckboxField label={`Show ${axis.label} grid`} checked={grid} onChange={(v) => onChange(`${axis.path}.showgrid`, v)} />
      <SelectField
        label={`${axis.label} tick format`}
        value={at('tickformat')}
        options={TICK_FORMATS}
        empty="Auto"
        onChange={(v) => onChange(`${axis.path}.tickformat`, v)}
      />
    </Fold>
  );
}

function AxesSection({ figure, onChange }: Props) {
  const axes = figureAxes(figure);
  return (
    <Section title="Axes" open>
      {/* A chart of many subplots lists many axes: each folds, the first two (x and y) open. */}
      {axes.length ? (
        axes.map((axis, i) => <AxisFields key={axis.path} figure={figure} axis={axis} open={i < 2} onChange={onChange} />)
      ) : (
        <Hint>This chart type has no axes.</Hint>
      )}
    </Section>
  );
}

/** plotly.js shows a legend when there is more than one trace, or any pie-like trace. */
function legendShownByDefault(figure: FigureLike): boolean {
  return figure.data.length > 1 || figure.data.some((t) => ['pie', 'funnelarea', 'sunburst', 'treemap', 'icicle'].includes(String(t.type)));
}

function LegendSection({ figure, onChange }: Props) {
  const { layout } = figure;
  const shown = bool(layout.showlegend, bool(getIn(layout, 'template.layout.showlegend'), legendShownByDefault(figure)));
  const preset = legendPresetOf(layout.legend);
  return (
    <Section title="Legend">
      <CheckboxField label="Show legend" checked={shown} onChange={(v) => onChange('layout.showlegend', v)} />
      <SelectField
        label="Legend position"
        value={preset === 'custom' ? layout.legend : preset}
        options={LEGEND_PRESETS}
        onChange={(v) => onChange('layout.legend', legendWithPreset(layout.legend, v ?? 'right'))}
      />
      <TextField label="Legend title" value={titleText(getIn(layout, 'legend.title'))} onChange={(v) => onChange('layout.legend.title.text', v)} />
    </Section>
  );
}

function ColoursSection({ figure, onChange }: Props) {
  const { layout } = figure;
  return (
    <Section title="Colours">
      <SelectField
        label="Palette"
        value={layout.colorway}
        options={PALETTE_OPTIONS}
        empty="Default (the theme's)"
        onChange={(v) => onChange('layout.colorway', v)}
      />
      <Swatches colors={layout.colorway} />
      <ColorField
        label="Plot background"
        value={layout.plot_bgcolor}
        fallback={getIn(layout, 'template.layout.plot_bgcolor') ?? PLOTLY_DEFAULTS.background}
        onChange={(v) => onChange('layout.plot_bgcolor', v)}
      />
      <ColorField
        label="Paper background"
        value={layout.paper_bgcolor}
        fallback={getIn(layout, 'template.layout.paper_bgcolor') ?? PLOTLY_DEFAULTS.background}
        onChange={(v) => onChange('layout.paper_bgcolor', v)}
      />
    </Section>
  );
}

function FontsSection({ figure, onChange }: Props) {
  const { layout } = figure;
  return (
    <Section title="Fonts">
      <SelectField
        label="Font"
        value={getIn(layout, 'font.family')}
        options={FONT_FAMILIES}
        empty="Default"
        onChange={(v) => onChange('layout.font.family', v)}
      />
      <NumberField
        label="Font size"
        value={getIn(layout, 'font.size')}
        bounds={BOUNDS.fontSize}
        placeholder="12"
        onChange={(v) => onChange('layout.font.size', v)}
      />
      <ColorField
        label="Font colour"
        value={getIn(layout, 'font.color')}
        fallback={getIn(layout, 'template.layout.font.color') ?? PLOTLY_DEFAULTS.font}
        onChange={(v) => onChange('layout.font.color', v)}
      />
      <NumberField
        label="Title font size"
        value={getIn(layout, 'title.font.size')}
        bounds={BOUNDS.fontSize}
        onChange={(v) =>
          // A title written as a plain string keeps its text when it gains a font.
          typeof layout.title === 'string' ? onChange('layout.title', { text: layout.title, font: { size: v } }) : onChange('layout.title.font.size', v)
        }
      />
    </Section>
  );
}

const MARGINS = [
  ['l', 'Left margin'],
  ['r', 'Right margin'],
  ['t', 'Top margin'],
  ['b', 'Bottom margin'],
] as const;

function MarginsSection({ figure, onChange }: Props) {
  const margin = figure.layout.margin;
  return (
    <Section title="Margins">
      <div className={styles.grid}>
        {MARGINS.map(([key, label]) => (
          <NumberField key={key} label={label} value={getIn(margin, key)} bounds={BOUNDS.margin} onChange={(v) => onChange(`layout.margin.${key}`, v)} />
        ))}
      </div>
      <button type="button" className={styles.button} disabled={margin === undefined} onClick={() => onChange('layout.margin', undefined)}>
        Automatic margins
      </button>
    </Section>
  );
}

const SIZES: Option<boolean>[] = [
  { label: 'Responsive (fits the page)', value: false },
  { label: 'Fixed width and height', value: true },
];

function SizeSection({ figure, onChange }: Props) {
  const { layout } = figure;
  const fixed = isFixedSize(layout);
  return (
    <Section title="Size">
      <SelectField label="Chart size" value={fixed} options={SIZES} onChange={(v) => onChange('layout', layoutWithSize(layout, v === true))} />
      {fixed && (
        <div className={styles.grid}>
          <NumberField label="Width (px)" value={layout.width} bounds={BOUNDS.side} placeholder="700" onChange={(v) => onChange('layout.width', v)} />
          <NumberField label="Height (px)" value={layout.height} bounds={BOUNDS.side} placeholder="450" onChange={(v) => onChange('layout.height', v)} />
        </div>
      )}
    </Section>
  );
}

function AnnotationsSection({ figure, onChange }: Props) {
  const list = Array.isArray(figure.layout.annotations) ? figure.layout.annotations : [];
  return (
    <Section title="Annotations">
      <AnnotationList annotations={list} max={MAX_ANNOTATIONS} onChange={(path, v) => onChange(`layout.annotations${path}`, v)} />
    </Section>
  );
}

function ThemeSection({ figure, onChange, own }: Props & { own?: OwnThemes }) {
  const [applied, setApplied] = useState<{ fid: string; template: unknown } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const template = figure.layout.template;
  const key = themeOf(template);
  const mine = key === 'custom' && applied && isDeepStrictEqual(applied.template, template) ? applied.fid : null;
  const options: Option<string>[] = [...THEME_OPTIONS, ...(own?.themes ?? []).map((t) => ({ label: `Yours: ${t.name}`, value: t.fid }))];
  async function choose(value: string | undefined) {
    setProblem(null);
    const builtin = THEMES.find((t) => t.key === value);
    if (builtin || !own || value === undefined) {
      onChange('layout.template', builtin?.template);
      return;
    }
    setLoading(true);
    try {
      setApplied({ fid: value, template: await own.apply(value) });
    } catch {
      setProblem('That theme could not be loaded (it may have been deleted); nothing changed.');
    } finally {
      setLoading(false);
    }
  }
  return (
    <Section title="Theme">
      <SelectField label="Theme" value={mine ?? (key === 'custom' ? template : key)} options={options} onChange={choose} />
      {loading && <Hint>Loading the theme…</Hint>}
      {problem && (
        <p role="alert" className={styles.error}>
          {problem}
        </p>
      )}
      <Hint>
        A theme sets defaults (backgrounds, grid, colours, each trace type&rsquo;s look); what you set above wins over it. Save one of your charts&rsquo;
        styling as a theme on its page (&ldquo;Save as theme&rdquo;).
      </Hint>
    </Section>
  );
}

export function LayoutStylePanels({ figure, onChange, own }: Props & { own?: OwnThemes }): JSX.Element {
  return (
    <div className={styles.panels}>
      <AxesSection figure={figure} onChange={onChange} />
      <LegendSection figure={figure} onChange={onChange} />
      <ColoursSection figure={figure} onChange={onChange} />
      <FontsSection figure={figure} onChange={onChange} />
      <MarginsSection figure={figure} onChange={onChange} />
      <SizeSection figure={figure} onChange={onChange} />
      <AnnotationsSection figure={figure} onChange={onChange} />
      <ThemeSection figure={figure} onChange={onChange} own={own} />
    </div>
  );
}
