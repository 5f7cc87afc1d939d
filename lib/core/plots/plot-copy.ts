// "Copy to my files": a plot someone may read becomes a private plot of theirs, with its own copies
// of the grid columns it draws, so the copy keeps working whatever happens to the original and its grids.
import 'server-only';
import { sql } from 'drizzle-orm';
import { compiledQuery, queryRows, type Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import { invalid, notFound } from '../errors';
import { setAt } from '../figures/figure';
import { dropStreamTokens } from '@/lib/shared/streams';
import { createFileWith, freeFilename, NEW_FILE } from '../files/files';
import { enqueue, notifyQueued } from '../images/images';
import { MiB } from '../json-text';
import { assertReadable } from '../permissions';
import { getPlotFile, MAX_FIGURE_BYTES } from './plots';
import { fidOf, type Fid } from '../records';
import { dataSize, overDataLimit, plotSrcReader, resolveSrcs, storedRefs, type StoredRef } from './srcs';
import { fileUrls } from '@/lib/shared/urls';

/** A new grid holding copies of the columns `cols` (ids) and their values, as stored (json text and blocks), never through Node. */
const COPY_GRID = compiledQuery<{ n: number }>(
  () => sql`WITH f AS MATERIALIZED (SELECT * FROM ${NEW_FILE}),
    g AS MATERIALIZED (SELECT nextval('column_values_id_seq') AS values_id, g.values_id AS source, g.uid, g.name, g.ord, g.bytes, g.length, g.preview
          FROM grid_columns g WHERE g.id = ANY(${sql.placeholder('cols')}::bigint[])),
    v AS (INSERT INTO column_values (id, grid_id, data, length, bytes, preview, kind, sorted)
          SELECT g.values_id, f.id, s.data, s.length, s.bytes, s.preview, s.kind, s.sorted FROM f CROSS JOIN g JOIN column_values s ON s.id = g.source RETURNING 1),
    b AS (INSERT INTO column_blocks (values_id, block, min, min_row, max, max_row, stretches, raw)
          SELECT g.values_id, s.block, s.min, s.min_row, s.max, s.max_row, s.stretches, s.raw FROM g JOIN column_blocks s ON s.values_id = g.source RETURNING 1),
    c AS (INSERT INTO grid_columns (grid_id, uid, name, ord, values_id, bytes, length, preview)
          SELECT f.id, g.uid, g.name, g.ord, g.values_id, g.bytes, g.length, g.preview FROM f CROSS JOIN g RETURNING 1)
    SELECT f.n, (SELECT count(*) FROM c) AS cols, (SELECT count(*) FROM v) AS value_rows, (SELECT count(*) FROM b) AS blocks FROM f`,
);

/**
 * The copy's plots row from the original's (title, caption, sizes, and its data_values and
 * data_bytes, which the copy's srcs reference as many of) and its image job, in one statement as createPlot does.
 */
const COPY_PLOT = compiledQuery<{ n: number }>(() => {
  const v = (name: string) => sql.placeholder(name);
  return sql`WITH f AS MATERIALIZED (SELECT * FROM ${NEW_FILE}),
    p AS (
      INSERT INTO plots (file_id, figure, figure_bytes, data_values, data_bytes, src_refs, title, title_given, caption, source_fid, width, height, autosize)
      SELECT f.id, ${v('figure')}::jsonb, ${v('bytes')}::int, o.data_values, o.data_bytes, ${v('refs')}::jsonb, o.title, o.title_given, o.caption,
             ${v('source_fid')}::text, o.width, o.height, o.autosize
      FROM f CROSS JOIN plots o WHERE o.file_id = ${v('original')}::bigint RETURNING *),
    queued AS (${enqueue(sql`SELECT file_id, ${v('viewer')}::int AS owner_id, version FROM p`)})
    SELECT f.n FROM f JOIN p ON p.file_id = f.id CROSS JOIN (SELECT count(*) FROM (${notifyQueued}) n) notified`;
});

/** `{uids}` of a src, after its grid. */
const uidsOf = (src: string) => src.slice(src.indexOf(':', src.indexOf(':') + 1) + 1);

/**
 * Copies the plot at `fid` (readable by `viewer`, with `shareKey` when it is a secret link's) into
 * the viewer's top level as a private plot named "Copy of …" (then "(2)"…), `source_fid` the
 * original. Each grid it draws data from (the columns its page shows the viewer: plotSrcReader) becomes one new private grid
 * of the viewer's holding just the referenced columns, copied row to row in the database with their
 * uids, and the copy's srcs point there. Srcs nobody here may read stay as they are (they draw
 * nothing, as on the original's page). One transaction; answers the copy's fid and page.
 */
export async function copyPlot(db: Db, viewer: Viewer, fid: Fid, shareKey: string | null | undefined, origin: string) {
  const file = assertReadable(await getPlotFile(db, fid, viewer), viewer, shareKey);
  return db.transaction(async (tx) => {
    // The copier's row, which every create of theirs updates (create_file): their creates wait
    // for this one, so the free names chosen below are still free when the files are made.
    await queryRows(tx, sql`SELECT 1 FROM users WHERE id = ${viewer.id} FOR UPDATE`);
    const [plot] = await queryRows<{ figure: string; refs: StoredRef[] | string }>(
      tx,
      sql`SELECT p.figure::text AS figure, p.src_refs AS refs FROM plots p JOIN files f ON f.id = p.file_id
          WHERE p.file_id = ${file.id} AND f.trashed_at IS NULL`,
    );
    if (!plot) throw notFound();
    const refs = storedRefs(plot.refs);
    const resolved = await resolveSrcs(
      tx,
      refs.map((r) => r.s),
      viewer,
      plotSrcReader(file, refs, viewer),
    );
    const over = overDataLimit(dataSize(resolved));
    if (over) throw invalid('figure', `its srcs ${over} a plot`);

    const filename = await freeFilename(tx, viewer.id, -1, `Copy of ${file.filename}`);
    // Each source grid's referenced columns, in order of first reference.
    const grids = new Map<number, Set<number>>();
    resolved.forEach(({ grid, columns }) => {
      if (!grid || !columns) return;
      const cols = grids.get(grid.id) ?? new Set<number>();
      for (const id of columns) cols.add(id);
      grids.set(grid.id, cols);
    });
    const copies = new Map<number, number>();
    for (const [gridId, cols] of grids) {
      const base = grids.size === 1 ? `${filename} (data)` : `${filename} (data ${copies.size + 1})`;
      const name = await freeFilename(tx, viewer.id, -1, base);
      const [grid] = await createFileWith(tx, viewer, 'grid', { filename: name, world_readable: false }, COPY_GRID, { cols: `{${[...cols].join(',')}}` });
      copies.set(gridId, grid.n);
    }

    const figure = JSON.parse(plot.figure);
    // A copy never carries the original's stream tokens (the original owner's keys to write to it).
    dropStreamTokens(figure);
    const newRefs = refs.map((ref, i) => {
      const { grid, columns } = resolved[i];
      if (!grid || !columns) return { p: ref.p, s: ref.s };
      const s = `${viewer.username}:${copies.get(grid.id)}:${uidsOf(ref.s)}`;
      setAt(figure, ref.p, s);
      return { p: ref.p, s };
    });
    const figureText = JSON.stringify(figure);
    const bytes = Buffer.byteLength(figureText);
    if (bytes > MAX_FIGURE_BYTES) throw invalid('figure', `is ${(bytes / MiB).toFixed(1)} MiB once stored with your srcs; at most 1 MiB`);

    const [row] = await createFileWith(tx, viewer, 'plot', { filename, world_readable: false }, COPY_PLOT, {
      figure: figureText,
      bytes,
      refs: JSON.stringify(newRefs),
      source_fid: fidOf(file.owner, file.n),
      original: file.id,
      viewer: viewer.id,
    });
    return { fid: fidOf(viewer.username, row.n), web_url: fileUrls(origin, viewer.username, row.n).web_url };
  });
}
