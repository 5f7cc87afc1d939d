'use client';
// The chart editor's Style panels: the layout's (axes, legend, colours, fonts, margins, size,
// annotations, theme) and one trace's, grouped as react-chart-editor's Style panels group them
// (src/default_panels/Style*Panel.js). Every control reads the figure by its plotly path and reports
// one change for one path; undefined removes the attribute, back to plotly's (or the theme's) default.
import { type JSX, useState } from 'react';
import { COLORSCALE_TRACE_TYPES, NO_LEGEND_TRACE_TYPES, NO_OPACITY_TRACE_TYPES } from '@/lib/shared/figures/trace-facts.generated';
import { getIn } from '../figure-path';
import { AnnotationList } from './annotation-list';
import { type AxisRef, figureAxes } from './axes';
import { CheckboxField, ColorField, Fold, Group, Hint, NumberField, Section, SelectField, Swatches, TextField } from './fields';
import {
  AXIS_TYPES,
  BAR_MODE_TYPES,
  BAR_MODES,
  BAR_TYPES,
  BOUNDS,
  BOX_POINTS,
  BOX_TYPES,
  COLORSCALES,
  DASHED_TYPES,
  FILLS,
  FINANCE_TYPES,
  FONT_FAMILIES,
  LEGEND_PRESETS,
  LINE_DASHES,
  LINE_SHAPES_BY_TYPE,
  MARKER_SYMBOLS,
  MARKER_SYMBOLS_3D,
  MAX_ANNOTATIONS,
  type Option,
  PALETTES,
  PLOTLY_DEFAULTS,
  SCATTER_MODES,
  SCATTER_TYPES,
  SYMBOL_TYPES,
  TICK_FORMATS,
} from './options';
import { RangeFields } from './range-fields';
import styles from './style-panels.module.css';
import { THEMES } from '@/lib/shared/figures/builtin-themes';
import { themeOf } from './themes';
import { isDeepStrictEqual, isFixedSize, layoutWithSize, legendPresetOf, legendWithPreset } from './values';

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

const PALETTE_OPTIONS: Option<string[]>[] = PALETTES.map(({ label, value }) => ({ label, value }));
const THEME_OPTIONS: Option<string>[] = THEMES.map((t) => ({ label: t.label, value: t.key }));

const NONE: Record<string, unknown> = Object.freeze({});
const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : NONE);
const bool = (v: unknown, dflt: boolean) => (typeof v === 'boolean' ? v : dflt);
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

type TraceProps = { trace: Record<string, unknown>; path: string; fallback: string; onChange: Change };

/** A colour field for `attr`, or a note when a column colours it point by point. */
function TraceColor({ trace, path, attr, label, fallback, onChange }: TraceProps & { attr: string; label: string }) {
  if (getIn(trace, `${attr}src`) !== undefined) return <Hint>{label}: set by a data column.</Hint>;
  return <ColorField label={label} value={getIn(trace, attr)} fallback={fallback} onChange={(v) => onChange(`${path}.${attr}`, v)} />;
}

/** The colour plotly gives a trace that sets none: the next of the palette (the layout's, the theme's, plotly's). */
function traceFallback(figure: FigureLike, index: number): string {
  const palette = [figure.layout.colorway, getIn(figure.layout, 'template.layout.colorway')].find((p) => Array.isArray(p) && p.length) as string[] | undefined;
  const colors = palette ?? PLOTLY_DEFAULTS.colorway;
  return colors[index % colors.length];
}

function ScatterFields({ trace, path, type, fallback, onChange }: TraceProps & { type: string }) {
  const at = (attr: string) => getIn(trace, attr);
  const set = (attr: string) => (v: unknown) => onChange(`${path}.${attr}`, v);
  return (
    <>
      <SelectField label="Mode" value={at('mode')} options={SCATTER_MODES} empty="Auto" onChange={set('mode')} />
      <Group title="Line">
        <TraceColor trace={trace} path={path} fallback={fallback} attr="line.color" label="Line colour" onChange={onChange} />
        <NumberField label="Line width" value={at('line.width')} bounds={BOUNDS.lineWidth} placeholder="2" onChange={set('line.width')} />
        {DASHED_TYPES.includes(type) && (
          <SelectField label="Line style" value={at('line.dash')} options={LINE_DASHES} dflt="solid" onChange={set('line.dash')} />
        )}
        {LINE_SHAPES_BY_TYPE[type] && (
          <SelectField label="Line shape" value={at('line.shape')} options={LINE_SHAPES_BY_TYPE[type]} dflt="linear" onChange={set('line.shape')} />
        )}
      </Group>
      <Group title="Markers">
        <TraceColor trace={trace} path={path} fallback={fallback} attr="marker.color" label="Marker colour" onChange={onChange} />
        {at('marker.colorsrc') !== undefined && (
          <SelectField label="Marker colour scale" value={at('marker.colorscale')} options={COLORSCALES} empty="Default" onChange={set('marker.colorscale')} />
        )}
        {at('marker.sizesrc') === undefined ? (
          <NumberField label="Marker size" value={at('marker.size')} bounds={BOUNDS.markerSize} placeholder="6" onChange={set('marker.size')} />
        ) : (
          <Hint>Marker size: set by a data column.</Hint>
        )}
        {SYMBOL_TYPES.includes(type) && (
          <SelectField
            label="Marker symbol"
            value={at('marker.symbol')}
            options={type === 'scatter3d' ? MARKER_SYMBOLS_3D : MARKER_SYMBOLS}
            dflt="circle"
            onChange={set('marker.symbol')}
          />
        )}
      </Group>
      {FILLS[type] && <SelectField label="Fill" value={at('fill')} options={FILLS[type]} dflt="none" onChange={set('fill')} />}
    </>
  );
}

export function TraceStylePanel({ figure, index, onChange }: Props & { index: number }): JSX.Element {
  const trace = figure.data[index] ?? {};
  const type = typeof trace.type === 'string' ? trace.type : 'scatter';
  const path = `data.${index}`;
  const at = (attr: string) => getIn(trace, attr);
  const set = (attr: string) => (v: unknown) => onChange(`${path}.${attr}`, v);
  const fallback = traceFallback(figure, index);
  return (
    <div className={styles.panels}>
      <div className={styles.trace}>
        <TextField label="Trace name" value={at('name')} onChange={set('name')} />
        {!NO_OPACITY_TRACE_TYPES.includes(type) && (
          <NumberField label="Opacity" value={at('opacity')} bounds={BOUNDS.opacity} placeholder="1" onChange={set('opacity')} />
        )}
        {!NO_LEGEND_TRACE_TYPES.includes(type) && <CheckboxField label="Show in legend" checked={bool(at('showlegend'), true)} onChange={set('showlegend')} />}
        {SCATTER_TYPES.includes(type) && <ScatterFields trace={trace} path={path} type={type} fallback={fallback} onChange={onChange} />}
        {BAR_TYPES.includes(type) && <TraceColor trace={trace} path={path} fallback={fallback} attr="marker.color" label="Bar colour" onChange={onChange} />}
        {BAR_MODE_TYPES.includes(type) && (
          <Group title="All bars">
            <SelectField label="Bar mode" value={figure.layout.barmode} options={BAR_MODES} dflt="group" onChange={(v) => onChange('layout.barmode', v)} />
            <NumberField
              label="Gap between bars (0 to 1)"
              value={figure.layout.bargap}
              bounds={BOUNDS.fraction}
              onChange={(v) => onChange('layout.bargap', v)}
            />
          </Group>
        )}
        {BOX_TYPES.includes(type) && (
          <>
            <TraceColor trace={trace} path={path} fallback={fallback} attr="marker.color" label="Colour" onChange={onChange} />
            <SelectField
              label="Points shown"
              value={at(type === 'box' ? 'boxpoints' : 'points')}
              options={BOX_POINTS}
              dflt="outliers"
              onChange={set(type === 'box' ? 'boxpoints' : 'points')}
            />
          </>
        )}
        {type === 'pie' && (
          <>
            <NumberField label="Donut hole (0 to 0.95)" value={at('hole')} bounds={BOUNDS.hole} placeholder="0" onChange={set('hole')} />
            <SelectField
              label="Slice colours"
              value={figure.layout.piecolorway}
              options={PALETTE_OPTIONS}
              empty="Default (the chart's palette)"
              onChange={(v) => onChange('layout.piecolorway', v)}
            />
            <Swatches colors={figure.layout.piecolorway} />
          </>
        )}
        {COLORSCALE_TRACE_TYPES.includes(type) && (
          <>
            <SelectField label="Colour scale" value={at('colorscale')} options={COLORSCALES} empty="Default" onChange={set('colorscale')} />
            <CheckboxField label="Reverse colour scale" checked={bool(at('reversescale'), false)} onChange={set('reversescale')} />
            <CheckboxField label="Show colour scale" checked={bool(at('showscale'), true)} onChange={set('showscale')} />
          </>
        )}
        {FINANCE_TYPES.includes(type) && (
          <>
            <ColorField
              label="Rising colour"
              value={at('increasing.line.color')}
              fallback={PLOTLY_DEFAULTS.increasing}
              onChange={set('increasing.line.color')}
            />
            <ColorField
              label="Falling colour"
              value={at('decreasing.line.color')}
              fallback={PLOTLY_DEFAULTS.decreasing}
              onChange={set('decreasing.line.color')}
            />
          </>
        )}
      </div>
    </div>
  );
}
