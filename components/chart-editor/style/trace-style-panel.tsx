'use client';
// The chart editor's Style panel of one trace, grouped as react-chart-editor's StyleTracesPanel groups
// it: name, opacity, legend, then what the trace's type draws with (lines and markers, bars, boxes,
// slices, colour scales, rising and falling colours). Each control reports one change for one path.
import { COLORSCALE_TRACE_TYPES, NO_LEGEND_TRACE_TYPES, NO_OPACITY_TRACE_TYPES } from '@/lib/shared/figures/trace-facts.generated';
import type { JSX } from 'react';
import { getIn } from '../figure-path';
import { CheckboxField, ColorField, Group, Hint, NumberField, SelectField, Swatches, TextField } from './fields';
import {
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
  LINE_DASHES,
  LINE_SHAPES_BY_TYPE,
  MARKER_SYMBOLS,
  MARKER_SYMBOLS_3D,
  PALETTE_OPTIONS,
  PLOTLY_DEFAULTS,
  SCATTER_MODES,
  SCATTER_TYPES,
  SYMBOL_TYPES,
} from './options';
import type { Change, FigureLike } from './style-panels';
import styles from './style-panels.module.css';
import { bool } from './values';

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

export function TraceStylePanel({ figure, index, onChange }: { figure: FigureLike; index: number; onChange: Change }): JSX.Element {
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
