// The workspace at 1,000+ files: each page of a folder is a bounded scan of the owner's rows. Latest
// modified first reads files_owner_folder_modified_idx and by name files_owner_folder_name_idx (both
// lead with the folder flag: folders first), stopping after a page's rows, however many files the folder holds; most viewed (views live
// on plots) and a kind filter read at most the folder's rows. The plots of a grid come by the GIN
// index on their grid keys. The statements are captured as the library runs them, then explained with
// their own parameters and run (EXPLAIN ANALYZE); a page's references are looked up by index too.
// Postgres only: the plans are the planner's, the same code in PGlite.
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '@/db/client';
import * as schema from '@/db/schema';
import { adminUrl, createDatabaseName, dropDatabase } from '@/harness/postgres';
import type { Viewer } from '@/lib/core/accounts/auth';
import { listOwnFiles } from '@/lib/core/files/own-files';
import type { OwnFilter, OwnPlace, OwnSort } from '@/lib/shared/workspace-view';
import { countPlotsOfGrids, gridsOfPlots } from '@/lib/core/files/references';
import { newViewer } from './_helpers';
import { createMigratedDatabase } from '../support/postgres';

/** The owner's files at the top level (a third plots on one of ten grids, a third grids, a third folders), and the other owner's. */
const FILES = 20_000;
const OTHERS = 100_000;
const PAGE = 30;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const literal = (value: unknown) => (value === null || value === undefined ? 'NULL' : `'${String(value).replace(/'/g, "''")}'`);

/** Every scan of `files` in a plan: its node type, index and the rows it returned. */
function fileScans(node: PlanNode, out: { scan: string; rows: number }[] = []) {
  if (node['Relation Name'] === 'files' && node['Node Type'].endsWith('Scan')) {
    out.push({
      scan: `${node['Node Type']} ${node['Index Name'] ?? bitmapIndexes(node).join('+')}`,
      rows: (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1),
    });
  }
  for (const child of node.Plans ?? []) fileScans(child, out);
  return out;
}
const bitmapIndexes = (node: PlanNode): string[] =>
  (node.Plans ?? []).flatMap((child) => (child['Node Type'] === 'Bitmap Index Scan' ? [child['Index Name']!] : bitmapIndexes(child)));

describe('the workspace at 1,000+ files (postgres)', () => {
  const name = createDatabaseName('workspace');
  let database: Database;
  let admin: postgres.Sql;
  let logged: postgres.Sql;
  let captured: { query: string; params: unknown[] }[] = [];
  let db: Db;
  let tracer: Db;
  let owner: Viewer;

  beforeAll(async () => {
    await createMigratedDatabase(name);
    database = await openDatabase(adminUrl(name));
    db = database.db;
    admin = postgres(adminUrl(name), { max: 1, onnotice: () => {} });
    logged = postgres(adminUrl(name), { max: 1, onnotice: () => {} });
    tracer = drizzle(logged, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
    owner = await newViewer(db, 'owner');
    const other = await newViewer(db, 'other');
    // n 1..FILES: grids, then plots (each drawing from one of the first ten grids), then folders; modified in a shuffled order.
    const third = Math.floor(FILES / 3);
    await db.execute(sql`INSERT INTO files (owner_id, n, filetype, filename, parent, updated_at)
      SELECT ${owner.id}, n, CASE WHEN n <= ${third} THEN 'grid' WHEN n <= ${2 * third} THEN 'plot' ELSE 'fold' END,
             'file ' || md5(n::text), -1, now() - ((n * 7919) % ${FILES}) * interval '1 minute'
      FROM generate_series(1, ${FILES}) AS n`);
    await db.execute(sql`INSERT INTO plots (file_id, figure, src_refs, views)
      SELECT f.id, '{}'::jsonb, jsonb_build_array(jsonb_build_object('s', 'owner:' || (1 + f.n % 10) || ':abcdef')), (f.n * 31) % 1000
      FROM files f WHERE f.owner_id = ${owner.id} AND f.filetype = 'plot'`);
    await db.execute(sql`INSERT INTO files (owner_id, n, filetype, filename, parent)
      SELECT ${other.id}, n, 'plot', 'other ' || n, -1 FROM generate_series(1, ${OTHERS}) AS n`);
    await admin`ANALYZE`;
  }, 120_000);

  afterAll(async () => {
    await logged?.end();
    await admin?.end();
    await database?.close();
    await dropDatabase(name);
  });

  /** The files scans of the statements `call` ran, each explained and run with its parameters. */
  async function scansOf(call: () => Promise<unknown>) {
    captured = [];
    await call();
    const scans: { scan: string; rows: number }[] = [];
    for (const [i, { query, params }] of captured.entries()) {
      if (!/\bfiles\b/.test(query)) continue;
      await admin.unsafe('DEALLOCATE ALL');
      await admin.unsafe(`PREPARE w${i} AS ${query}`);
      const [row] = await admin.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE w${i}${params.length ? `(${params.map(literal).join(', ')})` : ''}`);
      scans.push(...fileScans((row['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan));
    }
    return scans;
  }

  /** The third page (a cursor two pages in) of a list. */
  async function thirdPage(place: OwnPlace, q: { filter?: OwnFilter; sort?: OwnSort }, on: Db) {
    const first = await listOwnFiles(db, owner, place, { size: PAGE, ...q });
    const second = await listOwnFiles(db, owner, place, { size: PAGE, ...q, cursor: first.next! });
    return listOwnFiles(on, owner, place, { size: PAGE, ...q, cursor: second.next! });
  }

  const orders: [string, OwnSort, string, number][] = [
    ['latest modified', 'modified', 'files_owner_folder_modified_idx', PAGE + 1],
    ['by name', 'name', 'files_owner_folder_name_idx', PAGE + 1],
    // Views are the plots': the folder's rows, top-N sorted.
    ['most viewed', 'views', '', FILES],
  ];

  it.each(orders)('a page %s reads the owner’s index, not the table, and a bounded number of rows', async (_, sort, index, bound) => {
    const scans = await scansOf(() => thirdPage(-1, { sort }, tracer));
    expect(scans.length).toBeGreaterThan(0);
    for (const s of scans) {
      expect(s.scan, JSON.stringify(scans)).not.toMatch(/^Seq Scan/);
      if (index) expect(s.scan).toContain(index);
      expect(s.rows, JSON.stringify(scans)).toBeLessThanOrEqual(bound);
    }
  });

  it('a kind filter, and the plots of a grid, read at most the folder’s rows, never the table', async () => {
    for (const s of await scansOf(() => thirdPage(-1, { filter: 'plot' }, tracer))) {
      expect(s.scan).not.toMatch(/^Seq Scan/);
      expect(s.rows).toBeLessThanOrEqual(FILES);
    }
    for (const s of await scansOf(() => thirdPage({ uses: 3 }, {}, tracer))) expect(s.scan).not.toMatch(/^Seq Scan/);
  });

  // Its time is a benchmark's business (bench/); here, what makes it fast: the references of a page
  // are looked up by index, reading a bounded number of rows, never the whole table.
  it('a page with its plots’ grids and its grids’ plots reads indexes and a bounded number of rows', async () => {
    // (The folders come first: a page of plots and one of grids.)
    const plots = (await thirdPage(-1, { filter: 'plot' }, db)).rows.map((r) => Number(r.id));
    const grids = (await thirdPage(-1, { filter: 'grid' }, db)).rows.map((r) => ({ owner: 'owner', n: r.n }));
    expect(plots.length + grids.length).toBeGreaterThan(0);
    const scans = await scansOf(async () => {
      await gridsOfPlots(tracer, owner.id, plots);
      await countPlotsOfGrids(tracer, owner.id, grids);
    });
    for (const s of scans) {
      expect(s.scan, JSON.stringify(scans)).not.toMatch(/^Seq Scan/);
      expect(s.rows, JSON.stringify(scans)).toBeLessThanOrEqual(FILES);
    }
  });
});
