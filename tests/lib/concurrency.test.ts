// Concurrent writes through the library: per-owner numbers stay distinct (and, with no failures,
// gap-free); concurrent updates of one plot leave exactly one of the written versions, never a mix.
import { isDeepStrictEqual } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import { users } from '@/db/schema';
import type { Viewer } from '@/lib/core/accounts/auth';
import { ApiError } from '@/lib/core/errors';
import { createFolders } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { getPlotContent } from '@/lib/core/plots/plot-content';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { DRIVERS, useDatabase } from '../support/postgres';
import { joinParts, newViewer, ORIGIN } from './_helpers';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const nOf = (fid: string) => parseFid(fid)!.n;
const plotFid = (text: string) => (JSON.parse(text) as { file: { fid: string } }).file.fid;

interface Detail {
  fid: string;
  filename: string;
  title: string;
  width: number | null;
  figure: { data: { name: string }[]; layout: { title: { text: string }; width: number } };
}

describe.each(DRIVERS)('concurrent writes (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;

  beforeAll(async () => {
    db = database.db;
  });

  const counterOf = async (viewer: Viewer) => (await db.select({ c: users.fileCounter }).from(users).where(eq(users.id, viewer.id)))[0].c;
  const numbersOf = async (viewer: Viewer) =>
    (await queryRows<{ n: number }>(db, sql`SELECT n FROM files WHERE owner_id = ${viewer.id} ORDER BY n`)).map((r) => Number(r.n));

  it('50 concurrent createPlot calls by one owner get 50 distinct, gap-free numbers', async () => {
    const alice = await newViewer(db, 'alice');
    const results = await Promise.allSettled(
      range(1, 50).map((i) => createPlot(db, alice, { figure: { data: [{ type: 'scatter', name: `t${i}` }] } }, ORIGIN)),
    );
    const rejected = results.filter((r) => r.status === 'rejected');
    expect(rejected.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const fids = results.map((r) => plotFid((r as PromiseFulfilledResult<string>).value));
    expect(fids.every((f) => f.startsWith('alice:'))).toBe(true);
    expect(fids.map(nOf).sort((a, b) => a - b)).toEqual(range(1, 50));
    expect(await numbersOf(alice)).toEqual(range(1, 50));
    expect(await counterOf(alice)).toBe(50);
    // Each plot is the one its call created (trace names match, default names are distinct).
    for (const [i, r] of results.entries()) {
      const detail = JSON.parse((r as PromiseFulfilledResult<string>).value).file as Detail;
      expect(detail.figure.data[0].name).toBe(`t${i + 1}`);
      expect(detail.filename).toBe(`plot ${nOf(detail.fid)}`);
    }
  });

  it('concurrent createGrid, createPlot and createFolders by one owner share one gap-free counter', async () => {
    const bob = await newViewer(db, 'bob');
    const { file: base } = await createGrid(db, bob, { data: { cols: { x: { data: [1, 2, 3] }, y: { data: [3, 2, 1] } } } }, ORIGIN);
    expect(base.fid).toBe('bob:1');
    const [x, y] = base.cols.map((c) => `${base.fid}:${c.uid}`);
    const calls: Promise<{ kind: string; n: number }>[] = [];
    for (let i = 0; i < 15; i++) {
      calls.push(
        createGrid(db, bob, { data: { cols: { v: { data: [i, i + 1] } } }, world_readable: i % 2 === 0 }, ORIGIN).then((g) => ({
          kind: 'grid',
          n: nOf(g.file.fid),
        })),
      );
      calls.push(
        createPlot(db, bob, { figure: { data: [{ type: 'scatter', xsrc: x, ysrc: y }] }, world_readable: i % 3 !== 0 }, ORIGIN).then((t) => ({
          kind: 'plot',
          n: nOf(plotFid(t)),
        })),
      );
      if (i % 3 === 0) calls.push(createFolders(db, bob, [`folder ${i}`]).then((f) => ({ kind: 'fold', n: f.n })));
    }
    const made = await Promise.all(calls);
    expect(made.map((m) => m.n).sort((a, b) => a - b)).toEqual(range(2, made.length + 1));
    expect(await numbersOf(bob)).toEqual(range(1, made.length + 1));
    expect(await counterOf(bob)).toBe(made.length + 1);
    // Each number's file has the type of the call that got it.
    const types = await queryRows<{ n: number; filetype: string }>(db, sql`SELECT n, filetype FROM files WHERE owner_id = ${bob.id}`);
    const typeOf = new Map(types.map((t) => [Number(t.n), t.filetype]));
    for (const m of made) expect(typeOf.get(m.n)).toBe(m.kind);
  });

  it('concurrent creates by several owners: each owner counts 1..n on their own', async () => {
    const owners = await Promise.all(['carol', 'dave', 'erin'].map((u) => newViewer(db, u)));
    const calls = owners.flatMap((o) => range(1, 15).map(() => createPlot(db, o, { figure: { data: [] } }, ORIGIN).then(plotFid)));
    const fids = await Promise.all(calls);
    for (const o of owners) {
      expect(
        fids
          .filter((f) => f.startsWith(`${o.username}:`))
          .map(nOf)
          .sort((a, b) => a - b),
      ).toEqual(range(1, 15));
      expect(await numbersOf(o)).toEqual(range(1, 15));
    }
  });

  it('concurrent creates of one filename: one wins, the rest are 400 "already exists", numbers never shared', async () => {
    const frank = await newViewer(db, 'frank');
    const results = await Promise.allSettled(range(1, 10).map(() => createPlot(db, frank, { figure: { data: [] }, filename: 'clash' }, ORIGIN)));
    const ok = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<string>[];
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(9);
    for (const f of failed) {
      expect(f.reason).toBeInstanceOf(ApiError);
      expect((f.reason as ApiError).status).toBe(400);
      expect((f.reason as ApiError).message).toBe("filename: Sorry, a file named 'clash' already exists");
    }
    const winner = nOf(plotFid(ok[0].value));
    // Only the winner's file exists; the next create gets a number above every number handed out.
    expect(await numbersOf(frank)).toEqual([winner]);
    const next = nOf(plotFid(await createPlot(db, frank, { figure: { data: [] } }, ORIGIN)));
    expect(next).toBeGreaterThan(winner);
    expect(next).toBe(await counterOf(frank));
  });

  it('20 concurrent plot updates leave exactly one written version, whole', async () => {
    const gina = await newViewer(db, 'gina');
    const fid = plotFid(
      await createPlot(db, gina, { figure: { data: [{ type: 'scatter', name: 'v0' }], layout: { title: { text: 'v0' } } }, filename: 'v0' }, ORIGIN),
    );
    const figures = range(1, 20).map((i) => ({
      data: range(1, i).map((k) => ({ type: 'bar', name: `v${i}.${k}` })),
      layout: { title: { text: `v${i}` }, width: 100 + i },
    }));
    const results = await Promise.allSettled(
      figures.map((figure, k) => updateFileDetail(db, gina, parseFid(fid)!, { figure, filename: `v${k + 1}` }, ORIGIN, 'plot')),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);

    const detail = JSON.parse(await getPlot(db, gina, parseFid(fid)!, ORIGIN)) as Detail;
    const k = figures.findIndex((f) => isDeepStrictEqual(f, detail.figure));
    expect(k, `stored figure ${JSON.stringify(detail.figure).slice(0, 200)} is none of the written ones`).toBeGreaterThanOrEqual(0);
    expect(detail.figure).toStrictEqual(figures[k]);
    // Everything else about the plot comes from that same write.
    expect(detail.title).toBe(`v${k + 1}`);
    expect(detail.width).toBe(100 + k + 1);
    expect(detail.filename).toBe(`v${k + 1}`);
    const content = JSON.parse(await joinParts((await getPlotContent(db, gina, parseFid(fid)!, { inlineData: false, mapUnreadable: false })).parts()));
    expect(content).toStrictEqual(figures[k]);
    const [{ version }] = await queryRows<{ version: number }>(
      db,
      sql`SELECT p.version FROM plots p JOIN files f ON f.id = p.file_id WHERE f.owner_id = ${gina.id} AND f.n = ${nOf(fid)}`,
    );
    expect(Number(version)).toBe(21);
    expect(await numbersOf(gina)).toEqual([1]);
  });
});
