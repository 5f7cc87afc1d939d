// Plots: detail, create, and a plot's part of an update (file-changes.ts updateFile). Lists: plot-lists.ts.
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { compiledQuery, queryRows, type Db } from '@/db/client';
import { plots } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { ApiError, invalid, notFound } from '../errors';
import { checkFigure, figureMeta } from '../figures/figure';
import { enqueue, notifyQueued, requestImages } from '../images/images';
import { MiB } from '../json-text';
import { fileFieldsSchema, updateFile, type TYPE_FIELDS, type TypeUpdate } from '../files/file-changes';
import { createFileWith, getFile, NEW_FILE, type OwnedFile } from '../files/files';
import { assertReadable, canRead, isOwner, type Readable } from '../permissions';
import { fidOf, originJoin, parseFid, plotRecordSql, RECORD_JOIN, type Fid, type PlotRecord } from '../records';
import { checkSources, publishedSrcs, srcColumnsSql, srcsVerdictSql, storedRefs, wantedColumns, type StoredRef } from './srcs';
import { firstSaveSql, recordPlotVersion, type Client } from '../files/versions';
import { MAX_CAPTION_CHARS, MAX_PLOT_TITLE_CHARS } from '@/lib/shared/limits';
import { keepStreamTokens } from '@/lib/shared/streams';

// ---------------------------------------------------------------------------------------------
// Detail

export async function getPlotFile(db: Db, fid: Fid, viewer: Viewer | null, state: 'live' | 'trashed' = 'live'): Promise<OwnedFile | undefined> {
  const file = await getFile(db, fid, viewer, state);
  return file?.filetype === 'plot' ? file : undefined;
}

/** The live plot at the fid text `value` (a lineage's source) when the viewer may read it. */
export async function readablePlotAt(db: Db, viewer: Viewer | null, value: string): Promise<OwnedFile | undefined> {
  const fid = parseFid(value);
  const file = fid ? await getPlotFile(db, fid, viewer) : undefined;
  return file && canRead(file, viewer) ? file : undefined;
}

/** The detail record's JSON text for a plot the caller may read (the caller checked). */
async function detailText(db: Db, fileId: number, viewer: Viewer | null, origin: string): Promise<string> {
  const [row] = await queryRows<{ rec: string }>(
    db,
    sql`SELECT ${plotRecordSql(viewer?.id ?? null, true)} AS rec FROM plots p ${RECORD_JOIN} ${originJoin(origin)} WHERE p.file_id = ${fileId}`,
  );
  if (!row) throw notFound();
  return row.rec;
}

/** GET /v2/plots/{fid} */
export async function getPlot(db: Db, viewer: Viewer | null, fid: Fid, origin: string, shareKey?: string | null): Promise<string> {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer, shareKey);
  return detailText(db, file.id, viewer, origin);
}

/**
 * The same detail record as an object, of a plot already checked readable (pages look their file up
 * once; one record builder: plotRecordSql); null when it has gone since it was found (a page's 404).
 */
export async function plotRecordOf(db: Db, plot: Readable<OwnedFile>, viewer: Viewer | null, origin: string): Promise<PlotRecord | null> {
  const text = await detailText(db, plot.id, viewer, origin).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });
  return text === null ? null : (JSON.parse(text) as PlotRecord);
}

// ---------------------------------------------------------------------------------------------
// Create and update

/** The stored figure's size: settings and src references (docs/limits.md). */
export const MAX_FIGURE_BYTES = MiB;

const figureSchema = z.unknown().meta({ description: 'the plotly.js figure: {data, layout?, frames?}, data by src reference' });

/** A plot's own fields, beyond every file's (fileFieldsSchema). */
const plotFields = {
  figure: figureSchema.optional(),
  source_fid: z.string().max(100).nullable().optional().meta({ description: 'the plot this one was copied from (lineage); null clears' }),
  title: z.string().max(MAX_PLOT_TITLE_CHARS).optional(),
  caption: z.string().max(MAX_CAPTION_CHARS).optional(),
  comments_enabled: z.boolean().optional().meta({ description: 'false closes the plot to new comments (an extension; its owner only)' }),
} satisfies Record<(typeof TYPE_FIELDS.plot)[number], z.ZodType>;

/** PUT/PATCH /v2/plots/{fid}: the fields given change. */
export const plotUpdateSchema = fileFieldsSchema.extend(plotFields);
export type PlotUpdate = z.output<typeof plotUpdateSchema>;

/** POST /v2/plots: the same fields, `figure` required, placed by `parent_path`. */
export const plotCreateSchema = fileFieldsSchema
  .omit({ parent: true })
  .extend({
    ...plotFields,
    figure: figureSchema.refine((v) => v !== undefined, 'This field is required.'),
  })
  .omit({ comments_enabled: true });
export type PlotCreate = z.output<typeof plotCreateSchema>;

async function checkSourceFid(db: Db, viewer: Viewer, value: string): Promise<string> {
  const file = await readablePlotAt(db, viewer, value);
  if (!file) throw invalid('source_fid', `'${value}' is not a plot you can read`);
  return fidOf(file.owner, file.n);
}

/** A figure checked and normalized for storage (`data`, `layout` (default {}), and `frames` when given), its srcs not yet resolved. */
function storedFigure(figure: unknown) {
  const srcs = checkFigure(figure);
  const fig = figure as Record<string, unknown>;
  const stored = { data: fig.data, layout: fig.layout ?? {}, ...(fig.frames !== undefined ? { frames: fig.frames } : {}) };
  // Figures hold settings and src references, never data: a bounded size keeps every list, page and
  // render that carries one bounded too.
  const text = JSON.stringify(stored);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_FIGURE_BYTES) {
    throw invalid('figure', `is ${(bytes / MiB).toFixed(1)} MiB once stored (layout, traces and frames, data by src); at most 1 MiB`);
  }
  return { figure: stored, text, bytes, srcs, refs: srcs.map((r) => ({ p: r.path, s: r.src })), meta: figureMeta(stored) };
}

/**
 * storedFigure with its srcs checked (checkSources) and the grid data they reference, saved by `editor`
 * into `plot` when it exists. The owner's figure publishes its srcs to the plot's readers; a
 * collaborator's keeps the plot's srcs they did not change (readable to them or not) as they were,
 * and any other src it names publishes nothing of the owner's (`u`: lib/core/plots/srcs.ts plotSrcReader),
 * so no one but the owner makes the owner's data visible to the plot's readers. Its stream tokens are kept likewise.
 */
async function prepareFigure(db: Db, editor: Viewer, figure: unknown, plot?: { id: number; ownerId: number }) {
  if (!plot || isOwner(editor, plot)) {
    const stored = storedFigure(figure);
    return { ...stored, data: await checkSources(db, editor, stored.srcs) };
  }
  const [row] = await db.select({ refs: plots.srcRefs, figure: plots.figure }).from(plots).where(eq(plots.fileId, plot.id));
  // The owner's stream tokens, which the collaborator never read, stay on the traces they kept.
  keepStreamTokens(row?.figure, figure);
  const stored = storedFigure(figure);
  const current = storedRefs(row?.refs ?? []);
  const published = publishedSrcs(current);
  const data = await checkSources(db, editor, stored.srcs, new Set(current.map((r) => r.s)));
  const refs: StoredRef[] = stored.refs.map((r) => (published.has(r.s) ? r : { ...r, u: 1 }));
  return { ...stored, refs, data };
}

/**
 * A figure under the create and update rules (its form, its stored size, its srcs: readable by the
 * viewer, within the data limit), nothing written: the chart editor's expert view checks edits with it.
 * Throws the same 400s as the API.
 */
export async function checkPlotFigure(db: Db, viewer: Viewer, figure: unknown, plot?: { id: number; ownerId: number }): Promise<void> {
  await prepareFigure(db, viewer, figure, plot);
}

/**
 * One statement: the srcs checked (srcsVerdictSql, checkSources' rules in SQL), and only then the files row (create_file),
 * the plots row, its image job, and its detail record built from what they return (rows written by
 * this statement are not visible to it otherwise). No row when a src fails: checkSources then says
 * why. Compiled once: the create path's SQL costs more to build than to run.
 */
const CREATE_PLOT = compiledQuery<{ rec: string }>(() => {
  const v = (name: string) => sql.placeholder(name);
  return sql`WITH found AS MATERIALIZED (${srcColumnsSql(v('wanted'))}),
      checked AS MATERIALIZED (${srcsVerdictSql(v('wanted'), sql`found`, v('viewer'))}),
      f AS MATERIALIZED (SELECT * FROM ${NEW_FILE} WHERE (SELECT ok FROM checked)),
      p AS (
        INSERT INTO plots (file_id, figure, figure_bytes, data_values, data_bytes, src_refs, title, title_given, caption, source_fid, width, height, autosize,
                           is_theme, is_template, template_roles)
        SELECT f.id, ${v('figure')}::jsonb, ${v('bytes')}::int, (SELECT data_values FROM checked), (SELECT data_bytes FROM checked), ${v('refs')}::jsonb, ${v('title')}::text,
               ${v('title_given')}::boolean, ${v('caption')}::text, ${v('source_fid')}::text, ${v('width')}::int, ${v('height')}::int,
               ${v('autosize')}::boolean, ${v('is_theme')}::boolean, ${v('is_template')}::boolean, ${v('template_roles')}::jsonb
        FROM f RETURNING *),
      queued AS (${enqueue(sql`SELECT file_id, ${v('viewer')}::int AS owner_id, version FROM p`)}),
      saved AS (${firstSaveSql(sql`p`, v('viewer'), v('client'))})
      SELECT ${plotRecordSql(v('viewer'), true, true)} AS rec
      FROM f JOIN p ON p.file_id = f.id JOIN users u ON u.id = f.owner_id ${originJoin(v('origin'))}
      CROSS JOIN (SELECT count(*) FROM (${notifyQueued}) n) notified`;
});

/** What a plot is besides a chart: a theme (styling only) or a template (a chart and its srcs' column roles): lib/core/plots/themes.ts. */
export interface PlotKind {
  isTheme?: boolean;
  isTemplate?: boolean;
  templateRoles?: unknown;
}

/**
 * POST /v2/plots (and the web's saves of new charts, through it): 200 with `{"file": detail}`, its
 * version 1 by `client`. Two round trips: the caller's, and CREATE_PLOT, which checks the srcs
 * itself; checkSources runs only when it refused them, to say which and why.
 */
export async function createPlot(db: Db, viewer: Viewer, input: PlotCreate, origin: string, client: Client = 'api', kind: PlotKind = {}): Promise<string> {
  const { text, bytes, srcs, refs, meta } = storedFigure(input.figure);
  const sourceFid = input.source_fid ? await checkSourceFid(db, viewer, input.source_fid) : null;
  const values = {
    wanted: wantedColumns(srcs),
    figure: text,
    bytes,
    refs: JSON.stringify(refs),
    title: input.title ?? meta.title,
    title_given: input.title !== undefined,
    caption: input.caption ?? '',
    source_fid: sourceFid,
    width: meta.width ?? null,
    height: meta.height ?? null,
    autosize: meta.autosize,
    is_theme: kind.isTheme ?? false,
    is_template: kind.isTemplate ?? false,
    template_roles: kind.templateRoles === undefined ? null : JSON.stringify(kind.templateRoles),
    viewer: viewer.id,
    client,
    origin,
  };
  // A src refused here and accepted by checkSources a moment later (its grid changed meanwhile) gets
  // one more try.
  for (let attempt = 0; ; attempt++) {
    const [row] = await createFileWith<{ rec: string }>(db, viewer, 'plot', input, CREATE_PLOT, values);
    if (row) return `{"file":${row.rec}}`;
    await checkSources(db, viewer, srcs);
    if (attempt) throw invalid('figure', 'the grids its srcs name changed while the plot was created; try again');
  }
}

/** A plot's part of an update: figure, title, caption and source_fid under the create rules; a new figure or title is a new version. */
export const plotUpdate: TypeUpdate<PlotUpdate> = async (db, editor, input, plot) => {
  const prepared = input.figure !== undefined ? await prepareFigure(db, editor, input.figure, plot) : null;
  const changes: Partial<typeof plots.$inferInsert> = {};
  if (prepared) {
    Object.assign(changes, {
      figure: prepared.figure,
      figureBytes: prepared.bytes,
      dataValues: prepared.data.values,
      dataBytes: prepared.data.bytes,
      srcRefs: prepared.refs,
      width: prepared.meta.width,
      height: prepared.meta.height,
      autosize: prepared.meta.autosize,
      title: sql`CASE WHEN ${plots.titleGiven} THEN ${plots.title} ELSE ${prepared.meta.title} END`,
      version: sql`${plots.version} + 1`,
    });
  }
  if (input.title !== undefined) Object.assign(changes, { title: input.title, titleGiven: true });
  if (input.caption !== undefined) changes.caption = input.caption;
  if (input.comments_enabled !== undefined) changes.commentsEnabled = input.comments_enabled;
  if (input.source_fid !== undefined) changes.sourceFid = input.source_fid ? await checkSourceFid(db, editor, input.source_fid) : null;
  if (!Object.keys(changes).length) return null;
  return async (tx, file, save) => {
    if (prepared || input.title !== undefined) await recordPlotVersion(tx, file.id, save, prepared?.text ?? null);
    await tx.update(plots).set(changes).where(eq(plots.fileId, file.id));
    if (prepared) await requestImages(tx, file.id);
  };
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The web's title edit (a plot's page): the record's title and caption, and the title the chart draws
 * (`layout.title.text`, its font and place kept) with them, since to a person they are one title.
 * The API's `title` stays the record's alone, as its clients expect. The owner's live plot only.
 */
export async function retitlePlot(db: Db, viewer: Viewer, fid: Fid, input: { title: string; caption: string }): Promise<OwnedFile> {
  const write: TypeUpdate<typeof input> = async () => async (tx, file, save) => {
    const changes: Partial<typeof plots.$inferInsert> = { title: input.title, titleGiven: true, caption: input.caption };
    const [row] = await queryRows<{ figure: string; title: string }>(tx, sql`SELECT figure::text AS figure, title FROM plots WHERE file_id = ${file.id}`);
    const figure = JSON.parse(row?.figure ?? '{}') as Record<string, unknown>;
    const layout = isRecord(figure.layout) ? figure.layout : {};
    const drawn = layout.title;
    const text = typeof drawn === 'string' ? drawn : isRecord(drawn) && typeof drawn.text === 'string' ? drawn.text : '';
    const redraw = text !== input.title;
    if (redraw) {
      figure.layout = { ...layout, title: isRecord(drawn) ? { ...drawn, text: input.title } : { text: input.title } };
      const bytes = Buffer.byteLength(JSON.stringify(figure));
      if (bytes > MAX_FIGURE_BYTES) throw invalid('title', 'makes the figure larger than 1 MiB once stored; shorten it');
      Object.assign(changes, { figure, figureBytes: bytes, version: sql`${plots.version} + 1` });
    }
    // A caption alone is no new version: versions keep figures and titles.
    if (redraw || input.title !== row?.title) await recordPlotVersion(tx, file.id, save, redraw ? JSON.stringify(figure) : null);
    await tx.update(plots).set(changes).where(eq(plots.fileId, file.id));
    if (redraw) await requestImages(tx, file.id);
  };
  return updateFile(db, viewer, fid, input, { filetype: 'plot', types: { plot: write }, client: 'web' });
}
