// The chart editor's pages: a new plot on one of the viewer's grids (`/create/chart?grid=owner:n`, or
// the list of their grids to pick from) and an existing plot of theirs (`/~owner/n/edit`), loaded with
// the API's permissions (what the viewer may not read is the one 404); and the expert view's check of
// an edited figure under the API's own figure rules.
import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { checkFigure } from '@/lib/core/figures/figure';
import { getFile, type OwnedFile } from '@/lib/core/files/files';
import { listGridColumns, listOwnGrids, type ColumnInfo } from '@/lib/core/grids/grids';
import { parseJsonText } from '@/lib/core/json-text';
import { canRead, canWrite, fileVisibility, isOwner, type Readable, type Visibility } from '@/lib/core/permissions';
import { dataAttributePaths } from '@/lib/shared/figures/trace-facts';
import { checkPlotFigure, MAX_FIGURE_BYTES, plotRecordOf } from '@/lib/core/plots/plots';
import { listPlotSeenColumns, type SeenColumn } from '@/lib/core/plots/seen-columns';
import { fidOf, parseFid, type Fid } from '@/lib/core/records';
import { chartChoices, choiceFigure, type ChartChoice, type ChoiceColumn } from '@/lib/shared/figures/chart-choice';
import { kindById } from '@/lib/shared/figures/chart-kinds';
import type { ColumnFacts } from '@/lib/shared/figures/column-facts';
import { figureFromTemplate } from '@/lib/shared/figures/theme-figures';
import { listColumnFacts } from '@/lib/core/grids/column-facts';
import { getTemplate, listThemes, templateColumns, type OwnStyleFile } from '@/lib/core/plots/themes';
import { newChartPath } from '@/lib/shared/urls';
import { formCaller, FormError } from './forms';
import { signedInPage, type PageContext, type SignedInContext } from './page-context';

/** A grid the editor maps columns from: its fid, name and columns (no data: the browser fetches what it draws). */
export interface EditorGrid {
  fid: string;
  owner: string;
  n: number;
  name: string;
  cols: ColumnInfo[];
  /** What each column holds, by uid: the editor fits columns to a chart's roles by it. */
  facts: Record<string, ColumnFacts>;
}

export interface EditorFigure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
  frames?: Record<string, unknown>[];
}

/** What the editor (components/chart-editor) starts from. */
export interface EditorData {
  /** null for a new plot; else the plot being edited. */
  plot: { owner: string; n: number } | null;
  figure: EditorFigure;
  /** The plot's file name ('' for a new plot: it is named after its title when saved). */
  filename: string;
  /** The plot's sharing, which its owner sets here; null for a writer, who edits the chart alone. */
  sharing: Visibility | null;
  grids: EditorGrid[];
  /** Columns the figure draws that the viewer sees through the plot alone (a collaborator's view of the owner's data): named, drawn, kept. */
  seen: SeenColumn[];
  /** A new chart's next best charts of its grid's columns (chart-choice.ts), each as a figure to start from. */
  suggestions: { label: string; figure: EditorFigure }[];
  /** Data attributes (dotted paths) of the figure's trace types, from plotly's schema: what a type without a panel of its own offers. */
  dataAttrs: Record<string, string[]>;
  /** The viewer's own themes, which the Theme control offers after the built-in ones. */
  themes: OwnStyleFile[];
  csrf: string;
}

/** The readable grids among these fids, with their columns, in the order given (each once). */
async function editorGrids(ctx: PageContext, fids: Fid[]): Promise<EditorGrid[]> {
  const seen = new Set<string>();
  const files: OwnedFile[] = [];
  for (const fid of fids) {
    const key = `${fid.owner.toLowerCase()}:${fid.n}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const file = await getFile(ctx.db, fid, ctx.viewer);
    if (file?.filetype === 'grid' && canRead(file, ctx.viewer)) files.push(file);
  }
  const ids = files.map((f) => f.id);
  const [cols, facts] = await Promise.all([listGridColumns(ctx.db, ids), listColumnFacts(ctx.db, ids)]);
  return files.map((f) => ({ fid: fidOf(f.owner, f.n), owner: f.owner, n: f.n, name: f.filename, cols: cols.get(f.id) ?? [], facts: facts.get(f.id) ?? {} }));
}

/** The data attributes of each trace type in a figure (and its frames). */
function dataAttrsOf(figure: { data?: unknown; frames?: unknown }): Record<string, string[]> {
  const types = new Set<string>();
  const add = (traces: unknown) => {
    if (!Array.isArray(traces)) return;
    for (const t of traces) if (t && typeof t === 'object') types.add(String((t as { type?: unknown }).type ?? 'scatter'));
  };
  add(figure.data);
  if (Array.isArray(figure.frames)) for (const f of figure.frames) add(f && typeof f === 'object' ? (f as { data?: unknown }).data : undefined);
  return Object.fromEntries([...types].map((t) => [t, dataAttributePaths(t)]));
}

/** The charts a grid's columns fit, best first (chart-choice.ts): the editor starts from the first. */
function gridChoices(grid: EditorGrid): { choices: ChartChoice[]; columns: ChoiceColumn[] } {
  const columns = grid.cols.map((c) => ({
    src: `${grid.fid}:${c.uid}`,
    name: c.name,
    facts: grid.facts[c.uid] ?? { kind: 'category' as const, distinct: 0 },
    length: c.length,
  }));
  return { choices: chartChoices(columns), columns };
}

export type NewChartPage =
  | { kind: 'not-found' }
  | { kind: 'pick'; grids: { href: string; name: string; modified: Date }[] }
  | { kind: 'editor'; data: EditorData };

/** A template's chart drawn from `grid`'s columns, or null when the viewer may read no template at `fid` (a 404). */
async function templateFigure(ctx: SignedInContext, fid: Fid, grid: EditorGrid): Promise<EditorFigure | null> {
  const file = await getFile(ctx.db, grid, ctx.viewer);
  let template: Awaited<ReturnType<typeof getTemplate>>;
  try {
    template = await getTemplate(ctx.db, ctx.viewer, fid);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
  return file ? figureFromTemplate(template, grid.fid, await templateColumns(ctx.db, file.id)) : null;
}

/**
 * `/create/chart[?grid=owner:n[&template=owner:n]]`: signed in (else signing in first); a grid the viewer
 * may read (charted as a template they may read says, when one is given), or their grids to pick from.
 */
export async function loadNewChart(gridParam: unknown, templateParam?: unknown): Promise<NewChartPage> {
  const grid = typeof gridParam === 'string' ? gridParam : undefined;
  const fid = grid === undefined ? null : parseFid(grid);
  const template = typeof templateParam === 'string' ? parseFid(templateParam) : templateParam === undefined ? undefined : null;
  const ctx = await signedInPage(fid ? newChartPath(fid, template ?? undefined) : newChartPath());
  if (grid === undefined) {
    const own = await listOwnGrids(ctx.db, ctx.viewer);
    return { kind: 'pick', grids: own.map((g) => ({ href: newChartPath({ owner: ctx.viewer.username, n: g.n }), name: g.filename, modified: g.modified })) };
  }
  if (!fid || template === null) return { kind: 'not-found' };
  const [loaded] = await editorGrids(ctx, [fid]);
  if (!loaded) return { kind: 'not-found' };
  const { choices, columns } = gridChoices(loaded);
  const figure = template ? await templateFigure(ctx, template, loaded) : choiceFigure(choices[0], columns);
  if (!figure) return { kind: 'not-found' };
  return {
    kind: 'editor',
    data: {
      plot: null,
      figure,
      filename: '',
      sharing: 'private',
      grids: [loaded],
      seen: [],
      suggestions: template
        ? []
        : choices.slice(1, 5).map((c) => ({ label: `${kindById(c.kind)?.label ?? c.kind}: ${c.why}`, figure: choiceFigure(c, columns) as EditorFigure })),
      dataAttrs: dataAttrsOf(figure),
      themes: (await listThemes(ctx.db, ctx.viewer)).own,
      csrf: ctx.csrf,
    },
  };
}

/** `/~owner/n/edit` on a plot the signed-in viewer may write (edit-page.ts checked it), with the grids its srcs name that they may read; null for the 404 (gone since). */
export async function plotEditorOf(ctx: SignedInContext, file: Readable<OwnedFile>): Promise<EditorData | null> {
  const record = await plotRecordOf(ctx.db, file, ctx.viewer, ctx.origin);
  if (!record) return null;
  const figure = record.figure as unknown as EditorFigure;
  let refs: { owner: string; n: number }[] = [];
  try {
    refs = checkFigure(figure);
  } catch {
    // A figure stored before a rule changed: it still opens, its grids found by what the editor shows.
  }
  return {
    plot: { owner: file.owner, n: file.n },
    figure: { data: figure.data ?? [], layout: figure.layout ?? {}, ...(figure.frames ? { frames: figure.frames } : {}) },
    filename: file.filename,
    sharing: isOwner(ctx.viewer, file) ? fileVisibility(file) : null,
    grids: await editorGrids(
      ctx,
      refs.map((r) => ({ owner: r.owner, n: r.n })),
    ),
    seen: await listPlotSeenColumns(ctx.db, file, ctx.viewer),
    suggestions: [],
    dataAttrs: dataAttrsOf(figure),
    themes: (await listThemes(ctx.db, ctx.viewer)).own,
    csrf: ctx.csrf,
  };
}

/** What the expert view's check answers: the figure's problems (the API's 400 items), or its types' data attributes. */
export type FigureCheck = { ok: true; dataAttrs: Record<string, string[]> } | { ok: false; problems: { path: string | null; message: string }[] };

/** The figure's text, bounded: the stored figure's limit with room for indentation. */
const figureTextSchema = z.string().max(4 * MAX_FIGURE_BYTES);

/**
 * The expert view's "Apply": the figure text (form field `figure`) under the rules of `POST /v2/plots`
 * (JSON text rules, figure form and size, srcs the viewer may read), nothing written.
 */
export async function checkEditorFigure(form: FormData): Promise<FigureCheck> {
  try {
    const caller = await formCaller(form);
    const text = figureTextSchema.safeParse(form.get('figure'));
    if (!text.success)
      return {
        ok: false,
        problems: [{ path: null, message: `The figure is too large to check here (at most ${4 * (MAX_FIGURE_BYTES / 1024 / 1024)} MiB of text).` }],
      };
    const figure = parseJsonText(text.data, 'the figure');
    // A saved plot's writer keeps the srcs it has: checked as its save would be.
    const fid = parseFid(String(form.get('fid') ?? ''));
    const plot = fid ? await getFile(caller.db, fid, caller.viewer) : undefined;
    await checkPlotFigure(caller.db, caller.viewer, figure, plot?.filetype === 'plot' && canWrite(plot, caller.viewer) ? plot : undefined);
    return { ok: true, dataAttrs: dataAttrsOf(figure as { data?: unknown }) };
  } catch (e) {
    if (e instanceof FormError) return { ok: false, problems: [{ path: null, message: e.message }] };
    if (e instanceof ApiError && e.status < 500)
      return { ok: false, problems: e.errors.map((item) => ({ path: item.path ?? item.field, message: item.message })) };
    throw e;
  }
}
