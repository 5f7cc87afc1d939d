// Themes and templates as figures, pure (no database; the chart editor uses them in the browser too).
// A theme is plotly's own template format, `{data: {type: [trace style...]}, layout: {...}}`, kept in
// a theme plot's `layout.template`: a chart's styling with nothing that says what it draws (no srcs,
// no titles' text, no annotations, no ranges). A template is a whole chart whose srcs keep their
// column roles: each src's path and the columns it named (name, place, kind), so that a new grid's
// columns can take the same roles. Imports nothing: the browser's bundle takes it as it is.

type Obj = Record<string, unknown>;
type Path = (string | number)[];

export interface ThemeTemplate {
  data?: Record<string, Obj[]>;
  layout?: Obj;
}

export interface Figure {
  data: Obj[];
  layout: Obj;
  frames?: Obj[];
}

/** What a column holds, as far as choosing one for a role goes. */
export type ColumnKind = 'number' | 'text';

/** A column a template's src named: its name, its place in its grid (0-based) and its kind. */
export interface RoleColumn {
  name: string;
  position: number;
  kind: ColumnKind;
}

/** One src of a template: where it is in the figure and the columns it named, in order. */
export interface TemplateRole {
  path: Path;
  cols: RoleColumn[];
}

/** A column of the grid a template is used with. */
export interface GridColumn {
  uid: string;
  name: string;
  kind: ColumnKind;
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `b` over `a`, objects merged key by key (arrays and other values replaced); neither is changed. */
export function deepMerge(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return b === undefined ? a : b;
  const out: Obj = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = deepMerge(a[k], v);
  return out;
}

/** A copy without the keys named, nor any `*src` key at any depth, nor objects left empty. */
function styleOnly(value: Obj, drop: ReadonlySet<string>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) {
    if (drop.has(k) || k.endsWith('src')) continue;
    if (isObject(v)) {
      const inner = styleOnly(v, NOTHING);
      if (Object.keys(inner).length) out[k] = inner;
    } else out[k] = v;
  }
  return out;
}

const NOTHING: ReadonlySet<string> = new Set();

/** Layout parts that are the chart's content or size, not its look. */
const LAYOUT_CONTENT = new Set([
  'annotations',
  'shapes',
  'images',
  'sliders',
  'updatemenus',
  'selections',
  'meta',
  'datarevision',
  'uirevision',
  'editrevision',
  'selectionrevision',
  'width',
  'height',
  'autosize',
  'template',
  'grid',
  'computed',
]);

/** A subplot's parts that place it or fit it to its data. */
const SUBPLOT_CONTENT = new Set([
  'domain',
  'anchor',
  'overlaying',
  'position',
  'matches',
  'scaleanchor',
  'scaleratio',
  'range',
  'autorange',
  'tickvals',
  'ticktext',
  'categoryarray',
  'categoryorder',
  'type',
  'cmin',
  'cmax',
  'cmid',
  'cauto',
  'camera',
  'center',
]);

/** Subplots and axes: `xaxis`, `xaxis2`… each style the one key plotly's templates use for all of them. */
const SUBPLOT = /^(xaxis|yaxis|scene|polar|geo|ternary|mapbox|map|smith|coloraxis)([2-9]|[1-9]\d+)?$/;

/** A trace's parts that say what it draws, or where, rather than how it looks. */
const TRACE_CONTENT = new Set([
  'type',
  'name',
  'uid',
  'ids',
  'meta',
  'text',
  'hovertext',
  'hovertemplate',
  'texttemplate',
  'customdata',
  'selectedpoints',
  'legendgroup',
  'legendgrouptitle',
  'legendrank',
  'visible',
  'xaxis',
  'yaxis',
  'scene',
  'geo',
  'subplot',
  'coloraxis',
  'transforms',
  'dimensions',
  'x',
  'y',
  'z',
  'x0',
  'y0',
  'dx',
  'dy',
  'labels',
  'values',
  'parents',
  'lat',
  'lon',
  'locations',
  'r',
  'theta',
  'a',
  'b',
  'c',
  'open',
  'high',
  'low',
  'close',
  'u',
  'v',
  'w',
  'base',
  'cmin',
  'cmax',
  'zmin',
  'zmax',
  'header',
  'cells',
  'node',
  'link',
  'stackgroup',
]);

/** Text a title or a legend's title shows: content; its font and place are style. */
function withoutText(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  const { text: _text, ...rest } = value;
  return Object.keys(rest).length ? rest : undefined;
}

/** A layout's look: what a theme's `layout` keeps of it. */
function layoutStyle(layout: Obj): Obj {
  const out: Obj = {};
  // The lowest-numbered subplot of each kind stands for all of them.
  const subplots = Object.keys(layout)
    .filter((k) => SUBPLOT.test(k))
    .sort((a, b) => Number(a.replace(/\D/g, '') || 1) - Number(b.replace(/\D/g, '') || 1));
  for (const key of subplots) {
    const base = key.replace(/\d+$/, '');
    const value = layout[key];
    if (base in out || !isObject(value)) continue;
    const style = styleOnly(value, SUBPLOT_CONTENT);
    const title = withoutText(style.title);
    if (title === undefined) delete style.title;
    else style.title = title;
    if (Object.keys(style).length) out[base] = style;
  }
  for (const [key, value] of Object.entries(layout)) {
    if (LAYOUT_CONTENT.has(key) || SUBPLOT.test(key) || key.endsWith('src')) continue;
    if (key === 'title') {
      const title = withoutText(value);
      if (title !== undefined) out.title = title;
    } else if (key === 'legend' && isObject(value)) {
      const legend = styleOnly(value, NOTHING);
      const title = withoutText(legend.title);
      if (title === undefined) delete legend.title;
      else legend.title = title;
      if (Object.keys(legend).length) out.legend = legend;
    } else out[key] = isObject(value) ? styleOnly(value, NOTHING) : value;
  }
  return out;
}

/** The template a figure's layout has, if it is one (plotly's form: an object). */
export function templateOf(figure: { layout?: unknown }): ThemeTemplate | undefined {
  const layout = isObject(figure.layout) ? figure.layout : undefined;
  return layout && isObject(layout.template) ? (layout.template as ThemeTemplate) : undefined;
}

/**
 * A figure's styling as a theme: its own template's, with the layout's look and each trace's style
 * over it (per trace type, in order: plotly gives a type's traces its styles in turn).
 */
export function themeFromFigure(figure: Figure): ThemeTemplate {
  const own = templateOf(figure) ?? {};
  const layout = deepMerge(isObject(own.layout) ? own.layout : {}, layoutStyle(figure.layout)) as Obj;
  const data: Record<string, Obj[]> = isObject(own.data) ? { ...(own.data as Record<string, Obj[]>) } : {};
  const byType = new Map<string, Obj[]>();
  for (const trace of figure.data) {
    const type = typeof trace.type === 'string' ? trace.type : 'scatter';
    byType.set(type, [...(byType.get(type) ?? []), styleOnly(trace, TRACE_CONTENT)]);
  }
  for (const [type, styles] of byType) {
    const before = Array.isArray(data[type]) ? data[type] : [];
    const merged = styles.map((s, i) => deepMerge(before.length ? before[i % before.length] : {}, s) as Obj);
    if (merged.some((s) => Object.keys(s).length)) data[type] = merged;
  }
  return { ...(Object.keys(data).length ? { data } : {}), layout };
}

/** A theme plot's figure: no traces, the theme as its layout's template. */
export const themeFigure = (theme: ThemeTemplate, title: string): Figure => ({ data: [], layout: { title: { text: title }, template: theme } });

/**
 * `figure` with `theme` as its template (none: plotly's own look). What the figure sets itself
 * still wins over the theme, as in plotly.
 */
export function applyTheme<F extends Figure>(figure: F, theme: ThemeTemplate | undefined): F {
  const { template: _old, ...layout } = figure.layout;
  return { ...figure, layout: theme === undefined ? layout : { ...layout, template: structuredClone(theme) } };
}

/** A column's kind by its first values (a grid's preview): numbers, or text as numbers, make a number column. */
export function columnKind(values: unknown[]): ColumnKind {
  const given = values.filter((v) => v !== null && v !== undefined && v !== '');
  const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
  return given.length > 0 && given.every(numeric) ? 'number' : 'text';
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Which new column takes each role column, in order of the roles' columns: the one of the same
 * name; else the one at the same place if of the same kind; else the first unused one of the same
 * kind, else the first unused one; else (fewer columns than roles) the one at the same place, reused.
 */
export function mapRoleColumns(roles: RoleColumn[], columns: GridColumn[]): (GridColumn | undefined)[] {
  if (!columns.length) return roles.map(() => undefined);
  const chosen: (GridColumn | undefined)[] = roles.map(() => undefined);
  const used = new Set<string>();
  roles.forEach((role, i) => {
    const named = columns.find((c) => !used.has(c.uid) && sameName(c.name, role.name));
    if (named) {
      chosen[i] = named;
      used.add(named.uid);
    }
  });
  roles.forEach((role, i) => {
    if (chosen[i]) return;
    // A role named a column again (x of two traces): the same new column again.
    const earlier = roles.findIndex((r, j) => j < i && r.name === role.name && r.position === role.position);
    const free = (c: GridColumn) => !used.has(c.uid);
    const placed = columns[role.position];
    const pick =
      (earlier >= 0 ? chosen[earlier] : undefined) ??
      (placed && free(placed) && placed.kind === role.kind ? placed : undefined) ??
      columns.find((c) => free(c) && c.kind === role.kind) ??
      columns.find(free) ??
      columns[Math.min(Math.max(role.position, 0), columns.length - 1)];
    chosen[i] = pick;
    used.add(pick.uid);
  });
  return chosen;
}

const getAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined), root);

/** Every `*src` key's path in a figure's traces and frames (a template's srcs not in its roles are dropped). */
function srcPaths(value: unknown, path: Path, out: Path[]): Path[] {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) srcPaths(v, [...path, i], out);
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k.endsWith('src') && typeof v === 'string') out.push([...path, k]);
      else srcPaths(v, [...path, k], out);
    }
  }
  return out;
}

const pathKey = (path: Path) => path.join('\u0000');

/**
 * A template's chart drawn from grid `gridFid`'s `columns`: each role's src names the columns that
 * take its roles (mapRoleColumns), a trace named after its column takes the new column's name, and
 * srcs without a role (none, unless the template was edited) are dropped, so nothing draws from the
 * template's own data. The template is not changed.
 */
export function figureFromTemplate(template: { figure: Figure; roles: TemplateRole[] }, gridFid: string, columns: GridColumn[]): Figure {
  const figure = structuredClone(template.figure);
  // Roles whose src the figure no longer has (the template edited since) have no place to go.
  const roles = template.roles.filter((r) => typeof getAt(figure, r.path) === 'string');
  const flat = roles.flatMap((r) => r.cols);
  const picked = mapRoleColumns(flat, columns);
  const kept = new Set<string>();
  let at = 0;
  for (const role of roles) {
    const cols = picked.slice(at, at + role.cols.length);
    at += role.cols.length;
    const uids = [...new Set(cols.filter((c) => c !== undefined).map((c) => c.uid))];
    if (!uids.length) continue;
    const parent = getAt(figure, role.path.slice(0, -1)) as Obj;
    parent[role.path[role.path.length - 1]] = `${gridFid}:${uids.join(',')}`;
    kept.add(pathKey(role.path));
    // A trace named after its one column is named after the new one.
    const [top, index] = role.path;
    const trace = top === 'data' && typeof index === 'number' && role.path.length === 3 ? figure.data[index] : undefined;
    if (trace && role.cols.length === 1 && cols[0] && trace.name === role.cols[0].name) trace.name = cols[0].name;
  }
  for (const path of [...srcPaths(figure.data, ['data'], []), ...srcPaths(figure.frames, ['frames'], [])]) {
    if (kept.has(pathKey(path))) continue;
    const parent = getAt(figure, path.slice(0, -1)) as Obj;
    delete parent[path[path.length - 1]];
  }
  return figure;
}
