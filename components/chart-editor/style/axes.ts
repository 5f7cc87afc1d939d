// Which axes a figure draws, so the Axes panel offers exactly those: the cartesian axes its traces
// name (xaxis 'x2' is layout.xaxis2) or its layout sets, then each 3D scene's three axes.
import { SCENE_TRACE_TYPES, XY_TRACE_TYPES } from '@/lib/shared/figures/trace-facts.generated';

export interface AxisRef {
  /** The plotly path of the axis object: 'layout.xaxis2', 'layout.scene.zaxis'. */
  path: string;
  /** Where a theme (layout.template) sets this axis's defaults: one 'xaxis' for every x axis. */
  templatePath: string;
  /** What the fields are called: 'X axis', 'Y axis 2', '3D Z axis', '3D scene 2 X axis'. */
  label: string;
}

const CARTESIAN_KEY = /^([xy])axis([2-9]|[1-9]\d+)?$/;
const SCENE_KEY = /^scene([2-9]|[1-9]\d+)?$/;

const str = (v: unknown, dflt: string) => (typeof v === 'string' && v ? v : dflt);
/** Axis number: 1 for 'xaxis', 12 for 'xaxis12'. */
const numberOf = (key: string) => Number(key.replace(/^\D+/, '') || 1);

export function figureAxes(figure: { data: Record<string, unknown>[]; layout: Record<string, unknown> }): AxisRef[] {
  const cartesian = new Set<string>();
  const scenes = new Set<string>();
  for (const trace of figure.data) {
    const type = str(trace.type, 'scatter');
    if (XY_TRACE_TYPES.includes(type)) {
      cartesian.add(`xaxis${str(trace.xaxis, 'x').slice(1)}`);
      cartesian.add(`yaxis${str(trace.yaxis, 'y').slice(1)}`);
    } else if (SCENE_TRACE_TYPES.includes(type)) scenes.add(str(trace.scene, 'scene'));
  }
  // A chart with no traces yet is drawn with plotly's default axes.
  if (!figure.data.length) for (const key of ['xaxis', 'yaxis']) cartesian.add(key);
  for (const key of Object.keys(figure.layout)) {
    if (CARTESIAN_KEY.test(key)) cartesian.add(key);
    else if (SCENE_KEY.test(key)) scenes.add(key);
  }
  const valid = (key: string) => CARTESIAN_KEY.test(key) || SCENE_KEY.test(key);
  const byNumber = (a: string, b: string) => numberOf(a) - numberOf(b) || a.localeCompare(b);
  const out: AxisRef[] = [...cartesian]
    .filter(valid)
    .sort(byNumber)
    .map((key) => {
      const n = numberOf(key);
      return { path: `layout.${key}`, templatePath: `layout.template.layout.${key[0]}axis`, label: `${key[0].toUpperCase()} axis${n > 1 ? ` ${n}` : ''}` };
    });
  for (const scene of [...scenes].filter(valid).sort(byNumber)) {
    const n = numberOf(scene);
    for (const axis of ['xaxis', 'yaxis', 'zaxis'] as const) {
      out.push({
        path: `layout.${scene}.${axis}`,
        templatePath: `layout.template.layout.scene.${axis}`,
        label: `3D${n > 1 ? ` scene ${n}` : ''} ${axis[0].toUpperCase()} axis`,
      });
    }
  }
  return out;
}
