// Demo data: a lively gallery out of the box, built from real plotly.js figures through the same code
// paths the API uses (each mock's raw arrays uploaded as a grid, the plot created on src references).
// Also a large synthetic set for benchmarks.
import 'server-only';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/db/client';
import { files, plots, users } from '@/db/schema';
import { createGrid } from '../grids/grids';
import { createPlotFromRawFigure, figureTitle } from '../plots/raw-figure';
import { createUser } from '../accounts/users';

const MOCKS_DIR = path.resolve(process.cwd(), 'fixtures/plotly-mocks');
const DEMO_USERS = [
  { username: 'ada', nickname: 'Ada', bio: 'Charts about engines and numbers.' },
  { username: 'grace', nickname: 'Grace', bio: 'Debugging the world, one plot at a time.' },
  { username: 'linus', nickname: 'Linus', bio: 'Maps, meshes and everything 3D.' },
  { username: 'mae', nickname: 'Mae', bio: 'Finance, funnels and flows.' },
];

/** A small deterministic PRNG (mulberry32), so every fresh install gets the same gallery. */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const humanize = (file: string) => {
  const words = file
    .replace(/\.json$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Seeds the demo gallery when the database has no users yet. Returns the created users' API keys. */
export async function seedDemoIfEmpty(db: Db): Promise<{ username: string; apiKey: string }[] | null> {
  return db.transaction(async (tx) => {
    // Several processes may start on one new database: one seeds, the rest find users and skip.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727275)`);
    const [{ count }] = await queryRows<{ count: number }>(tx, sql`SELECT count(*)::int AS count FROM users`);
    if (count > 0) return null;
    const created = await seedDemo(tx);
    console.log('Seeded the demo gallery. Demo users (API keys are shown only now):');
    for (const u of created) console.log(`  ${u.username}  ${u.apiKey}`);
    return created;
  });
}

async function seedDemo(db: Db) {
  const random = prng(20261121);
  const created = [];
  for (const u of DEMO_USERS) {
    const { user, apiKey } = await createUser(db, { ...u, email: `${u.username}@example.com` });
    created.push({ user, apiKey, username: user.username });
  }
  const mocks = readdirSync(MOCKS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const now = Date.now();
  for (const [i, file] of mocks.entries()) {
    const owner = created[i % created.length].user;
    const raw = JSON.parse(readFileSync(path.join(MOCKS_DIR, file), 'utf8'));
    const roll = random();
    const worldReadable = roll > 0.12;
    const fid = await createPlotFromRawFigure(db, owner, raw, {
      filename: file.replace(/\.json$/, ''),
      title: figureTitle(raw) || humanize(file),
      worldReadable,
      secret: !worldReadable && roll > 0.06,
    });
    // Curation and history an operator would have: views, quality, handpicks, ages over ~90 days.
    const n = Number(fid.split(':')[1]);
    const createdAt = new Date(now - Math.floor(random() * 90 * 86400_000));
    const [row] = await db.select({ id: files.id }).from(files).where(sql`${files.ownerId} = ${owner.id} AND ${files.n} = ${n}`);
    await db.update(files).set({ createdAt, updatedAt: createdAt }).where(eq(files.id, row.id));
    await db
      .update(plots)
      .set({
        views: Math.floor(random() ** 3 * 5000),
        quality: Math.floor(random() * 11),
        handpicked: random() < 0.3,
      })
      .where(eq(plots.fileId, row.id));
  }
  return created.map(({ username, apiKey }) => ({ username, apiKey }));
}

/**
 * A large synthetic set for benchmarks: `count` plots of the user `bench`, each a ~400-byte figure on
 * one shared grid, written with set-based SQL in batches. ~10% private, ~1% handpicked.
 */
/** Words of synthetic titles, one in ten plots each; every 1,000th title also says "aurora" (search benchmarks).
 * Neither follows n % 10, which makes one plot in ten private. */
export const SYNTHETIC_WORDS = ['rainfall', 'revenue', 'latency', 'population', 'voltage', 'glucose', 'traffic', 'humidity', 'yield', 'churn'];

export async function seedSynthetic(db: Db, count: number, log: (msg: string) => void = console.log): Promise<void> {
  let [bench] = await db.select().from(users).where(eq(users.username, 'bench'));
  if (!bench) {
    const { user, apiKey } = await createUser(db, { username: 'bench', bio: 'Synthetic plots for benchmarks.' });
    log(`Created user bench (API key ${apiKey}).`);
    bench = user;
  }
  const values = Array.from({ length: 20 }, (_, i) => i);
  const { file: grid } = await createGrid(
    db,
    { id: bench.id, username: bench.username },
    { data: { cols: { x: { data: values, order: 0 }, y: { data: values.map((v) => v * v), order: 1 } } }, filename: `bench grid ${Date.now()}` },
    'http://localhost',
  );
  const [x, y] = grid.cols.map((c) => `${grid.fid}:${c.uid}`);
  const figure = JSON.stringify({
    data: [{ type: 'scatter', mode: 'lines+markers', name: 'squares', xsrc: x, ysrc: y, marker: { color: '#636efa', size: 8 } }],
    layout: { title: { text: 'Synthetic plot' }, xaxis: { title: { text: 'x' } }, yaxis: { title: { text: 'x squared' } } },
  });
  const refs = JSON.stringify([
    { p: ['data', 0, 'xsrc'], s: x },
    { p: ['data', 0, 'ysrc'], s: y },
  ]);
  // Each row costs its search document too (the trigger plots_set_search): batches stay well inside the statement timeout.
  const batch = 20_000;
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    await db.transaction(async (tx) => {
      const [{ start }] = await queryRows<{ start: number }>(
        tx,
        sql`UPDATE users SET file_counter = file_counter + ${size}::int WHERE id = ${bench.id} RETURNING file_counter - ${size}::int AS start`,
      );
      await tx.execute(sql`
        WITH f AS (
          INSERT INTO files (owner_id, n, filetype, filename, parent, world_readable, created_at, updated_at)
          SELECT ${bench.id}::int, ${start}::int + g, 'plot', 'synthetic ' || (${start}::int + g), -1, (${start}::int + g) % 10 <> 0,
                 now() - ((${count - done}::int - g) * interval '1 second'), now()
          FROM generate_series(1, ${size}::int) g
          RETURNING id, n)
        INSERT INTO plots (file_id, figure, src_refs, title, views, quality, handpicked)
        SELECT id, ${figure}::jsonb, ${refs}::jsonb, 'Synthetic plot ' || n || ' ' || (${`{${SYNTHETIC_WORDS.join(',')}}`}::text[])[n / 10 % 10 + 1] || CASE WHEN n % 1000 = 1 THEN ' aurora' ELSE '' END,
               (random() * random() * 10000)::int, (random() * 10)::int, n % 100 = 0
        FROM f`);
    });
    log(`  ${Math.min(done + size, count)} / ${count} plots`);
  }
  // Vacuumed as autovacuum would leave an insert-only table: the visibility map lets list scans stay index-only.
  await db.execute(sql`VACUUM ANALYZE files`);
  await db.execute(sql`VACUUM ANALYZE plots`);
}
