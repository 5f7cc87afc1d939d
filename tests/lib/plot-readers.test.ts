// The one reader rule (lib/core/plots/srcs.ts plotSrcReader) as a table: for each kind of src a plot can
// have and each reader, whether the reader sees its values, asked of every place that serves them
// (content inline and map_data, CSV columns, the editor's seen columns, the renderer's figure, an old version's content), on
// both databases. And the saves that decide what a plot publishes: the owner's, and a writer's,
// which keeps the srcs it did not change and publishes nothing of the owner's.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator, removeCollaborator } from '@/lib/core/files/collaborators';
import { csvColumns } from '@/lib/core/plots/csv-columns';
import { listPlotSeenColumns } from '@/lib/core/plots/seen-columns';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { getFile } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { figureToRender, getPlotContent } from '@/lib/core/plots/plot-content';
import { listPlotVersions } from '@/lib/core/plots/plot-versions';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, ORIGIN, people } from './_helpers';

/** Each src kind's marker value: a reader sees the src exactly when the marker is in what they get. */
const MARKERS = {
  published: 101101, // alice's private grid, put in by alice
  open: 202202, // alice's public grid
  writers: 303303, // alice's private grid shared with bob, put in by bob (a writer)
  others: 404404, // erin's private grid shared with alice, put in by alice
} as const;
type Kind = keyof typeof MARKERS;
type Reader = 'alice' | 'bob' | 'carol' | 'dave' | 'anonymous' | 'images';

/** Who sees each kind: the owner reads her own grids and erin's; bob the grid shared with him; everyone what the plot publishes. */
const SEES: Record<Reader, Kind[]> = {
  alice: ['published', 'open', 'writers', 'others'],
  bob: ['published', 'open', 'writers'],
  carol: ['published', 'open'],
  dave: ['published', 'open'],
  anonymous: ['published', 'open'],
  images: ['published', 'open'],
};

describe.each(SQL_DRIVER)('one reader rule for a plot (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  // alice owns the plot (public); bob writes it, carol reads it, dave is a stranger, erin shares a grid with alice.
  let alice: Viewer;
  let bob: Viewer;
  let carol: Viewer;
  let dave: Viewer;
  let erin: Viewer;
  const srcs = {} as Record<Kind, string>;
  let fid: Fid;

  const grid = async (owner: Viewer, kind: Kind, open: boolean, filename: string = kind) => {
    const { file } = await createGrid(db, owner, { filename, world_readable: open, data: { cols: { v: { data: [MARKERS[kind], 1, 2] } } } }, ORIGIN);
    return { fid: parseFid(file.fid)!, src: `${file.fid}:${file.cols[0].uid}` };
  };
  const viewerOf = (reader: Reader) => ({ alice, bob, carol, dave, anonymous: null, images: null })[reader];
  const seenIn = (text: string) => (Object.keys(MARKERS) as Kind[]).filter((k) => text.includes(String(MARKERS[k])));
  const contentText = async (viewer: Viewer | null, opts: { inlineData: boolean; mapUnreadable: boolean; version?: number }) =>
    joinParts((await getPlotContent(db, viewer, fid, opts)).parts());
  const figureWith = (kinds: Kind[]) => ({
    data: kinds.map((k): { type: string; name: string; ysrc: string } => ({ type: 'scatter', name: k, ysrc: srcs[k] })),
  });

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob, carol, dave, erin } = await people(db, 'carol', 'dave', 'erin'));
    const published = await grid(alice, 'published', false);
    const open = await grid(alice, 'open', true);
    const writers = await grid(alice, 'writers', false);
    const others = await grid(erin, 'others', false);
    Object.assign(srcs, { published: published.src, open: open.src, writers: writers.src, others: others.src });
    await addCollaborator(db, alice, writers.fid, { username: bob.username, permission: 'read' });
    await addCollaborator(db, erin, others.fid, { username: alice.username, permission: 'read' });
    const created = JSON.parse(await createPlot(db, alice, { figure: figureWith(['published', 'open', 'others']), world_readable: true }, ORIGIN));
    fid = parseFid(created.file.fid)!;
    await addCollaborator(db, alice, fid, { username: bob.username, permission: 'write' });
    await addCollaborator(db, alice, fid, { username: carol.username, permission: 'read' });
    // bob, who may not read `published` or `others`, adds the grid shared with him and keeps the rest.
    await updateFileDetail(db, bob, fid, { figure: figureWith(['published', 'open', 'others', 'writers']) }, ORIGIN, 'plot');
  });

  it('content, inline or mapped, CSV and images: each reader sees exactly the table', async () => {
    const file = await getFile(db, fid, null);
    for (const reader of Object.keys(SEES) as Reader[]) {
      const viewer = viewerOf(reader);
      const expected = [...SEES[reader]].sort();
      if (reader === 'images') {
        const render = await figureToRender(db, file!.id);
        expect(seenIn(render!.text).sort(), reader).toEqual(expected);
        continue;
      }
      expect(seenIn(await contentText(viewer, { inlineData: true, mapUnreadable: false })).sort(), `${reader} inline`).toEqual(expected);
      expect(seenIn(await contentText(viewer, { inlineData: true, mapUnreadable: true })).sort(), `${reader} inline+map`).toEqual(expected);
      expect(seenIn(await contentText(viewer, { inlineData: false, mapUnreadable: true })).sort(), `${reader} map`).toEqual(
        // map_data carries what the reader sees through the plot alone; their own grids stay srcs.
        expected.filter((k) => k === 'published' && reader !== 'alice'),
      );
      const own = (await getFile(db, fid, viewer))!;
      const headers = (await csvColumns(db, viewer, own)).map((c) => c.header.split(' ')[0]).sort();
      expect(headers, `${reader} csv`).toEqual(expected);
      // The editor names and draws, as map_data carries them, the columns seen through the plot alone.
      const seen = await listPlotSeenColumns(db, own, viewer);
      expect(
        seen.map((c) => (Object.keys(srcs) as Kind[]).find((k) => srcs[k] === c.src)),
        `${reader} editor`,
      ).toEqual(expected.filter((k) => k === 'published' && reader !== 'alice'));
      for (const c of seen) expect(c).toMatchObject({ names: ['v'], values: 3 });
    }
  });

  it("a writer's save keeps the srcs they cannot read, and may add none they cannot read", async () => {
    await expectApiError(updateFileDetail(db, carol, fid, { figure: figureWith(['open']) }, ORIGIN, 'plot'), 403);
    const hidden = await grid(alice, 'published', false, 'hidden');
    const figure = figureWith(['published', 'open', 'others', 'writers']);
    figure.data.push({ type: 'scatter', name: 'hidden', ysrc: hidden.src });
    await expectApiError(updateFileDetail(db, bob, fid, { figure }, ORIGIN, 'plot'), 400, /does not exist or which you cannot read/);
    // Nothing changed: the plot still draws what it drew.
    expect(seenIn(await contentText(alice, { inlineData: true, mapUnreadable: false })).sort()).toEqual(['open', 'others', 'published', 'writers']);
  });

  it("an old version shows a writer only what the plot publishes now; the owner's save publishes what it draws", async () => {
    // alice's save draws `writers` no more and `published` still: her save publishes the figure's srcs.
    await updateFileDetail(db, alice, fid, { figure: figureWith(['open', 'writers']) }, ORIGIN, 'plot');
    const versions = (await listPlotVersions(db, alice, fid, {})).rows.map((r) => r.version);
    const before = Math.max(...versions.filter((v) => v !== Math.max(...versions)));
    // The version before held `published` and `others`: bob may read neither on his own and the plot no longer draws them.
    expect(seenIn(await contentText(bob, { inlineData: true, mapUnreadable: true, version: before })).sort()).toEqual(['open', 'writers']);
    expect(seenIn(await contentText(alice, { inlineData: true, mapUnreadable: true, version: before })).sort()).toEqual([
      'open',
      'others',
      'published',
      'writers',
    ]);
    // Now alice's own save put `writers` in: its readers see it, and images draw it.
    expect(seenIn(await contentText(null, { inlineData: true, mapUnreadable: false })).sort()).toEqual(['open', 'writers']);
    // bob loses the grid: he still sees what the plot publishes, as any reader does.
    await removeCollaborator(db, alice, parseFid(srcs.writers.split(':').slice(0, 2).join(':'))!, bob.username);
    expect(seenIn(await contentText(bob, { inlineData: true, mapUnreadable: false })).sort()).toEqual(['open', 'writers']);
  });
});
