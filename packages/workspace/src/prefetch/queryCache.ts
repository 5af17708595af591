/** One cached answer, or one still on its way (a later identical call joins it). */
export interface CacheEntry {
  key: string;
  /** The connection the entry belongs to (a crash drops them all). */
  connection: string;
  method: string;
  /** The prediction rule that launched it; `agent` for an answer the agent itself asked for. */
  rule: string;
  startedAt: number;
  /** Set while in flight; resolves to the answer or rejects. */
  pending?: Promise<unknown>;
  /** Settled answer (a private copy: callers get clones). */
  value?: unknown;
  settled: boolean;
  /** ms the server took (settled entries). */
  durationMs: number;
  bytes: number;
  /** Served to the agent at least once. */
  used: boolean;
  /** Cancels the request of a speculation (agent entries have none). */
  abort?: AbortController;
  /** An agent call waits on it: it must not be cancelled. */
  joined: boolean;
  /** A speculation counted unused (it aged out) before the agent came to use it after all. */
  agedOut?: boolean;
  /** How many agent queries had been made when this speculation was launched. */
  launchedAtQuery?: number;
}

export interface CacheLimits {
  maxEntries: number;
  maxBytes: number;
  /**
   * Age (ms since its request started) past which a settled answer is not served. Only a backstop:
   * keys already carry the state an answer was computed on.
   */
  maxAgeMs?: number;
}

/** The default backstop age of a cached answer. */
export const DEFAULT_MAX_AGE_MS = 10 * 60_000;

/**
 * Least-recently-used store of answers, bounded in entries and in bytes (of the JSON of the
 * answers). `onEvict` hears of every entry that leaves, so unused speculations count as waste.
 */
export class QueryCache {
  private readonly entries = new Map<string, CacheEntry>();
  private bytes = 0;

  constructor(
    private readonly limits: CacheLimits,
    private readonly onEvict: (entry: CacheEntry) => void = () => undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** The entry, made most recently used; a settled one older than `maxAgeMs` leaves instead. */
  get(key: string): CacheEntry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.settled && this.clock() - e.startedAt > (this.limits.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) {
      this.remove(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  add(entry: CacheEntry): void {
    this.remove(entry.key);
    this.entries.set(entry.key, entry);
    this.bytes += entry.bytes;
    this.trim();
  }

  /** An in-flight entry got its answer: its size now counts. */
  settle(entry: CacheEntry, value: unknown, bytes: number, durationMs: number): void {
    entry.value = value;
    entry.settled = true;
    delete entry.pending;
    entry.durationMs = durationMs;
    if (this.entries.get(entry.key) !== entry) return;
    this.bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    if (bytes > this.limits.maxBytes) this.remove(entry.key);
    else this.trim();
  }

  remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
    this.onEvict(e);
  }

  /** Removes this entry, if a newer one has not taken its key. */
  removeEntry(entry: CacheEntry): void {
    if (this.entries.get(entry.key) === entry) this.remove(entry.key);
  }

  removeWhere(pred: (e: CacheEntry) => boolean): void {
    for (const e of [...this.entries.values()]) if (pred(e)) this.remove(e.key);
  }

  values(): IterableIterator<CacheEntry> {
    return this.entries.values();
  }

  private trim(): void {
    for (const e of this.entries.values()) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) return;
      this.remove(e.key);
    }
  }
}
