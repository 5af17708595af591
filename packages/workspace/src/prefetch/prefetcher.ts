import { AsyncLocalStorage } from 'node:async_hooks';
import { WorkspaceWatcher } from '@agent-lsp/broker';
import type { LspConnection, Logger } from '@agent-lsp/lsp';
import { AdaptiveThreshold } from './adaptiveThreshold.js';
import { answerStatus, LearnedTransitions } from './learnedTransitions.js';
import { QueryCache, type CacheEntry } from './queryCache.js';
import { canSpeculate } from './speculationGuard.js';
import { dependsOnOneDocument, documentOf, queryKey } from './queryKey.js';
import { predictNext, type Prediction } from './predictionRules.js';
import { StatsCounters, type SpeculationStats } from './speculationStats.js';

export interface PrefetcherOptions {
  enabled: boolean;
  logger: Logger;
  /** The workspace's shared section: speculations run there (never beside an exclusive evaluation), after its disk resync. */
  shared<T>(fn: () => Promise<T>): Promise<T>;
  maxEntries?: number;
  maxBytes?: number;
  maxInFlight?: number;
  threshold?: number;
  speculationTimeoutMs?: number;
  /** Where the learned transitions of a workspace root are kept (in memory only when absent). */
  transitionsFile?: (root: string) => string | undefined;
}

/**
 * How long after a file event the epoch moves once more. Where a broker runs the server, its own
 * watcher tells the server of the same event, maybe a little later than ours told us: an answer
 * asked in between may predate the server's news yet be stored under the new epoch. The second
 * move makes such an answer unreachable once the server surely knows.
 */
const TRAILING_BUMP_MS = 1_000;

/** Agent queries after which a speculation nobody used counts as wasted (for the threshold). */
const USE_WITHIN_QUERIES = 3;

const DEFAULTS = { maxEntries: 500, maxBytes: 16 * 1024 * 1024, maxInFlight: 2, threshold: 0.5, speculationTimeoutMs: 15_000 };

/**
 * Answers read-only LSP queries of tool calls, from a cache when an identical query was already
 * asked (by a speculation or by the agent) on the same state of the workspace, and after each
 * answer launches the queries the agent is likely to make next (predictionRules.ts).
 *
 * Freshness: a key holds the connection, the method, the normalized params and the state the
 * answer was computed on — the document's version for single-document methods, otherwise the
 * workspace epoch: the connection's count of state-changing notifications (every didOpen,
 * didChange, didClose, watched-file event, whoever sent it through this front) plus this
 * prefetcher's own count of file events on disk (its watcher covers files no server holds open,
 * also where a broker watches for its server). Both only grow, so an answer computed before any
 * change can never be found again after it. Lookups happen where the tool sends its query, after
 * the tool call's own disk resync.
 */
export class Prefetcher {
  private readonly cache: QueryCache;
  private readonly stats = new StatsCounters();
  private readonly ids = new WeakMap<LspConnection, number>();
  private nextId = 1;
  private diskEpoch = 0;
  private watcher: WorkspaceWatcher | undefined;
  private watchedRoot: string | undefined;
  private inFlight = 0;
  private multiRoot = false;
  private trailingBump: NodeJS.Timeout | undefined;
  /** The listener of the tool call running in this async context (the audit log's mark). */
  private readonly served = new AsyncLocalStorage<() => void>();
  private readonly limits: typeof DEFAULTS;
  private readonly threshold: AdaptiveThreshold;
  /** Keys of the latest answer's predictions the threshold held back (a later call asking one is a false negative). */
  private heldBack = new Set<string>();
  /** Settled speculations and how many more agent queries they have to be used in. */
  private readonly unusedFor = new Map<CacheEntry, number>();
  private transitions = new LearnedTransitions();

  constructor(private readonly options: PrefetcherOptions) {
    this.limits = { ...DEFAULTS, ...definedOnly(options) };
    this.threshold = new AdaptiveThreshold({ initial: this.limits.threshold });
    this.cache = new QueryCache({ maxEntries: this.limits.maxEntries, maxBytes: this.limits.maxBytes }, (e) => this.evicted(e));
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /**
   * Starts (or moves) the disk watcher that moves the epoch on outside edits of files nobody holds
   * open. It watches one root: with more workspace folders the cache stands aside (every query
   * goes to the server), since edits in the others would go unseen.
   */
  watch(root: string | undefined, folderCount = 1): void {
    this.multiRoot = folderCount > 1;
    if (this.multiRoot && this.cache.size > 0) this.clear();
    if (!this.options.enabled || root === this.watchedRoot) return;
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watchedRoot = root;
    this.transitions.save();
    this.transitions = new LearnedTransitions(root ? this.options.transitionsFile?.(root) : undefined);
    if (!root) return;
    const w = new WorkspaceWatcher({ root, logger: this.options.logger, onChanges: () => this.diskChanged() });
    try {
      w.start();
      this.watcher = w;
    } catch (err) {
      this.options.logger.warn(`prefetch: could not watch ${root} (${(err as Error).message}); the cache is off`);
    }
  }

  /** Runs a tool call; `onServed` hears of each of its queries answered from the cache or joined. */
  observe<T>(onServed: () => void, fn: () => Promise<T>): Promise<T> {
    return this.served.run(onServed, fn);
  }

  /** A read-only query of a tool call: from the cache, joined to one on its way, or sent. */
  async request<R>(conn: LspConnection, method: string, params: unknown, signal: AbortSignal): Promise<R> {
    if (!this.usable(conn, method)) return conn.request<R>(method, params, { signal });
    await this.flushDisk();
    const key = this.keyOf(conn, method, params);
    this.ageSpeculations();
    const found = this.cache.get(key);
    if (found?.settled) {
      this.stats.hits++;
      this.stats.savedMs += found.durationMs;
      this.countHit(found);
      this.predictFrom(conn, method, params, found.value);
      return structuredClone(found.value) as R;
    }
    if (found?.pending) {
      found.joined = true;
      const pending = found.pending;
      try {
        const value = await abortable(pending, signal);
        this.stats.partialHits++;
        this.stats.savedMs += Date.now() - found.startedAt;
        this.countHit(found);
        this.predictFrom(conn, method, params, value);
        // The stored copy: the caller that asked first may already be reading (or changing) `value`.
        return structuredClone(found.settled ? found.value : value) as R;
      } catch (err) {
        if (signal.aborted) throw err;
        // The speculation failed: the agent's call asks for itself.
      }
    }
    this.stats.misses++;
    if (this.heldBack.has(key)) this.threshold.record('held_back');
    // The agent went elsewhere: what was guessed for it yields the server to its call.
    this.cancelSpeculations();
    const entry = this.begin(conn, key, method, 'agent');
    const started = Date.now();
    const sent = conn.request<R>(method, params, { signal });
    entry.pending = sent;
    this.cache.add(entry);
    try {
      const value = await sent;
      this.cache.settle(entry, structuredClone(value), sizeOf(value), Date.now() - started);
      entry.used = true;
      this.predictFrom(conn, method, params, value);
      return value;
    } catch (err) {
      this.cache.removeEntry(entry);
      throw err;
    }
  }

  /**
   * An agent call that writes, or takes the exclusive section, is about to run: speculations on
   * their way are cancelled so that it never waits behind one (their answers would be stale anyway).
   */
  yieldToAgent(): void {
    this.cancelSpeculations();
  }

  /** Everything cached is forgotten (a server restarted, the workspace changed). */
  clear(): void {
    this.cancelSpeculations();
    this.unusedFor.clear();
    this.cache.removeWhere(() => true);
  }

  snapshot(): SpeculationStats {
    const s = this.stats;
    let unusedMs = 0;
    for (const e of this.cache.values()) if (e.settled && !e.used) unusedMs += e.durationMs;
    const asked = s.hits + s.partialHits + s.misses;
    const rules: SpeculationStats['rules'] = {};
    for (const [name, r] of s.rules) rules[name] = { ...r, hit_rate: r.launched ? round(r.hits / r.launched) : 0 };
    return {
      enabled: this.options.enabled,
      predictions: s.predictions,
      launched: s.launched,
      hits: s.hits,
      partial_hits: s.partialHits,
      misses: s.misses,
      dropped: s.dropped,
      wasted_ms: s.wastedMs + unusedMs,
      latency_saved_ms: s.savedMs,
      in_flight: this.inFlight,
      threshold: this.threshold.value,
      hit_rate: asked ? round((s.hits + s.partialHits) / asked) : 0,
      cache_entries: this.cache.size,
      cache_bytes: this.cache.totalBytes,
      rules,
    };
  }

  dispose(): void {
    this.transitions.save();
    this.clear();
    clearTimeout(this.trailingBump);
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watchedRoot = undefined;
    this.transitions = new LearnedTransitions();
  }

  private usable(conn: LspConnection, method: string): boolean {
    return this.options.enabled && !this.multiRoot && this.watcher !== undefined && !this.watcher.degraded && canSpeculate(method) && conn.isAlive;
  }

  /** File events the OS already reported move the epoch before a key is made (see WorkspaceWatcher.flush). */
  private flushDisk(): Promise<void> {
    return this.watcher?.flush(() => this.diskChanged()) ?? Promise.resolve();
  }

  private diskChanged(): void {
    this.diskEpoch++;
    clearTimeout(this.trailingBump);
    this.trailingBump = setTimeout(() => this.diskEpoch++, TRAILING_BUMP_MS);
    this.trailingBump.unref();
  }

  private connectionId(conn: LspConnection): string {
    let id = this.ids.get(conn);
    if (id === undefined) {
      this.ids.set(conn, (id = this.nextId++));
      const connection = `c${id}`;
      // A crash ends every answer of that server; a restarted one is a new connection.
      conn.onCrash(() => this.cache.removeWhere((e) => e.connection === connection));
    }
    return `c${id}:${conn.pid ?? ''}`;
  }

  private keyOf(conn: LspConnection, method: string, params: unknown): string {
    const connection = this.connectionId(conn);
    const uri = documentOf(params);
    const doc = uri ? conn.documents.get(uri) : undefined;
    const state = dependsOnOneDocument(method) && doc ? `doc:${doc.version}` : `ws:${conn.changeEpoch}:${this.diskEpoch}`;
    return queryKey({ connection, method, params, state });
  }

  private begin(conn: LspConnection, key: string, method: string, rule: string): CacheEntry {
    return { key, connection: `c${this.ids.get(conn)}`, method, rule, startedAt: Date.now(), settled: false, durationMs: 0, bytes: 0, used: false, joined: false };
  }

  private countHit(e: CacheEntry): void {
    e.used = true;
    this.served.getStore()?.();
    if (e.rule === 'agent') return;
    this.stats.rule(e.rule).hits++;
    this.unusedFor.delete(e);
    this.threshold.record('hit');
  }

  /** One more agent query: speculations left unused for too long count as wasted guesses. */
  private ageSpeculations(): void {
    for (const [e, left] of this.unusedFor) {
      if (e.used) this.unusedFor.delete(e);
      else if (left > 1) this.unusedFor.set(e, left - 1);
      else {
        this.unusedFor.delete(e);
        this.threshold.record('wasted');
      }
    }
  }

  private evicted(e: CacheEntry): void {
    if (e.settled && !e.used) this.stats.wastedMs += e.durationMs;
  }

  private cancelSpeculations(): void {
    for (const e of this.cache.values()) {
      if (e.pending && e.abort && !e.joined) e.abort.abort();
    }
  }

  /**
   * A rule's confidence re-weighted by what agents of this workspace did next after such an
   * answer: the mean of the two once the transition was seen often enough.
   */
  private confidence(p: Prediction, method: string, result: unknown): number {
    const learned = this.transitions.probability(method, answerStatus(result), p.method);
    return learned === undefined ? p.confidence : (p.confidence + learned) / 2;
  }

  private predictFrom(conn: LspConnection, method: string, params: unknown, result: unknown): void {
    this.transitions.observe(method, answerStatus(result));
    let predictions: Prediction[];
    try {
      predictions = predictNext(method, params, result);
    } catch (err) {
      this.options.logger.debug(`prefetch: no prediction from ${method}: ${(err as Error).message}`);
      return;
    }
    this.heldBack = new Set();
    for (const p of predictions) {
      this.stats.predictions++;
      this.stats.rule(p.rule).predicted++;
      if (this.confidence(p, method, result) >= this.threshold.value) void this.speculate(conn, p);
      else if (canSpeculate(p.method)) this.heldBack.add(this.keyOf(conn, p.method, p.params));
    }
  }

  /**
   * Sends one predicted query, in the shared section, when it is allowed and the agent has opened
   * its document; a failure is dropped silently (the agent's own call will ask again).
   */
  private async speculate(conn: LspConnection, p: Prediction): Promise<void> {
    if (!canSpeculate(p.method) || this.inFlight >= this.limits.maxInFlight) return;
    this.inFlight++;
    try {
      await this.options.shared(async () => {
        if (!conn.isAlive || !conn.supports(p.method) || !this.agentHolds(conn, p.params)) return;
        await this.flushDisk();
        const key = this.keyOf(conn, p.method, p.params);
        if (this.cache.has(key)) return;
        const entry = this.begin(conn, key, p.method, p.rule);
        entry.abort = new AbortController();
        const started = Date.now();
        const sent = conn.request<unknown>(p.method, p.params, { signal: entry.abort.signal, timeoutMs: this.limits.speculationTimeoutMs });
        entry.pending = sent;
        this.cache.add(entry);
        this.stats.launched++;
        this.stats.rule(p.rule).launched++;
        try {
          const value = await sent;
          this.cache.settle(entry, structuredClone(value), sizeOf(value), Date.now() - started);
          if (!entry.used) this.unusedFor.set(entry, USE_WITHIN_QUERIES);
        } catch {
          this.threshold.record('wasted');
          this.stats.dropped++;
          this.stats.wastedMs += Date.now() - started;
          this.cache.removeEntry(entry);
        }
      });
    } catch (err) {
      this.stats.dropped++;
      this.options.logger.debug(`prefetch: ${p.rule} dropped: ${(err as Error).message}`);
    } finally {
      this.inFlight--;
    }
  }

  /** A speculation never opens a document: one naming a document must name one the agent opened. */
  private agentHolds(conn: LspConnection, params: unknown): boolean {
    const uri = documentOf(params);
    if (uri === undefined) return true;
    const doc = conn.documents.get(uri);
    return doc !== undefined && !doc.internal && doc.disk !== undefined;
  }
}

function definedOnly(o: PrefetcherOptions): Partial<typeof DEFAULTS> {
  const out: Partial<typeof DEFAULTS> = {};
  for (const k of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function sizeOf(value: unknown): number {
  return (JSON.stringify(value) ?? '').length * 2;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
