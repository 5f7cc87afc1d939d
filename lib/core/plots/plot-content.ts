// GET /v2/plots/{fid}/content: the figure, by reference or with its column data inlined. Column
// values are spliced into the answer as stored (json text), one column at a time, never parsed.
import 'server-only';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { ApiError, invalid, notFound } from '../errors';
import { columnTexts } from '../grids/column-reads';
import { assertReadable, assertWriter, canRead, holdsShareKey, type FileAccess, type Readable } from '../permissions';
import { getPlotFile } from './plots';
import type { Fid } from '../records';
import { dataSize, MAX_INLINE, overDataLimit, plotSrcReader, resolveSrcs, seenByEveryReader, storedRefs, type SrcGrid, type StoredRef } from './srcs';
import { figureKinds, figureKindsSql, MAX_RENDERED_BYTES } from '../images/images';
import type { DataSize } from '@/lib/shared/figures/live-drawing';
import { needsMapOutlines } from '@/lib/shared/figures/plotly-bundles';
import { drawsLive } from '@/lib/shared/figures/live-drawing';
import { DEFAULT_VIEW_PX, figureWithViews } from '@/lib/shared/figures/trace-views';
import { anyReadersView, drawsByView } from './plot-views';
import { keptSeen, keptSrcColumns, versionFigure } from './version-data';
import { figureTextWithoutTokens } from '@/lib/shared/streams';

export interface ContentOptions {
  inlineData: boolean;
  mapUnreadable: boolean;
  shareKey?: string | null;
  /** The most column bytes one answer carries (default: MAX_INLINE's). */
  maxBytes?: number;
  /** An earlier version's figure instead of the current one (its writers only: lib/core/files/versions.ts). */
  version?: number;
}

export interface Content {
  etag: string;
  /** Whether every anonymous caller gets this same answer: a public plot, no secret link, and only
   * public grids' data (a shared cache may keep it). */
  shared: boolean;
  /** The figure version read (images are keyed by it); with `version`, that history number. */
  version: number;
  parts: () => AsyncIterable<string>;
}

const token = (i: number) => `\u0000${i}\u0000`;
// JSON.stringify writes the NUL of a token as \u0000; input never holds one (bodies with it are refused).
const TOKEN_TEXT = /"\\u0000(\d+)\\u0000"/g;

export async function getPlotContent(db: Db, viewer: Viewer | null, fid: Fid, opts: ContentOptions): Promise<Content> {
  const file =
    opts.version !== undefined
      ? assertWriter(await getPlotFile(db, fid, viewer), viewer)
      : assertReadable(await getPlotFile(db, fid, viewer), viewer, opts.shareKey);
  return contentOf(db, file, viewer, opts);
}

/** The content of a plot the caller already looked up and checked readable (a page); a version only to its writers, as getPlotContent. */
export async function readableContent(db: Db, plot: Readable<FileAccess & { id: number }>, viewer: Viewer | null, opts: ContentOptions): Promise<Content> {
  if (opts.version !== undefined) assertWriter(plot, viewer);
  return contentOf(db, plot, viewer, opts);
}

/**
 * The content of a plot whose reading was decided (getPlotContent, readableContent; the renderer): its srcs as
 * `viewer`, a reader of the plot, sees them (plotSrcReader; null is any reader).
 */
async function contentOf(db: Db, file: FileAccess & { id: number }, viewer: Viewer | null, opts: ContentOptions): Promise<Content> {
  const history = opts.version !== undefined;
  const [plot] =
    opts.version !== undefined
      ? [await versionFigure(db, file.id, opts.version)]
      : await queryRows<{ figure: string; refs: StoredRef[] | string; version: number; tag: string }>(
          db,
          sql`SELECT figure::text AS figure, src_refs AS refs, version, version::text AS tag FROM plots WHERE file_id = ${file.id}`,
        );
  // Deleted for good since the caller found it: the 404 it would get now.
  if (!plot) throw notFound();
  // The owner's stream tokens are theirs alone (lib/shared/streams.ts).
  const owner = viewer?.id === file.ownerId;
  const figureText = owner ? plot.figure : figureTextWithoutTokens(plot.figure);
  const withTokens = figureText !== plot.figure || (owner && plot.figure.includes('"token"'));
  const refs = storedRefs(plot.refs);
  // An answer to a secret link's holder or of a version is theirs alone.
  const publicPlot = file.worldReadable && !opts.shareKey && !history;
  const base = `${file.id}:${plot.tag}:${opts.inlineData ? 1 : 0}:${opts.mapUnreadable ? 1 : 0}${owner && withTokens ? ':o' : ''}`;

  if (!refs.length || (!opts.inlineData && !opts.mapUnreadable)) {
    return {
      etag: etagOf(base),
      shared: publicPlot && !(owner && withTokens),
      version: plot.version,
      parts: async function* () {
        yield figureText;
      },
    };
  }

  // The columns of each src the reader sees (plotSrcReader): with map_data, those whose grid the
  // reader may not read on their own are mapped (the holder of a secret link reads the owner's grids
  // through it, as docs/api.md "What a chart publishes" says); with inline_data, the rest, or all of them without map_data.
  const seen = plotSrcReader(file, refs, viewer);
  const viaKey = holdsShareKey(file, opts.shareKey);
  const ownRead = (grid: SrcGrid) => canRead(grid, viewer) || (viaKey && grid.ownerId === file.ownerId);
  const everyone = seenByEveryReader(file, refs);
  const resolved = await resolveSrcs(
    db,
    refs.map((ref) => ref.s),
    viewer,
    seen,
  );
  // A version's srcs whose grid or column is gone draw the columns the version kept (version-data.ts),
  // inlined (or mapped, without inline_data) for whom keptSeen lets see them.
  const { kept } = history ? await keptSrcColumns(db, file.id, refs, true) : { kept: [] };
  const inline: { ref: StoredRef; cols: Cols; size: DataSize }[] = [];
  const mapped = new Map<string, Cols>();
  const mappedSize = new Map<string, DataSize>();
  refs.forEach((ref, i) => {
    const { grid, columns: ids, values, bytes } = resolved[i];
    const keptCols = kept[i] && keptSeen(file, viewer, ref) ? kept[i] : null;
    const cols: Cols | null = ids ?? keptCols?.map((c) => c.text!) ?? null;
    if (!cols) return;
    const size = keptCols ? { values: 0, bytes: keptCols.reduce((sum, c) => sum + c.bytes, 0) } : { values, bytes };
    if (opts.mapUnreadable && (keptCols ? !opts.inlineData : !ownRead(grid!))) {
      mapped.set(ref.s, cols);
      mappedSize.set(ref.s, size);
    } else if (opts.inlineData) inline.push({ ref, cols, size });
  });
  // Columns can change after the plot was saved (rows appended, longer values): what one answer
  // carries stays within the plot limit, so no plot's content costs more than that to serve.
  for (const [parameter, size] of [
    ['inline_data', dataSize(inline.map((i) => i.size))],
    ['map_data', dataSize([...mappedSize.values()])],
  ] as const) {
    const over = overDataLimit(size, { values: MAX_INLINE.values, bytes: opts.maxBytes ?? MAX_INLINE.bytes });
    if (over) throw invalid(parameter, `the plot's srcs now ${over} are served inline`);
  }
  // Kept values never change: a mark stands for them.
  const colsTag = (cols: Cols) => cols.map((c) => (typeof c === 'number' ? c : 'k')).join(',');
  const etag = etagOf(`${base}:${inline.map((i) => colsTag(i.cols)).join(';')}:${[...mapped].map(([s, c]) => `${s}=${colsTag(c)}`).join(';')}`);

  return {
    etag,
    // A src that only some readers see (another's grid, gone, or a collaborator's) makes the answer
    // depend on who asks; so does one mapped for some readers and a src to those who read its grid.
    shared:
      publicPlot &&
      !(owner && withTokens) &&
      resolved.every((r, i) => r.grid !== null && everyone(r.grid, refs[i].s) && (r.grid.worldReadable || (opts.inlineData && !opts.mapUnreadable))),
    version: plot.version,
    parts: async function* () {
      let text = figureText;
      if (inline.length) {
        const figure = JSON.parse(text);
        inline.forEach(({ ref }, i) => {
          replaceSrc(figure, ref.p, token(i));
        });
        text = JSON.stringify(figure);
      }
      const pieces = text.split(TOKEN_TEXT);
      // split() with a capture group alternates text and token numbers.
      const tail = mapped.size ? pieces.pop()!.replace(/}\s*$/, '') : pieces.pop()!;
      // Every column in the order the answer holds them, read a batch at a time (lib/core/grids/column-reads.ts).
      const order = [...pieces.filter((_, i) => i % 2).map((t) => inline[Number(t)].cols), ...mapped.values()];
      const texts = columnTexts(
        db,
        order.flat().filter((c) => typeof c === 'number'),
      );
      const live = async () => (await texts.next()).value ?? 'null';
      for (let i = 0; i < pieces.length; i += 2) {
        yield pieces[i];
        yield* columnsText(inline[Number(pieces[i + 1])].cols, live);
      }
      yield tail;
      if (mapped.size) {
        yield ',"map_data":{';
        let first = true;
        for (const [src, cols] of mapped) {
          yield `${first ? '' : ','}${JSON.stringify(src)}:`;
          yield* columnsText(cols, live);
          first = false;
        }
        yield '}}';
      }
    },
  };
}

/** The plot's data is past what the renderer takes: drawing it would not finish, so it is never tried again. */
export class TooLargeToDrawError extends Error {
  override name = 'TooLargeToDrawError';
}

/**
 * What the renderer draws: the figure with the columns any reader of the plot sees inlined (plotSrcReader
 * for no one in particular: public grids and those the plot publishes), so an image shows everyone
 * who may see it the same chart, and no share of the owner's reaches it; null once trashed or gone.
 */
export async function figureToRender(
  db: Db,
  fileId: number,
): Promise<{ text: string; version: number; layout: { width: number | null; height: number | null }; mapOutlines: boolean } | null> {
  const [plot] = await queryRows<{
    owner_id: number;
    world_readable: boolean;
    width: number | null;
    height: number | null;
    types: string;
    subplots: string;
    values: string | number;
    bytes: string | number;
  }>(
    db,
    sql`SELECT f.owner_id, f.world_readable, p.width, p.height, p.data_values AS values, p.data_bytes AS bytes, ${figureKindsSql}
        FROM plots p JOIN files f ON f.id = p.file_id
        WHERE p.file_id = ${fileId} AND f.trashed_at IS NULL`,
  );
  if (!plot) return null;
  const { types, subplots } = figureKinds(plot);
  const mapOutlines = needsMapOutlines(types, subplots);
  const access = { id: fileId, ownerId: plot.owner_id, worldReadable: plot.world_readable, shareKey: null };
  // Drawn by the view on pages (many values in long line traces): the image draws that reduction too,
  // reading only the rows' summary, whatever their number.
  if (!drawsLive({ values: Number(plot.values), bytes: Number(plot.bytes) }) && (await drawsByView(db, fileId))) {
    const [content, view] = await Promise.all([
      contentOf(db, access, null, { inlineData: false, mapUnreadable: false }),
      anyReadersView(db, fileId, { px: DEFAULT_VIEW_PX }),
    ]);
    let figure = '';
    for await (const part of content.parts()) figure += part;
    const text = JSON.stringify(figureWithViews(JSON.parse(figure), view.traces));
    return { text, version: content.version, layout: { width: plot.width, height: plot.height }, mapOutlines };
  }
  const content = await contentOf(db, access, null, {
    inlineData: true,
    mapUnreadable: false,
    maxBytes: MAX_RENDERED_BYTES,
  }).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 400) throw new TooLargeToDrawError(`not drawn: ${error.message}`);
    throw error;
  });
  let text = '';
  for await (const part of content.parts()) text += part;
  return { text, version: content.version, layout: { width: plot.width, height: plot.height }, mapOutlines };
}

/** A src's columns: live ones by id (read in the answer's order), or a version's kept values as text. */
type Cols = (number | string)[];

/** A src's columns' values: one column's, or an array of several (a multi-uid src), as stored; `live` reads the next live one. */
async function* columnsText(cols: Cols, live: () => Promise<string>): AsyncGenerator<string> {
  const text = async (c: number | string) => (typeof c === 'string' ? c : live());
  if (cols.length === 1) {
    yield await text(cols[0]);
    return;
  }
  yield '[';
  for (let i = 0; i < cols.length; i++) yield `${i ? ',' : ''}${await text(cols[i])}`;
  yield ']';
}

/** `xsrc` at `path` becomes `x` holding the token that the column text later replaces. */
function replaceSrc(figure: unknown, path: (string | number)[], value: string): void {
  let node = figure as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    node = node?.[key] as Record<string | number, unknown>;
    if (!node || typeof node !== 'object') return;
  }
  const key = String(path[path.length - 1]);
  delete node[key];
  node[key.slice(0, -3)] = value;
}

function etagOf(value: string): string {
  return `"${createHash('sha256').update(value).digest('base64url').slice(0, 27)}"`;
}
