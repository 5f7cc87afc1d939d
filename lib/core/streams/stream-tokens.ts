// A person's stream tokens (the Python client's `stream_ids`): made and deleted on /settings, named by
// a trace's `stream.token`, and presented by the client's writes (lib/http/stream-writes.ts).
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { streamTokens } from '@/db/schema';
import { STREAM_LIMITS } from '@/lib/shared/streams';
import { apiError } from '../errors';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 20 characters of [a-z0-9] (~103 random bits): Chart Studio's tokens were short lowercase words too. */
function newToken(): string {
  return Array.from(randomBytes(20), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

export interface StreamToken {
  id: number;
  token: string;
  createdAt: Date;
}

export async function listStreamTokens(db: Db, userId: number): Promise<StreamToken[]> {
  return db
    .select({ id: streamTokens.id, token: streamTokens.token, createdAt: streamTokens.createdAt })
    .from(streamTokens)
    .where(eq(streamTokens.userId, userId))
    .orderBy(asc(streamTokens.id));
}

/** A new token for the person; 409 once they hold STREAM_LIMITS.tokensPerPerson. */
export async function createStreamToken(db: Db, userId: number): Promise<string> {
  return db.transaction(async (tx) => {
    // One person's concurrent requests count in turn (the row lock on their user row).
    await tx.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
    const [{ n }] = await tx.select({ n: count() }).from(streamTokens).where(eq(streamTokens.userId, userId));
    if (n >= STREAM_LIMITS.tokensPerPerson)
      throw apiError(409, 'CONFLICT', `You have ${STREAM_LIMITS.tokensPerPerson} stream tokens, the most one person may hold: delete one first.`);
    const token = newToken();
    await tx.insert(streamTokens).values({ userId, token });
    return token;
  });
}

/** Deletes one of the person's tokens (and what was streamed to it); false when they hold no such token. */
export async function deleteStreamToken(db: Db, userId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(streamTokens)
    .where(and(eq(streamTokens.userId, userId), eq(streamTokens.id, id)))
    .returning({ id: streamTokens.id });
  return gone.length > 0;
}

export async function findStreamToken(db: Db, token: string): Promise<{ id: number; userId: number } | undefined> {
  const [row] = await db.select({ id: streamTokens.id, userId: streamTokens.userId }).from(streamTokens).where(eq(streamTokens.token, token));
  return row;
}
