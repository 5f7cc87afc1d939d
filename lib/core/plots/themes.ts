// Themes and templates as files: "Save as theme" makes a plot of a plot's styling alone
// (`is_theme`), "Save as template" a copy of the whole chart with its srcs' column roles
// (`is_template`), both through createPlot's rules (limits, errors, private by default). The figure
// rules themselves are pure: theme-figures.ts.
import 'server-only';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { files, gridColumns, plots } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { THEMES } from '@/lib/shared/figures/builtin-themes';
import { notFound } from '../errors';
import { checkFigure, type SrcRef } from '../figures/figure';
import { freeFilename, getFile, type OwnedFile } from '../files/files';
import { assertReadable, canRead } from '../permissions';
import { createPlot, getPlotFile } from './plots';
import { fidOf, type Fid } from '../records';
import { columnKind, themeFigure, themeFromFigure, type Figure, type GridColumn, type RoleColumn, type TemplateRole } from '@/lib/shared/figures/theme-figures';

/** Most themes, and most templates, listed to choose from (the latest made first). */
export const MAX_LISTED_THEMES = 50;

/** A theme or template of the viewer's to choose from. */
export interface OwnStyleFile {
  fid: string;
  owner: string;
  n: number;
  name: string;
}

/** A file just made: its fid, name and page. */
export interface SavedFile {
  fid: string;
  filename: string;
  web_url: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A stored figure in the form the figure rules take. */
function figureOf(stored: unknown): Figure {
  const fig = isObject(stored) ? stored : {};
  return {
    data: Array.isArray(fig.data) ? fig.data.filter(isObject) : [],
    layout: isObject(fig.layout) ? fig.layout : {},
    ...(Array.isArray(fig.frames) ? { frames: fig.frames.filter(isObject) } : {}),
  };
}

/** The live plot at `fid` the viewer may read (else the 404 of a missing fid) and its stored figure. */
async function readablePlot(db: Db, viewer: Viewer, fid: Fid) {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer);
  const [row] = await db
    .select({ figure: plots.figure, isTemplate: plots.isTemplate, roles: plots.templateRoles })
    .from(plots)
    .where(eq(plots.fileId, file.id));
  if (!row) throw notFound();
  return { file, figure: figureOf(row.figure), isTemplate: row.isTemplate, roles: row.roles };
}

/** createPlot's answer as what the saves answer. */
const saved = (record: string): SavedFile => {
  const { fid, filename, web_url } = (JSON.parse(record) as { file: SavedFile }).file;
  return { fid, filename, web_url };
};

/** The name given, else the plot's own followed by what it is made as ("Sales theme", then "Sales theme (2)"…). */
const nameFor = (db: Db, viewer: Viewer, file: OwnedFile, name: string | undefined, what: string) =>
  name ?? freeFilename(db, viewer.id, -1, `${file.filename} ${what}`);

/**
 * "Save as theme": a private plot of the viewer's at their top level whose figure is the styling of
 * the plot at `fid` (readable by them), named `name` (a taken name is createPlot's 400).
 */
export async function saveTheme(db: Db, viewer: Viewer, fid: Fid, name: string | undefined, origin: string): Promise<SavedFile> {
  const { file, figure } = await readablePlot(db, viewer, fid);
  const filename = await nameFor(db, viewer, file, name, 'theme');
  const record = await createPlot(db, viewer, { filename, world_readable: false, figure: themeFigure(themeFromFigure(figure), filename) }, origin, 'web', {
    isTheme: true,
  });
  return saved(record);
}

/** Each grid's columns (by file id) with their place and kind, in order. */
async function columnsOfGrids(db: Db, gridIds: number[]): Promise<Map<number, (GridColumn & { position: number })[]>> {
  const out = new Map<number, (GridColumn & { position: number })[]>(gridIds.map((id) => [id, []]));
  if (!gridIds.length) return out;
  const rows = await db
    .select({ gridId: gridColumns.gridId, uid: gridColumns.uid, name: gridColumns.name, preview: gridColumns.preview })
    .from(gridColumns)
    .where(inArray(gridColumns.gridId, gridIds))
    .orderBy(asc(gridColumns.gridId), asc(gridColumns.ord), asc(gridColumns.id));
  for (const { gridId, uid, name, preview } of rows) {
    const list = out.get(gridId);
    list?.push({ uid, name, kind: columnKind(Array.isArray(preview) ? preview : []), position: list.length });
  }
  return out;
}

/** The role of each src: the columns it names, as its grid has them (unknown ones by uid, for createPlot to refuse). */
async function rolesOf(db: Db, viewer: Viewer, refs: SrcRef[]): Promise<TemplateRole[]> {
  const grids = new Map<string, OwnedFile>();
  for (const ref of refs) {
    const key = `${ref.owner.toLowerCase()}:${ref.n}`;
    if (grids.has(key)) continue;
    const file = await getFile(db, { owner: ref.owner, n: ref.n }, viewer);
    if (file?.filetype === 'grid' && canRead(file, viewer)) grids.set(key, file);
  }
  const columns = await columnsOfGrids(
    db,
    [...grids.values()].map((g) => g.id),
  );
  return refs.map((ref) => {
    const grid = grids.get(`${ref.owner.toLowerCase()}:${ref.n}`);
    const cols = grid ? (columns.get(grid.id) ?? []) : [];
    return {
      path: ref.path,
      cols: ref.uids.map((uid): RoleColumn => {
        const col = cols.find((c) => c.uid === uid);
        return col ? { name: col.name, position: col.position, kind: col.kind } : { name: uid, position: 0, kind: 'text' };
      }),
    };
  });
}

/** "Save as template": a private copy of the plot at `fid` (readable by the viewer), named as saveTheme names, with its srcs' column roles. */
export async function saveTemplate(db: Db, viewer: Viewer, fid: Fid, name: string | undefined, origin: string): Promise<SavedFile> {
  const { file, figure } = await readablePlot(db, viewer, fid);
  const roles = await rolesOf(db, viewer, checkFigure(figure));
  const filename = await nameFor(db, viewer, file, name, 'template');
  const record = await createPlot(db, viewer, { filename, world_readable: false, figure }, origin, 'web', { isTemplate: true, templateRoles: roles });
  return saved(record);
}

/** The viewer's live plots flagged by `flag`, latest made first. */
async function listOwnFlagged(db: Db, viewer: Viewer, flag: typeof plots.isTheme | typeof plots.isTemplate): Promise<OwnStyleFile[]> {
  const rows = await db
    .select({ n: files.n, name: files.filename })
    .from(plots)
    .innerJoin(files, eq(files.id, plots.fileId))
    .where(and(eq(files.ownerId, viewer.id), isNull(files.trashedAt), eq(flag, true)))
    .orderBy(desc(files.n))
    .limit(MAX_LISTED_THEMES);
  return rows.map((r) => ({ fid: fidOf(viewer.username, r.n), owner: viewer.username, n: r.n, name: r.name }));
}

/** The themes to apply: the built-in ones (lib/shared/figures/builtin-themes.ts) and the viewer's own. */
export async function listThemes(db: Db, viewer: Viewer): Promise<{ builtin: { key: string; label: string }[]; own: OwnStyleFile[] }> {
  return { builtin: THEMES.map(({ key, label }) => ({ key, label })), own: await listOwnFlagged(db, viewer, plots.isTheme) };
}

/** The viewer's own templates to start a chart from. */
export function listTemplates(db: Db, viewer: Viewer): Promise<OwnStyleFile[]> {
  return listOwnFlagged(db, viewer, plots.isTemplate);
}

const roleSchemaOk = (v: unknown): v is TemplateRole[] =>
  Array.isArray(v) && v.every((r) => isObject(r) && Array.isArray(r.path) && Array.isArray(r.cols) && r.cols.every(isObject));

/** A template the viewer may read (else the 404 of a missing fid): its figure and roles. */
export async function getTemplate(db: Db, viewer: Viewer, fid: Fid): Promise<{ fid: string; figure: Figure; roles: TemplateRole[] }> {
  const { file, figure, isTemplate, roles } = await readablePlot(db, viewer, fid);
  if (!isTemplate) throw notFound();
  return { fid: fidOf(file.owner, file.n), figure, roles: roleSchemaOk(roles) ? roles : [] };
}

/** A grid's columns with their kinds, for figureFromTemplate (the grid's own permissions are the caller's). */
export async function templateColumns(db: Db, gridId: number): Promise<GridColumn[]> {
  return ((await columnsOfGrids(db, [gridId])).get(gridId) ?? []).map(({ uid, name, kind }) => ({ uid, name, kind }));
}
