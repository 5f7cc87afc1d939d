// Every real plotly.js mock, uploaded as the official client does (raw arrays to a grid, the plot on
// src references), must come back from GET /v2/plots/{fid}/content?inline_data=true exactly as it was.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { createPlotFromRawFigure } from '@/lib/core/plots/raw-figure';
import type { Viewer } from '@/lib/core/accounts/auth';
import { checkFigure } from '@/lib/core/figures/figure';
import { createGrid, getGrid } from '@/lib/core/grids/grids';
import { getPlotContent, type ContentOptions } from '@/lib/core/plots/plot-content';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { DRIVERS, useDatabase } from '../support/postgres';
import { expectApiError, joinParts, ORIGIN, people } from './_helpers';

const MOCKS_DIR = path.resolve(process.cwd(), 'fixtures/plotly-mocks');
const MOCKS = readdirSync(MOCKS_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const loadMock = (file: string) => JSON.parse(readFileSync(path.join(MOCKS_DIR, file), 'utf8')) as Record<string, unknown>;

type Json = unknown;
type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const SRC = /^([A-Za-z0-9][A-Za-z0-9_.-]*):([1-9][0-9]*):([0-9a-f]{6})$/;

/** What the content must be with every column inlined: the mock's figure, `layout` {} when absent. */
function expectedFigure(mock: Obj): Obj {
  return { data: mock.data, layout: mock.layout ?? {}, ...(mock.frames !== undefined ? { frames: mock.frames } : {}) };
}

interface Ref {
  path: string;
  src: string;
  value: Json;
}

/**
 * Walks the mock and the by-reference figure side by side: they must be equal except that a key `k`
 * holding an array in the mock is `ksrc` (a src string) in the stored figure. Returns those srcs.
 */
function refsOf(orig: Json, stored: Json, at = 'figure', out: Ref[] = []): Ref[] {
  if (Array.isArray(orig)) {
    expect(Array.isArray(stored), `${at} should be an array`).toBe(true);
    expect((stored as Json[]).length, `${at} length`).toBe(orig.length);
    orig.forEach((v, i) => {
      refsOf(v, (stored as Json[])[i], `${at}[${i}]`, out);
    });
    return out;
  }
  if (isObj(orig)) {
    expect(isObj(stored), `${at} should be an object`).toBe(true);
    const s = stored as Obj;
    const consumed = new Set<string>();
    for (const key of Object.keys(orig)) {
      if (key in s) {
        consumed.add(key);
        refsOf(orig[key], s[key], `${at}.${key}`, out);
        continue;
      }
      const src = s[`${key}src`];
      expect(typeof src === 'string' && SRC.test(src), `${at}.${key} is missing and ${at}.${key}src is ${JSON.stringify(src)}`).toBe(true);
      expect(Array.isArray(orig[key]), `${at}.${key} became a src but was not an array`).toBe(true);
      consumed.add(`${key}src`);
      out.push({ path: `${at}.${key}`, src: src as string, value: orig[key] });
    }
    expect(
      Object.keys(s).filter((k) => !consumed.has(k)),
      `extra keys at ${at}`,
    ).toEqual([]);
    return out;
  }
  expect(stored, at).toStrictEqual(orig);
  return out;
}

async function content(db: Db, viewer: Viewer | null, fid: string, opts: ContentOptions) {
  const c = await getPlotContent(db, viewer, parseFid(fid)!, opts);
  const text = await joinParts(c.parts());
  return { etag: c.etag, text, json: JSON.parse(text) as Obj };
}

describe.each(DRIVERS)('plot content round trip (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  const refCounts = new Map<string, number>();

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  it('the mock set covers the fixture set: ~90 figures of every kind of trace', () => {
    expect(MOCKS.length).toBeGreaterThanOrEqual(90);
    const types = new Set(MOCKS.flatMap((file) => (loadMock(file).data as { type?: string }[]).map((t) => t.type ?? 'scatter')));
    expect(types.size).toBeGreaterThanOrEqual(38);
  });

  it.each(MOCKS)('public %s: inline_data gives back exactly the mock; by reference holds srcs only', async (file) => {
    const mock = loadMock(file);
    const name = file.replace(/\.json$/, '');
    const fid = await createPlotFromRawFigure(db, alice, loadMock(file), { filename: name, origin: ORIGIN });
    const n = parseFid(fid)!.n;

    // inline_data=true, by anyone (public plot, public grid).
    for (const viewer of [null, alice, bob]) {
      const inline = await content(db, viewer, fid, { inlineData: true, mapUnreadable: false });
      expect(inline.json).toStrictEqual(expectedFigure(mock));
    }

    // By reference: the mock with each data array replaced by its src, all into one new grid.
    const byRef = await content(db, null, fid, { inlineData: false, mapUnreadable: false });
    expect(Object.keys(byRef.json).sort()).toEqual(Object.keys(expectedFigure(mock)).sort());
    const refs = refsOf(expectedFigure(mock), byRef.json);
    refCounts.set(file, refs.length);
    expect(() => checkFigure(byRef.json)).not.toThrow();
    if (refs.length) {
      const grid = await getGrid(db, null, { owner: 'alice', n: n - 1 }, ORIGIN);
      expect(grid.filename).toBe(`${name}_grid`);
      const uids = refs.map((r) => SRC.exec(r.src)!);
      expect(uids.every((m) => m[1] === 'alice' && Number(m[2]) === n - 1)).toBe(true);
      expect(new Set(uids.map((m) => m[3])).size).toBe(refs.length);
      expect(grid.cols.map((c) => c.uid).sort()).toEqual(uids.map((m) => m[3]).sort());
    }
    // Public grid readable by all: map_data=unreadable has nothing to add.
    const mapped = await content(db, null, fid, { inlineData: false, mapUnreadable: true });
    expect(mapped.json).toStrictEqual(byRef.json);

    // ETags: stable per variant, different between variants that differ.
    const again = await content(db, null, fid, { inlineData: false, mapUnreadable: false });
    expect(again.etag).toBe(byRef.etag);
    if (refs.length) {
      const inline = await content(db, null, fid, { inlineData: true, mapUnreadable: false });
      expect(inline.etag).not.toBe(byRef.etag);
    }
  });

  it('the round trips above were about data: every mock but the indicators had arrays moved to a grid', () => {
    expect(refCounts.size, 'every mock round-tripped above (this needs the whole file, not a filter)').toBe(MOCKS.length);
    const none = [...refCounts].filter(([, n]) => n === 0).map(([f]) => f);
    expect(none.filter((f) => !f.startsWith('indicator_'))).toEqual([]);
    expect([...refCounts.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(500);
    // Frames were split too.
    expect(refCounts.get('animation.json')).toBeGreaterThan(2);
  });

  it.each(MOCKS)('secret %s on a private grid: the owner and a share-key reader get everything inlined; map_data is not needed', async (file) => {
    const mock = loadMock(file);
    const name = `${file.replace(/\.json$/, '')} (secret)`;
    const fid = await createPlotFromRawFigure(db, alice, loadMock(file), { filename: name, worldReadable: false, secret: true, origin: ORIGIN });
    const detail = JSON.parse(await getPlot(db, alice, parseFid(fid)!, ORIGIN)) as { share_key?: string; world_readable: boolean };
    expect(detail.world_readable).toBe(false);
    expect(detail.share_key).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const shareKey = detail.share_key!;

    const owner = await content(db, alice, fid, { inlineData: true, mapUnreadable: false });
    expect(owner.json).toStrictEqual(expectedFigure(mock));
    const ownerMapped = await content(db, alice, fid, { inlineData: true, mapUnreadable: true });
    expect(ownerMapped.json).toStrictEqual(expectedFigure(mock)); // the owner can read the grid: nothing to map

    const byRef = await content(db, alice, fid, { inlineData: false, mapUnreadable: false });
    const refs = refsOf(expectedFigure(mock), byRef.json);

    // No share key (or a wrong one): exactly the 404 of a missing plot.
    for (const viewer of [null, bob]) {
      await expectApiError(getPlotContent(db, viewer, parseFid(fid)!, { inlineData: true, mapUnreadable: true }), 404, /^Not found\.$/);
      await expectApiError(getPlotContent(db, viewer, parseFid(fid)!, { inlineData: false, mapUnreadable: false, shareKey: `${shareKey}x` }), 404);
    }

    for (const viewer of [null, bob]) {
      // A secret link carries its data: with the key, the owner's grid counts as readable (docs/api.md
      // "Endpoints"), so both clients' `inline_data=true` gives the whole figure and nothing is mapped.
      for (const mapUnreadable of [false, true]) {
        const keyed = await content(db, viewer, fid, { inlineData: true, mapUnreadable, shareKey });
        expect(keyed.json).toStrictEqual(expectedFigure(mock));
      }
      const byRefKeyed = await content(db, viewer, fid, { inlineData: false, mapUnreadable: true, shareKey });
      expect(byRefKeyed.json).toStrictEqual(byRef.json);
    }
    // The grid itself stays private to that reader.
    if (refs.length) {
      const gridN = Number(SRC.exec(refs[0].src)![2]);
      await expectApiError(getGrid(db, null, { owner: 'alice', n: gridN }, ORIGIN, shareKey), 404);
    }
  });

  it('a public plot on a private grid: map_data holds exactly the referenced columns', async () => {
    const { file: grid } = await createGrid(
      db,
      alice,
      {
        data: {
          cols: { x: { data: [1, 2, 3], order: 0 }, y: { data: [4.5, 'five', null], order: 1 }, secret: { data: [6660666, 7770777, 8880888], order: 2 } },
        },
        world_readable: false,
      },
      ORIGIN,
    );
    const uid = Object.fromEntries(grid.cols.map((c) => [c.name, c.uid]));
    const xsrc = `${grid.fid}:${uid.x}`;
    const ysrc = `${grid.fid}:${uid.y}`;
    const figure = {
      data: [{ type: 'scatter', xsrc, ysrc, marker: { colorsrc: xsrc } }],
      layout: { title: { text: 'on a private grid' } },
    };
    const fid = (JSON.parse(await createPlot(db, alice, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid;

    const anon = await content(db, null, fid, { inlineData: false, mapUnreadable: true });
    expect(anon.json).toStrictEqual({ ...figure, map_data: { [xsrc]: [1, 2, 3], [ysrc]: [4.5, 'five', null] } });
    expect(anon.text).not.toContain('6660666');
    // inline_data gives a reader what the chart draws (the client's get_figure), never the rest of the grid.
    const anonInline = await content(db, bob, fid, { inlineData: true, mapUnreadable: false });
    expect(anonInline.json).toStrictEqual({
      data: [{ type: 'scatter', x: [1, 2, 3], y: [4.5, 'five', null], marker: { color: [1, 2, 3] } }],
      layout: { title: { text: 'on a private grid' } },
    });
    expect(anonInline.text).not.toContain('6660666');
    const owner = await content(db, alice, fid, { inlineData: true, mapUnreadable: true });
    expect(owner.json).toStrictEqual({
      data: [{ type: 'scatter', x: [1, 2, 3], y: [4.5, 'five', null], marker: { color: [1, 2, 3] } }],
      layout: { title: { text: 'on a private grid' } },
    });
    // Map and inline vary by reader: the ETags do too.
    expect(anon.etag).not.toBe(owner.etag);
  });

  it('a src with several uids inlines an array of the columns, in the listed order; frames too', async () => {
    const { file: grid } = await createGrid(
      db,
      alice,
      { data: { cols: { a: { data: [1, 2], order: 0 }, b: { data: [3, 4], order: 1 }, c: { data: ['x', 'y'], order: 2 } } } },
      ORIGIN,
    );
    const uid = Object.fromEntries(grid.cols.map((c) => [c.name, c.uid]));
    const zsrc = `${grid.fid}:${uid.b},${uid.a},${uid.c}`;
    const figure = {
      data: [{ type: 'heatmap', zsrc, xsrc: `${grid.fid}:${uid.c}` }],
      layout: {},
      frames: [{ name: 'f0', data: [{ zsrc: `${grid.fid}:${uid.a},${uid.b}`, textsrc: `${grid.fid}:${uid.c}` }] }],
    };
    const fid = (JSON.parse(await createPlot(db, bob, { figure }, ORIGIN)) as { file: { fid: string } }).file.fid;
    const inline = await content(db, null, fid, { inlineData: true, mapUnreadable: false });
    expect(inline.json).toStrictEqual({
      data: [
        {
          type: 'heatmap',
          z: [
            [3, 4],
            [1, 2],
            ['x', 'y'],
          ],
          x: ['x', 'y'],
        },
      ],
      layout: {},
      frames: [
        {
          name: 'f0',
          data: [
            {
              z: [
                [1, 2],
                [3, 4],
              ],
              text: ['x', 'y'],
            },
          ],
        },
      ],
    });
    const byRef = await content(db, null, fid, { inlineData: false, mapUnreadable: false });
    expect(byRef.json).toStrictEqual(figure);
  });
});
