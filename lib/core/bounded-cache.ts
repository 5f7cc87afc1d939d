// A least-recently-used cache bounded in entries and in bytes, per process: for what is derived from
// a stored version (the key carries it), so an entry never goes stale, only out. Concurrent misses of
// one key share one computation.

export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private readonly pending = new Map<string, Promise<V>>();
  private bytes = 0;

  constructor(
    private readonly limits: { entries: number; bytes: number },
    private readonly sizeOf: (value: V) => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // Re-inserted: a Map iterates in insertion order, so its first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V): void {
    const bytes = Math.max(0, this.sizeOf(value));
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    if (bytes > this.limits.bytes) return;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    while (this.entries.size > this.limits.entries || this.bytes > this.limits.bytes) {
      const [oldest, entry] = this.entries.entries().next().value as [string, { bytes: number }];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /** The cached value of `key`, else `make`'s (once for concurrent callers), kept. A failure is not kept. */
  async getOr(key: string, make: () => Promise<V> | V): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const running = this.pending.get(key);
    if (running) return running;
    const made = (async () => make())();
    this.pending.set(key, made);
    try {
      const value = await made;
      this.set(key, value);
      return value;
    } finally {
      this.pending.delete(key);
    }
  }
}
