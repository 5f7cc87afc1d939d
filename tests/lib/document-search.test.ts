// Search's dashboards and presentations (lib/core/documents/document-cards.ts searchDocuments, the SQL function
// document_search_doc and its index) on both databases: found by the words of their filename, public
// ones for everyone and one's own for oneself, never trashed ones or plots, through the index.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { createDocument } from '@/lib/core/documents/dashboards';
import { searchDocuments } from '@/lib/core/documents/document-cards';
import { trashFile } from '@/lib/core/files/file-changes';
import { createPlot } from '@/lib/core/plots/plots';
import { fidOf } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, ORIGIN, people } from './_helpers';

const DASHBOARD = JSON.stringify({ layout: null, version: 2, settings: {} });
const PRESENTATION = JSON.stringify({ presentation: { slides: [] } });

describe.each(SQL_DRIVER)('document search (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;

  const make = async (owner: Viewer, filename: string, opts: { presentation?: boolean; public?: boolean } = {}) => {
    const type = opts.presentation ? 'spectacle_presentation' : 'dashboard';
    const { file } = await createDocument(db, owner, type, {
      content: opts.presentation ? PRESENTATION : DASHBOARD,
      filename,
      world_readable: opts.public ?? true,
    });
    return fidOf(owner.username, file.n);
  };
  const found = async (viewer: Viewer | null, q: string, scope: 'public' | 'own' = 'public') =>
    (await searchDocuments(db, viewer, q, scope)).map((r) => fidOf(r.owner, r.n));

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
  });

  it('finds documents by the words of their filename: public ones for all, one’s own for oneself, newest first', async () => {
    const sales = await make(alice, 'Quarterly_sales-review');
    const deck = await make(alice, 'Sales deck', { presentation: true });
    const secret = await make(alice, 'Sales secrets', { public: false });
    const bobs = await make(bob, 'Weather sales');
    await createPlot(db, alice, { figure: { data: [] }, filename: 'sales plot' }, ORIGIN);

    expect(await found(null, 'sales')).toEqual([bobs, deck, sales]);
    expect(await found(bob, 'sales')).toEqual([bobs, deck, sales]);
    // Split at _ and -, and whole; every word must match, as a web search.
    expect(await found(null, 'quarterly review')).toEqual([sales]);
    expect(await found(null, 'Quarterly_sales-review')).toEqual([sales]);
    expect(await found(null, 'sales -deck -weather')).toEqual([sales]);
    expect(await found(null, '"sales deck"')).toEqual([deck]);
    // One's own, private ones included.
    expect(await found(alice, 'sales', 'own')).toEqual([secret, deck, sales]);
    expect(await found(null, 'sales', 'own')).toEqual([]);
    // Type filters name trace types: documents have none.
    expect(await found(null, 'sales type:bar')).toEqual([]);
    await trashFile(db, alice, { owner: 'alice', n: Number(deck.split(':')[1]) });
    expect(await found(null, 'sales')).toEqual([bobs, sales]);
    // The query's limits are search's.
    await expectApiError(searchDocuments(db, null, 'x'.repeat(201), 'public'), 400, /q must be at most/);
  });

  it("can go through the index of document_search_doc (its expression is the query's)", async () => {
    // On a handful of rows the planner prefers any index with trashed_at in it: in one rolled-back
    // transaction, the files table grows to a real one's size first.
    const rollback = new Error('rollback');
    let plan = '';
    await db
      .transaction(async (tx) => {
        await queryRows(
          tx,
          sql`INSERT INTO files (owner_id, n, filetype, filename)
              SELECT ${bob.id}::int, 100000 + i, CASE WHEN i % 10 = 0 THEN 'dashboard' ELSE 'grid' END, 'file ' || i FROM generate_series(1, 20000) i`,
        );
        await queryRows(tx, sql`ANALYZE files`);
        const rows = await queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`EXPLAIN SELECT f.id FROM files f WHERE f.filetype IN ('dashboard', 'spectacle_presentation') AND f.trashed_at IS NULL
                AND document_search_doc(f.filename) @@ websearch_to_tsquery('simple', 'sales')`,
        );
        plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        throw rollback;
      })
      .catch((e) => {
        if (e !== rollback) throw e;
      });
    expect(plan).toContain('files_documents_search_idx');
  });
});
