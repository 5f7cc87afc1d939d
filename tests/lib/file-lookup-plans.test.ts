// Finding a file by fid (owner and number) goes by the unique (owner_id, n) index in every plan
// Postgres may make: generic (a prepared statement's, after five runs) or custom, with statistics or
// without them. A plan that took a partial index on (owner_id, parent, n) instead walked all of an
// owner's files for each lookup (27 ms at 61,000 files). The statements are captured as the library
// runs them (a drizzle logger on a second client), then explained with their own parameters.
// Postgres only: the plans are the planner's, the same code in PGlite.
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database, type Db } from '@/db/client';
import * as schema from '@/db/schema';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createFolders, getFile } from '@/lib/core/files/files';
import { createGrid } from '@/lib/core/grids/grids';
import { refreshPlotsOfGrids } from '@/lib/core/images/images';
import { createPlot, getPlot, plotCreateSchema } from '@/lib/core/plots/plots';
import { parseFid } from '@/lib/core/records';
import { resolveSrcs } from '@/lib/core/plots/srcs';
import { ORIGIN, people } from './_helpers';
import { createMigratedDatabase } from '../support/postgres';

// Each owner's files besides the few the test makes: enough that walking them shows in a plan.
const FILLER = 3000;
const ALLOWED = new Set(['files_owner_n_key', 'files_pkey']);

interface Captured {
  query: string;
  params: unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** A parameter as an SQL literal (EXECUTE's arguments in an EXPLAIN cannot be protocol parameters). */
const literal = (value: unknown) => (value === null || value === undefined ? 'NULL' : `'${String(value).replace(/'/g, "''")}'`);

/** Every scan of `files` in a plan, as its node type and index (a bitmap scan's from its index scans). */
function fileScans(node: PlanNode, out: string[] = []): string[] {
  if (node['Relation Name'] === 'files' && node['Node Type'].endsWith('Scan')) {
    const indexes = node['Node Type'] === 'Bitmap Heap Scan' ? bitmapIndexes(node) : [node['Index Name'] ?? '(none)'];
    for (const index of indexes) out.push(`${node['Node Type']} ${index}`);
  }
  for (const child of node.Plans ?? []) fileScans(child, out);
  return out;
}

const bitmapIndexes = (node: PlanNode): string[] =>
  (node.Plans ?? []).flatMap((child) => (child['Node Type'] === 'Bitmap Index Scan' ? [child['Index Name']!] : bitmapIndexes(child)));

describe('finding a file by fid (postgres)', () => {
  const name = createDatabaseName('plans');
  let database: Database;
  let admin: postgres.Sql;
  let logged: postgres.Sql;
  let captured: Captured[] = [];
  let db: Db;
  let tracer: Db;
  let alice: Viewer;
  let bob: Viewer;
  let carol: Viewer;
  let gridFid: string;
  let uids: string[];
  let bobPlot: string;
  let alicePlot: string;

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    db = database.db;
    admin = postgres(adminUrl(name), { max: 1, onnotice: () => {} });
    logged = postgres(adminUrl(name), { max: 1, onnotice: () => {} });
    tracer = drizzle(logged, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
    ({ alice, bob, carol } = await people(db, 'carol'));
    const { file } = await createGrid(db, alice, { filename: 'g', data: { cols: { x: { data: [1, 2] }, y: { data: [3, 4] } } } }, ORIGIN);
    gridFid = file.fid;
    uids = file.cols.map((c) => c.uid);
    const figure = { data: [{ type: 'scatter', xsrc: `${gridFid}:${uids[0]}`, ysrc: `${gridFid}:${uids[1]}` }] };
    bobPlot = JSON.parse(await createPlot(db, bob, plotCreateSchema.parse({ figure }), ORIGIN)).file.fid;
    alicePlot = JSON.parse(await createPlot(db, alice, plotCreateSchema.parse({ figure, source_fid: bobPlot }), ORIGIN)).file.fid;
    await createFolders(db, alice, ['box']);
    // Thousands of live files for each owner, all in the top folder.
    for (const owner of [alice, bob]) {
      await db.execute(sql`INSERT INTO files (owner_id, n, filetype, filename, parent)
        SELECT ${owner.id}, n, 'plot', 'filler ' || n, -1 FROM generate_series(1000, ${1000 + FILLER - 1}) AS n`);
    }
  }, 60_000);

  afterAll(async () => {
    await logged?.end();
    await admin?.end();
    await database?.close();
    await dropDatabase(name);
  });

  // [what, the library call (on the logging database)]
  const lookups: [string, () => Promise<unknown>][] = [
    ['a live file (getFile)', () => getFile(tracer, parseFid(alicePlot)!, alice)],
    ['a trashed file (getFile)', () => getFile(tracer, parseFid(alicePlot)!, alice, 'trashed')],
    ['srcs (resolveSrcs)', () => resolveSrcs(tracer, [`${gridFid}:${uids[0]}`, `${gridFid}:${uids.join(',')}`], alice, () => true)],
    [
      'a folder by parent_path, locked (createFile)',
      () => createGrid(tracer, alice, { filename: `in folder ${Date.now()}`, parent_path: ['box'], data: { cols: { x: { data: [1] } } } }, ORIGIN),
    ],
    [
      "a create's srcs, checked in its statement (createPlot)",
      () => createPlot(tracer, bob, plotCreateSchema.parse({ figure: { data: [{ type: 'scatter', ysrc: `${gridFid}:${uids[1]}` }] } }), ORIGIN),
    ],
    ["a plot's source_fid, read by someone else (getPlot)", () => getPlot(tracer, carol, parseFid(alicePlot)!, ORIGIN)],
    ['the plots on a grid, re-counting their values (refreshPlotsOfGrids)', () => refreshPlotsOfGrids(tracer, [parseFid(gridFid)!])],
  ];

  for (const analyzed of [false, true]) {
    describe(analyzed ? 'with statistics' : 'without statistics', () => {
      beforeAll(async () => {
        if (analyzed) await admin`ANALYZE`;
      });

      it.each(lookups)('%s', async (_, call) => {
        captured = [];
        await call();
        // The statements that find a file by number (a lookup by name, say, goes by another index).
        const statements = captured.filter((c) => /\bfiles\b/.test(c.query) && /\bn"? = /.test(c.query));
        expect(statements.length, 'the call found a file by number').toBeGreaterThan(0);
        for (const [i, { query, params }] of statements.entries()) {
          await admin.unsafe('DEALLOCATE ALL');
          await admin.unsafe(`PREPARE s${i} AS ${query}`);
          for (const mode of ['force_generic_plan', 'force_custom_plan']) {
            await admin.unsafe(`SET plan_cache_mode = ${mode}`);
            const [row] = await admin.unsafe(`EXPLAIN (FORMAT JSON) EXECUTE s${i}${params.length ? `(${params.map(literal).join(', ')})` : ''}`);
            const plan = (row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
            const scans = fileScans(plan);
            expect(scans.length, `${mode}: the plan reads files`).toBeGreaterThan(0);
            for (const scan of scans) expect(ALLOWED.has(scan.split(' ').pop()!), `${mode}: ${scan} in\n${query}`).toBe(true);
          }
        }
      });
    });
  }

  it('the fixture is what the plans are judged on: thousands of live files per owner', async () => {
    const [row] = await queryRows<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM files WHERE owner_id = ${alice.id} AND trashed_at IS NULL`);
    expect(Number(row.n)).toBeGreaterThan(FILLER);
  });
});
