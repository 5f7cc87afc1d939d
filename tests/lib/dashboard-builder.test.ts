// What the dashboard builder and the workspace ask of the core, on both databases: the workspace's
// kinds for dashboards and presentations (each its own, never among plots), and the plots the builder
// offers (the viewer's own live charts, newest first or by search, paged; never anyone else's, nor a
// theme or template).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createDocument } from '@/lib/core/documents/dashboards';
import { trashFile } from '@/lib/core/files/file-changes';
import { listOwnFiles } from '@/lib/core/files/own-files';
import { listPlotChoices, PLOT_CHOICES_PAGE_SIZE } from '@/lib/core/plots/plot-choices';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('dashboard builder (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  const plot = async (owner: Viewer, title: string, extra: Record<string, unknown> = {}) => {
    const { file } = JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar' }] }, title, filename: title, ...extra }, ORIGIN));
    return parseFid((file as { fid: string }).fid)!;
  };

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  it('lists dashboards and presentations as kinds of their own', async () => {
    const p = await plot(alice, 'a plot');
    const board = await createDocument(db, alice, 'dashboard', { content: JSON.stringify({ layout: null, version: 2, settings: {} }), filename: 'board' });
    const deck = await createDocument(db, alice, 'spectacle_presentation', { content: JSON.stringify({ presentation: { slides: [] } }), filename: 'deck' });
    const kinds = async (filter: Parameters<typeof listOwnFiles>[3]['filter']) =>
      (await listOwnFiles(db, alice, -1, { size: 50, filter })).rows.map((r) => r.n);
    expect(await kinds('dashboard')).toEqual([board.file.n]);
    expect(await kinds('spectacle_presentation')).toEqual([deck.file.n]);
    expect(await kinds('plot')).toEqual([p.n]);
    expect((await kinds('all')).sort()).toEqual([p.n, board.file.n, deck.file.n].sort());
  });

  it("offers the viewer's own live charts, newest first or matching a search, a page at a time; no theme or template", async () => {
    const made: number[] = [];
    for (let i = 0; i < PLOT_CHOICES_PAGE_SIZE + 2; i++) made.push((await plot(bob, `chart ${i}`, { world_readable: i % 2 === 0 })).n);
    for (const kind of [{ isTheme: true }, { isTemplate: true }]) {
      const input = { figure: { data: [] }, title: 'zebra style', filename: `zebra ${Object.keys(kind)[0]}`, world_readable: false };
      await createPlot(db, bob, input, ORIGIN, 'web', kind);
    }
    const special = await plot(bob, 'Quarterly zebra revenue', { world_readable: false });
    const gone = await plot(bob, 'zebra trashed');
    await trashFile(db, bob, gone);
    await plot(alice, 'zebra of alice');

    const first = await listPlotChoices(db, bob, { q: '' }, ORIGIN);
    expect(first.rows).toHaveLength(PLOT_CHOICES_PAGE_SIZE);
    expect(first.rows[0]).toMatchObject({ owner: 'bob', n: special.n, title: 'Quarterly zebra revenue', filename: 'Quarterly zebra revenue' });
    expect(Number.isNaN(Date.parse(first.rows[0].updated))).toBe(false);
    const second = await listPlotChoices(db, bob, { q: '', cursor: first.next! }, ORIGIN);
    expect([...first.rows, ...second.rows].map((r) => r.n)).toEqual([special.n, ...made.reverse()]);
    expect(second.next).toBeNull();

    const found = await listPlotChoices(db, bob, { q: 'zebra' }, ORIGIN);
    expect(found.rows.map((r) => [r.owner, r.n])).toEqual([['bob', special.n]]);
  });
});
