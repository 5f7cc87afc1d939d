// The HTTP suites' two apps: one on PostgreSQL, one on embedded PGlite (both started by the global
// setup). A suite that must hold on both databases runs `describe.each(servers())`.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createUser } from '@/lib/core/accounts/users';
import { appDatabase, basic, callAt, createPlot, uploadGrid, type Answer, type CallOptions, type TestUser } from './api';

export interface Server {
  name: 'postgres' | 'pglite';
  url: string;
  /** A user no other test uses. */
  newUser(prefix?: string): Promise<TestUser>;
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<Answer<T>>;
  uploadGrid(user: TestUser, cols: Record<string, unknown[]>, extra?: Record<string, unknown>): ReturnType<typeof uploadGrid>;
  createPlot(user: TestUser, body: Record<string, unknown>): ReturnType<typeof createPlot>;
}

function server(name: Server['name'], url: string, newUser: Server['newUser']): Server {
  return {
    name,
    url,
    newUser,
    call: (method, path, opts) => callAt(url, method, path, opts),
    uploadGrid: (user, cols, extra) => uploadGrid(user, cols, extra, url),
    createPlot: (user, body) => createPlot(user, body, url),
  };
}

export function servers(): Server[] {
  const pgliteUsers = inject('pgliteUsers');
  return [
    server('postgres', inject('baseUrl'), async (prefix = 'u') => {
      const { db } = await appDatabase();
      const username = `${prefix}${randomBytes(4).toString('hex')}`;
      const { apiKey } = await createUser(db, { username });
      return { username, apiKey, auth: basic(username, apiKey) };
    }),
    server('pglite', inject('pgliteUrl'), async () => {
      const { username, apiKey } = pgliteUsers[claimPgliteUser(pgliteUsers.length)];
      return { username, apiKey, auth: basic(username, apiKey) };
    }),
  ];
}

/**
 * PGlite's users were made before its server started (it is single-process); test files run in
 * several workers, so each user is claimed once, by the first to create its marker directory.
 */
function claimPgliteUser(count: number): number {
  const dir = path.join(tmpdir(), `pf-pglite-claims-${new URL(inject('pgliteUrl')).port}`);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    try {
      mkdirSync(path.join(dir, String(i)));
      return i;
    } catch {
      // taken
    }
  }
  throw new Error(`all ${count} PGlite test users are taken: raise PGLITE_USERS in tests/global-setup.ts`);
}
