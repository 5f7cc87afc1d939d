// Page cursors on a fresh database: the signing key is created by the first request that needs one.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '@/lib/core/cursors';
import { useDatabase } from '../support/postgres';

describe('cursor key (postgres)', () => {
  const database = useDatabase('postgres');

  it('is created once when the first cursors are asked for at once, and signs them all', async () => {
    // Several first requests race to create the key (found under load by tests/hardening: a 500).
    const cursors = await Promise.all(Array.from({ length: 20 }, (_, i) => encodeCursor(database.db, { o: 'test', d: 'n', k: [i] })));
    for (const [i, cursor] of cursors.entries()) expect((await decodeCursor(database.db, cursor, 'test')).k).toEqual([i]);
  });
});
