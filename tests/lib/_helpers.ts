// Shared helpers of the library tests (not a test file itself).
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { ApiError } from '@/lib/core/errors';
import { createUser } from '@/lib/core/accounts/users';

export const ORIGIN = 'http://plots.test';

export async function newViewer(db: Db, username: string): Promise<Viewer> {
  const { user } = await createUser(db, { username });
  return { id: user.id, username: user.username };
}

/**
 * The people of a suite, made on its database one after another (so their ids are in this order):
 * alice, whose files the tests are about, bob, anyone else, then `others` by their names.
 */
export async function people<const N extends string = never>(db: Db, ...others: N[]): Promise<Record<'alice' | 'bob' | N, Viewer>> {
  const made = {} as Record<string, Viewer>;
  for (const name of ['alice', 'bob', ...others]) made[name] = await newViewer(db, name);
  return made as Record<'alice' | 'bob' | N, Viewer>;
}

/** Awaits `p`, which must reject with an ApiError of `status`; returns the error. */
export async function expectApiError(p: Promise<unknown>, status: number, message?: string | RegExp): Promise<ApiError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected the call to throw an ApiError').toBeInstanceOf(ApiError);
  const err = caught as ApiError;
  expect(err.status).toBe(status);
  if (message !== undefined) expect(err.message).toMatch(message);
  return err;
}

/** The database id of each file by fid (`owner:n`). */
export async function fileIds(db: Db): Promise<Map<string, number>> {
  const rows = await queryRows<{ fid: string; id: string | number }>(
    db,
    sql`SELECT u.username || ':' || f.n AS fid, f.id FROM files f JOIN users u ON u.id = f.owner_id`,
  );
  return new Map(rows.map((r) => [r.fid, Number(r.id)]));
}

export async function joinParts(parts: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of parts) text += piece;
  return text;
}

/** An answer's whole text (a list page is one text unless it streams large records). */
export async function textOf(parts: string | AsyncIterable<string>): Promise<string> {
  if (typeof parts === 'string') return parts;
  let text = '';
  for await (const part of parts) text += part;
  return text;
}
