// One open stream (one chunked POST of the client): its writes are applied in memory and stored
// with their notice at most every FLUSH_MS, so a client writing thousands of points a second costs
// the database ten statements a second, and every page still hears each write well within a second.
// A token has one open stream across every app process: the stream holds the lease `stream:{id}`
// (lib/core/leases.ts), renewed while it is open, so a process that dies frees it within LEASE_SECONDS.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { claimLease, releaseLease, renewLease } from '../leases';
import { applyStreamWrite, parseStreamLine, type StreamWrite } from '@/lib/shared/streams';
import { EMPTY_STATE, readStreamStates, saveStreamState, type StoredStream, streamMaxpointsOf } from './stream-state';
import { findStreamToken } from './stream-tokens';

const FLUSH_MS = 100;
const LEASE_SECONDS = 30;
const RENEW_MS = 10_000;

export class StreamSession {
  private pending: StreamWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private holder = `${process.pid}:${randomUUID()}`;
  private renewal: NodeJS.Timeout | null = null;

  private state: StoredStream = EMPTY_STATE;

  private constructor(
    private db: Db,
    readonly tokenId: number,
    private maxpoints: number,
  ) {}

  /** The session for `token` (to claim before writing), or null when no one holds that token. */
  static async open(db: Db, token: string): Promise<StreamSession | null> {
    const held = await findStreamToken(db, token);
    if (!held) return null;
    return new StreamSession(db, held.id, await streamMaxpointsOf(db, held.userId, token));
  }

  private get leaseKey() {
    return `stream:${this.tokenId}`;
  }

  /**
   * Takes the token's one open stream for this session; false when another stream (in any process)
   * holds it. The state is read once held: the stream before stored all of its writes before letting go.
   */
  async claim(): Promise<boolean> {
    if (!(await claimLease(this.db, this.leaseKey, this.holder, LEASE_SECONDS))) return false;
    this.startRenewal();
    try {
      this.state = (await readStreamStates(this.db, [this.tokenId])).get(this.tokenId) ?? EMPTY_STATE;
    } catch (error) {
      await this.close();
      throw error;
    }
    return true;
  }

  private startRenewal() {
    this.renewal = setInterval(
      () =>
        void renewLease(this.db, this.leaseKey, this.holder, LEASE_SECONDS).catch((error: unknown) =>
          console.error('Stream lease not renewed:', (error as Error).message),
        ),
      RENEW_MS,
    ).unref();
  }

  /** Stores what is pending and gives the token's stream back. */
  async close(): Promise<void> {
    await this.flush();
    if (!this.renewal) return;
    clearInterval(this.renewal);
    this.renewal = null;
    await releaseLease(this.db, this.leaseKey, this.holder).catch((error: unknown) => console.error('Stream lease not released:', (error as Error).message));
  }

  /** Applies one line of the body (throws StreamLineError for a bad one); true when it was a write, false for a heartbeat. */
  write(line: string): boolean {
    const write = parseStreamLine(line);
    if (!write) return false;
    this.state = { ...applyStreamWrite(this.state, write, this.maxpoints), seq: this.state.seq + 1 };
    this.pending.push(write);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, FLUSH_MS);
    return true;
  }

  /** Stores what is pending (in order with earlier flushes); resolves once stored. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const writes = this.pending;
    this.pending = [];
    const state = this.state;
    this.flushing = this.flushing.then(async () => {
      if (writes.length === 0) return;
      await saveStreamState(this.db, this.tokenId, state, writes).catch((error: unknown) =>
        console.error('Stream write not stored:', (error as Error).message),
      );
    });
    return this.flushing;
  }
}
