// Large grid bodies are parsed off the event loop: a fixed pool of worker threads (one fewer than the
// cores, at most 4, at least 1) prepares them (lib/http/grid-bodies.ts), one body each at a time. A
// worker answers column values as json text, which crosses threads as a copy of bytes; the parsed
// values themselves would cost the event loop as much to receive as to parse. At most MAX_WAITING
// bodies, and MAX_WAITING_BYTES of them, wait for a worker (each up to GRID_COLUMNS_BODY_LIMIT): beyond, 429.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { busy } from '@/lib/core/errors';
import { MiB } from '@/lib/core/json-text';
import { apiError, revive, type GridBody, type Prepared } from './grid-bodies';

const MAX_WAITING = 4;
/** Bytes of bodies waiting at most: a body as large as GRID_COLUMNS_BODY_LIMIT waits alone (or with small ones). */
const MAX_WAITING_BYTES = 300 * MiB;

interface Task {
  kind: GridBody;
  bytes: Uint8Array;
  resolve: (prepared: Prepared) => void;
  reject: (error: Error) => void;
}

class BodyWorkers {
  private readonly idle: Worker[] = [];
  private readonly working = new Map<Worker, Task>();
  private readonly waiting: Task[] = [];
  private started = 0;

  constructor(private readonly size: number) {}

  prepare(kind: GridBody, bytes: Uint8Array): Promise<Prepared> {
    return new Promise((resolve, reject) => {
      const waitingBytes = this.waiting.reduce((sum, t) => sum + t.bytes.byteLength, 0);
      if (this.waiting.length >= MAX_WAITING || (this.waiting.length && waitingBytes + bytes.byteLength > MAX_WAITING_BYTES))
        return reject(busy('Too many large grid bodies are waiting to be read; try again shortly.', 1));
      this.waiting.push({ kind, bytes, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.waiting.length) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.start() : undefined);
      if (!worker) return;
      const task = this.waiting.shift()!;
      this.working.set(worker, task);
      // The bytes move to the worker (no copy) when they own their buffer, as a request body's do.
      const { buffer, byteOffset, byteLength } = task.bytes;
      const bytes = byteOffset === 0 && byteLength === buffer.byteLength ? buffer : buffer.slice(byteOffset, byteOffset + byteLength);
      worker.postMessage({ kind: task.kind, bytes }, [bytes as ArrayBuffer]);
    }
  }

  private start(): Worker {
    this.started++;
    // This form is what the bundler (Turbopack) compiles into a worker chunk of its own, imports included.
    const worker = new Worker(new URL('./grid-body-worker.ts', import.meta.url));
    // Idle workers never keep the process alive.
    worker.unref();
    let failure: Error | undefined;
    worker.on('message', (answer: Prepared | { crash: string }) => {
      const task = this.working.get(worker)!;
      this.working.delete(worker);
      this.idle.push(worker);
      if ('crash' in answer) task.reject(new Error(`grid body worker: ${answer.crash}`));
      else task.resolve(answer);
      this.next();
    });
    worker.on('error', (error) => (failure = error));
    // A worker that dies (out of memory, say) fails its body with a 500 and is replaced on demand.
    worker.on('exit', (code) => {
      this.started--;
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.working.get(worker)?.reject(failure ?? new Error(`grid body worker exited (${code})`));
      this.working.delete(worker);
      this.next();
    });
    return worker;
  }
}

declare global {
  var __plotFilesBodyWorkers: BodyWorkers | undefined;
}

/** A large grid body of `kind`, parsed and checked off the event loop, its columns' values made. */
export async function parseLargeGridBody(kind: GridBody, bytes: Uint8Array): Promise<unknown> {
  globalThis.__plotFilesBodyWorkers ??= new BodyWorkers(Math.max(1, Math.min(4, availableParallelism() - 1)));
  const prepared = await globalThis.__plotFilesBodyWorkers.prepare(kind, bytes);
  if ('error' in prepared) throw apiError(prepared.error);
  return revive(prepared.body);
}
