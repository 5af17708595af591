import { AsyncLocalStorage } from 'node:async_hooks';
import type { LspConnection } from '@agent-lsp/lsp';
import { startupMark } from '@agent-lsp/protocol';
import { AdaptiveThreshold } from './adaptiveThreshold.js';
import { answerStatus, LearnedTransitions } from './learnedTransitions.js';
import { QueryCache, type CacheEntry } from './queryCache.js';
import { answersKeepWithEpoch, canSpeculate } from './speculationGuard.js';
import { predictNext, type Prediction } from './predictionRules.js';
import { diagnosticsAfterWrite, versionsOf, type DocumentVersions } from './writeFollowUps.js';
import { StatsCounters, type SpeculationStats } from './speculationStats.js';
import { agentHolds, AgentTrail, type CallScope } from './agentTrail.js';
import { abortable, prefetchLimits, sizeOf, type PrefetchLimits, type PrefetcherOptions } from './prefetcherOptions.js';
import { QueryKeys } from './queryKeys.js';
import { RuleRecord, USE_WITHIN_QUERIES } from './ruleRecord.js';
import { statsSnapshot } from './statsSnapshot.js';

export type { PrefetcherOptions } from './prefetcherOptions.js';

/** Predictions waiting for one of the in-flight slots; more are dropped. */
const MAX_WAITING = 6;

/**
 * Answers read-only LSP queries of tool calls, from a cache when an identical query was already
 * asked (by a speculation or by the agent) on the same state of the workspace, and after each
 * answer launches the queries the agent is likely to make next (predictionRules.ts).
 *
 * Freshness: a key holds the connection, the method, the normalized params and the state the
 * answer was computed on — the document's version for single-document methods, otherwise the
 * workspace epoch: the connection's count of state-changing notifications (every didOpen,
 * didChange, didClose, watched-file event this front sent: in direct mode that includes what the
 * front's watcher saw, passed on at each section's door) and, where a broker runs the server, the
 * broker's own count for it, asked before each lookup (BrokerEpochRequest: it covers the broker
 * watcher's news and every other client's edits). Both only grow, so an answer computed before any
 * change can never be found again after it. Lookups happen where the tool sends its query, after
 * the tool call's own disk resync.
 */
export class Prefetcher {
  private readonly cache: QueryCache;
  private readonly stats = new StatsCounters();
  private readonly keys: QueryKeys;
  private watchedRoot: string | undefined;
  private inFlight = 0;
  /** Writes whose follow-up diagnostics are still being chosen (counted as in flight in the stats). */
  private planning = 0;
  private multiRoot = false;
  /** The listener of the tool call running in this async context (the audit log's mark). */
  private readonly served = new AsyncLocalStorage<CallScope>();
  /** Speculations decided during a tool call, waiting for its answer to go out first. */
  private deferredLaunches = 0;
  /** Speculations waiting for a free slot (at most MAX_WAITING; the agent's next miss drops them). */
  private readonly waiting: { conn: LspConnection; p: Prediction; answer: number }[] = [];
  /** Agent queries through the cache so far (speculations still unanswered after a few more are given up). */
  private agentQueries = 0;
  /** Counts the answers predictions were made from: the latest answer's guesses go first. */
  private answers = 0;
  private readonly limits: PrefetchLimits;
  private readonly threshold: AdaptiveThreshold;
  private readonly rules: RuleRecord;
  /** Keys of the latest answer's predictions the threshold held back (a later call asking one is a false negative). */
  private heldBack = new Set<string>();
  private transitions = new LearnedTransitions();
  /** The agent's latest queries (predictions repeating one are not launched) and positions (the outline rule). */
  private readonly trail = new AgentTrail();

  constructor(private readonly options: PrefetcherOptions) {
    this.limits = prefetchLimits(options);
    this.threshold = new AdaptiveThreshold({ initial: this.limits.threshold });
    this.rules = new RuleRecord(this.stats, this.threshold);
    this.keys = new QueryKeys(options.directWatching, (connection) => this.cache.removeWhere((e) => e.connection === connection));
    this.cache = new QueryCache({ maxEntries: this.limits.maxEntries, maxBytes: this.limits.maxBytes }, (e) => this.evicted(e));
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /**
   * The workspace's root (and how many folders it has). The watchers, the front's and the
   * brokers', see the root only: with more workspace folders the cache stands aside (every query
   * goes to the server), since edits in the others would go unseen.
   */
  watch(root: string | undefined, folderCount = 1): void {
    this.multiRoot = folderCount > 1;
    if (this.multiRoot && this.cache.size > 0) this.clear();
    if (!this.options.enabled || root === this.watchedRoot) return;
    this.watchedRoot = root;
    this.transitions.save();
    this.transitions = new LearnedTransitions(root ? this.options.transitionsFile?.(root) : undefined);
    this.clear();
  }

  /** Runs a tool call; `onServed` hears of each of its queries answered from the cache or joined. */
  observe<T>(onServed: () => void, fn: () => Promise<T>): Promise<T> {
    const scope: CallScope = { onServed, deferred: [], closed: false };
    return this.served.run(scope, fn).finally(() => {
      scope.closed = true;
      // The agent's answer is serialized and sent first; the guesses for its next call follow.
      if (scope.deferred.length > 0) setImmediate(() => scope.deferred.splice(0).forEach((launch) => launch()));
    });
  }

  /** A read-only query of a tool call: from the cache, joined to one on its way, or sent. */
  async request<R>(conn: LspConnection, method: string, params: unknown, signal: AbortSignal, timeoutMs?: number): Promise<R> {
    const options = timeoutMs === undefined ? { signal } : { signal, timeoutMs };
    const cacheable = this.usable(conn, method) && (await this.keys.refreshEpoch(conn, signal));
    startupMark('query epoch refreshed');
    if (!cacheable) return conn.request<R>(method, params, options);
    this.trail.note(method, params);
    const key = this.keys.keyOf(conn, method, params);
    this.agentQueries++;
    this.ageSpeculations();
    this.threshold.adapt();
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
    const sent = conn.request<R>(method, params, options);
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

  /**
   * An agent call that writes is done: the diagnostics of the documents it changed (that the
   * agent holds open), and of the open documents importing them, are what an agent asks next.
   * `before` is what `versionsOf` said before the call; the comparison is made after the shared
   * section's resync, so a change the call left on disk only counts too.
   */
  afterWrite(conns: readonly LspConnection[], before: DocumentVersions): void {
    if (!this.options.enabled || this.multiRoot) return;
    this.planning++;
    void this.options
      .shared(() => Promise.resolve(diagnosticsAfterWrite(conns, before)))
      .then((due) => {
        for (const { conn, prediction } of due) this.consider(conn, prediction, prediction.confidence, true);
      })
      .catch((err: unknown) => this.options.logger.debug(`prefetch: no diagnostics after a write: ${(err as Error).message}`))
      .finally(() => this.planning--);
  }

  /** The version of each document the agent holds, per connection (for afterWrite). */
  static versionsOf(conns: readonly LspConnection[]): DocumentVersions {
    return versionsOf(conns);
  }

  /** Everything cached is forgotten (a server restarted, the workspace changed). */
  clear(): void {
    this.cancelSpeculations();
    this.rules.clear();
    this.cache.removeWhere(() => true);
  }

  snapshot(): SpeculationStats {
    const live = { enabled: this.options.enabled, inFlight: this.inFlight + this.planning + this.deferredLaunches + this.waiting.length, threshold: this.threshold.value, cacheEntries: this.cache.size, cacheBytes: this.cache.totalBytes };
    return statsSnapshot(this.stats, this.cache.values(), live);
  }

  dispose(): void {
    this.transitions.save();
    this.clear();
    this.watchedRoot = undefined;
    this.transitions = new LearnedTransitions();
  }

  private usable(conn: LspConnection, method: string): boolean {
    return this.options.enabled && !this.multiRoot && canSpeculate(method) && conn.isAlive && answersKeepWithEpoch(conn);
  }

  private begin(conn: LspConnection, key: string, method: string, rule: string): CacheEntry {
    return { key, connection: this.keys.label(conn), method, rule, startedAt: Date.now(), settled: false, durationMs: 0, bytes: 0, used: false, joined: false };
  }

  private countHit(e: CacheEntry): void {
    const firstUse = !e.used;
    e.used = true;
    this.served.getStore()?.onServed();
    // A rule's record counts each speculation once, however often its answer serves the agent.
    this.rules.hit(e, firstUse);
  }

  /** One more agent query: speculations left unused for too long count as wasted guesses. */
  private ageSpeculations(): void {
    // One still on its way after the agent moved on several queries (a busy server queues it):
    // its answer would come too late to be used, and it holds the server meanwhile.
    for (const e of this.cache.values()) {
      if (e.pending && e.abort && !e.joined && e.launchedAtQuery !== undefined && this.agentQueries - e.launchedAtQuery > USE_WITHIN_QUERIES) e.abort.abort();
    }
    this.rules.age();
  }

  private evicted(e: CacheEntry): void {
    if (!e.settled || e.used) return;
    this.stats.wastedMs += e.durationMs;
    if (e.rule !== 'agent') this.stats.rule(e.rule).wasted_ms += e.durationMs;
  }

  private cancelSpeculations(): void {
    this.waiting.length = 0;
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

  /** Counts a prediction and launches it when allowed; `repeat` allows what the agent asked recently (after a write it asks again). */
  private consider(conn: LspConnection, p: Prediction, confidence: number, repeat = false): void {
    this.stats.predictions++;
    this.stats.rule(p.rule).predicted++;
    if (!repeat && this.trail.askedRecently(p.method, p.params)) return;
    if (this.rules.launches(p.rule, confidence)) this.launch(conn, p);
    else if (canSpeculate(p.method)) this.heldBack.add(this.keys.keyOf(conn, p.method, p.params));
  }

  private predictFrom(conn: LspConnection, method: string, params: unknown, result: unknown): void {
    this.transitions.observe(method, answerStatus(result));
    let predictions: Prediction[];
    try {
      predictions = predictNext(method, params, result, this.trail.context);
    } catch (err) {
      this.options.logger.debug(`prefetch: no prediction from ${method}: ${(err as Error).message}`);
      return;
    }
    this.heldBack = new Set();
    this.answers++;
    // The likeliest first: the in-flight limit turns the rest away.
    const ranked = predictions.map((p) => ({ p, c: this.confidence(p, method, result) })).sort((a, b) => b.c - a.c);
    for (const { p, c } of ranked) this.consider(conn, p, c);
  }

  /**
   * Sends one predicted query, in the shared section, when it is allowed and the agent has opened
   * its document; a failure is dropped silently (the agent's own call will ask again).
   */
  private launch(conn: LspConnection, p: Prediction): void {
    const scope = this.served.getStore();
    if (!scope || scope.closed) {
      void this.speculate(conn, p);
      return;
    }
    this.deferredLaunches++;
    scope.deferred.push(() => {
      this.deferredLaunches--;
      void this.speculate(conn, p);
    });
  }

  private async speculate(conn: LspConnection, p: Prediction): Promise<void> {
    // A guess must be cheap to withdraw: one the server cannot be told to drop (ServerDefinition
    // .uncancellable, pyright's references) would hold it, up to seconds, after the agent moved on.
    if (!canSpeculate(p.method) || conn.server.uncancellable?.includes(p.method)) return;
    if (this.inFlight >= this.limits.maxInFlight) {
      // The guesses from the latest answer go before older ones (the agent has moved on from
      // those); the oldest are dropped past the limit.
      const at = this.waiting.findIndex((w) => w.answer < this.answers);
      this.waiting.splice(at < 0 ? this.waiting.length : at, 0, { conn, p, answer: this.answers });
      if (this.waiting.length > MAX_WAITING) this.waiting.pop();
      return;
    }
    // Checked before taking the section (whose entry resyncs every open document): most
    // predictions after a hit are already cached, or name a document the agent never opened.
    if (!conn.isAlive || !conn.supports(p.method) || !agentHolds(conn, p.params) || this.cache.has(this.keys.keyOf(conn, p.method, p.params))) return;
    this.inFlight++;
    try {
      await this.options.shared(async () => {
        if (!conn.supports(p.method) || !agentHolds(conn, p.params) || !(await this.keys.refreshEpoch(conn)) || !this.usable(conn, p.method)) return;
        const key = this.keys.keyOf(conn, p.method, p.params);
        if (this.cache.has(key)) return;
        const entry = this.begin(conn, key, p.method, p.rule);
        entry.abort = new AbortController();
        entry.launchedAtQuery = this.agentQueries;
        const started = Date.now();
        const sent = conn.request<unknown>(p.method, p.params, { signal: entry.abort.signal, timeoutMs: this.limits.speculationTimeoutMs });
        entry.pending = sent;
        this.cache.add(entry);
        this.stats.launched++;
        this.stats.rule(p.rule).launched++;
        try {
          const value = await sent;
          this.cache.settle(entry, structuredClone(value), sizeOf(value), Date.now() - started);
          if (!entry.used) this.rules.settledUnused(entry);
        } catch {
          this.rules.unused(p.rule);
          this.stats.dropped++;
          this.stats.wastedMs += Date.now() - started;
          this.stats.rule(p.rule).wasted_ms += Date.now() - started;
          this.cache.removeEntry(entry);
        }
      });
    } catch (err) {
      this.stats.dropped++;
      this.options.logger.debug(`prefetch: ${p.rule} dropped: ${(err as Error).message}`);
    } finally {
      this.inFlight--;
      const next = this.waiting.shift();
      if (next) void this.speculate(next.conn, next.p);
    }
  }
}
