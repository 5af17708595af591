import { AsyncLocalStorage } from 'node:async_hooks';
import type { LspConnection, Logger } from '@agent-lsp/lsp';
import { AdaptiveThreshold } from './adaptiveThreshold.js';
import { answerStatus, LearnedTransitions } from './learnedTransitions.js';
import { QueryCache, type CacheEntry } from './queryCache.js';
import { canSpeculate } from './speculationGuard.js';
import { dependsOnOneDocument, documentOf, normalizedParams, queryKey } from './queryKey.js';
import { predictNext, type Prediction, type PredictionContext } from './predictionRules.js';
import { diagnosticsAfterWrite, versionsOf, type DocumentVersions } from './writeFollowUps.js';
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
  /**
   * Whether the front's own watcher sees outside edits for the servers it runs itself (direct
   * mode): its news reaches those servers as notifications at every section's door, which move
   * their connection's epoch. Where a broker runs the server, the broker's count is asked instead.
   */
  directWatching: () => boolean;
}

/** Agent queries after which a speculation nobody used counts as wasted (for the threshold). */
const USE_WITHIN_QUERIES = 3;

const DEFAULTS = { maxEntries: 500, maxBytes: 16 * 1024 * 1024, maxInFlight: 3, threshold: 0.5, speculationTimeoutMs: 15_000 };

/** Predictions waiting for one of the in-flight slots; more are dropped. */
const MAX_WAITING = 6;

/** The agent's latest queries a prediction must not repeat: it rarely asks the same thing twice running. */
const RECENT_AGENT_QUERIES = 8;
/** Decided launches (used or unused) of a rule after which its own hit rate decides for it, whatever the global threshold says. */
const RULE_RECORD_MIN = 4;
/** A rule its record stopped still launches one prediction in this many, so that it can recover. */
const RULE_PROBE_EVERY = 5;
/** A rule hitting at least this often launches even above the threshold; one below `RULE_FAILING` no longer does. */
const RULE_GOOD = 0.5;
const RULE_FAILING = 0.15;

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
  private readonly ids = new WeakMap<LspConnection, number>();
  private nextId = 1;
  /** Each broker connection's count, as last asked (see refreshEpoch). */
  private readonly brokerEpochs = new WeakMap<LspConnection, string>();
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
  private readonly limits: typeof DEFAULTS;
  private readonly threshold: AdaptiveThreshold;
  /** Keys of the latest answer's predictions the threshold held back (a later call asking one is a false negative). */
  private heldBack = new Set<string>();
  /** Settled speculations and how many more agent queries they have to be used in. */
  private readonly unusedFor = new Map<CacheEntry, number>();
  private transitions = new LearnedTransitions();
  /** Method and params of the agent's latest queries (predictions repeating one are not launched). */
  private readonly recentAgent: string[] = [];
  /** The agent's latest position per document (the outline rule looks for what encloses it). */
  private readonly lastPositions = new Map<string, { line: number; character: number }>();
  private readonly context: PredictionContext = { lastPosition: (uri) => this.lastPositions.get(uri) };

  constructor(private readonly options: PrefetcherOptions) {
    this.limits = { ...DEFAULTS, ...definedOnly(options) };
    this.threshold = new AdaptiveThreshold({ initial: this.limits.threshold });
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
    if (!this.usable(conn, method) || !(await this.refreshEpoch(conn, signal))) return conn.request<R>(method, params, options);
    this.noteAgentQuery(method, params);
    const key = this.keyOf(conn, method, params);
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
    this.unusedFor.clear();
    this.cache.removeWhere(() => true);
  }

  snapshot(): SpeculationStats {
    const s = this.stats;
    let unusedMs = 0;
    for (const e of this.cache.values()) if (e.settled && !e.used) unusedMs += e.durationMs;
    const asked = s.hits + s.partialHits + s.misses;
    const rules: SpeculationStats['rules'] = {};
    const unusedByRule = new Map<string, number>();
    for (const e of this.cache.values()) if (e.settled && !e.used && e.rule !== 'agent') unusedByRule.set(e.rule, (unusedByRule.get(e.rule) ?? 0) + e.durationMs);
    for (const [name, r] of s.rules) rules[name] = { ...r, wasted_ms: r.wasted_ms + (unusedByRule.get(name) ?? 0), hit_rate: r.launched ? round(r.hits / r.launched) : 0 };
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
      in_flight: this.inFlight + this.planning + this.deferredLaunches + this.waiting.length,
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
    this.watchedRoot = undefined;
    this.transitions = new LearnedTransitions();
  }

  private usable(conn: LspConnection, method: string): boolean {
    return this.options.enabled && !this.multiRoot && canSpeculate(method) && conn.isAlive;
  }

  /**
   * Brings the epoch of a connection up to the moment: a broker is asked for its count (it first
   * passes on what its watcher saw); a server this front runs was told of the front watcher's news
   * at the section's door. False when outside edits could go unseen (no watcher, or past the OS's
   * watch limit, or a broker that cannot say): then nothing is served from or stored in the cache.
   */
  private async refreshEpoch(conn: LspConnection, signal?: AbortSignal): Promise<boolean> {
    if (!conn.broker) return this.options.directWatching();
    try {
      const answer = await conn.brokerEpoch(signal);
      if (!answer?.watching) return false;
      this.brokerEpochs.set(conn, `${answer.serverPid ?? ''}:${answer.epoch}`);
      return true;
    } catch {
      return false;
    }
  }

  private connectionId(conn: LspConnection): string {
    let id = this.ids.get(conn);
    if (id === undefined) {
      this.ids.set(conn, (id = this.nextId++));
      const connection = `c${id}`;
      // A crash ends every answer of that server; a restarted one is a new connection.
      conn.onCrash(() => {
        this.cache.removeWhere((e) => e.connection === connection);
      });
    }
    return `c${id}:${conn.pid ?? ''}`;
  }

  private keyOf(conn: LspConnection, method: string, params: unknown): string {
    const connection = this.connectionId(conn);
    const uri = documentOf(params);
    const doc = uri ? conn.documents.get(uri) : undefined;
    const state = dependsOnOneDocument(method) && doc ? `doc:${doc.version}` : `ws:${conn.changeEpoch}:${this.brokerEpochs.get(conn) ?? ''}`;
    return queryKey({ connection, method, params, state });
  }

  private begin(conn: LspConnection, key: string, method: string, rule: string): CacheEntry {
    return { key, connection: `c${this.ids.get(conn)}`, method, rule, startedAt: Date.now(), settled: false, durationMs: 0, bytes: 0, used: false, joined: false };
  }

  private countHit(e: CacheEntry): void {
    const firstUse = !e.used;
    e.used = true;
    this.served.getStore()?.onServed();
    // A rule's record counts each speculation once, however often its answer serves the agent.
    if (e.rule === 'agent' || !firstUse) return;
    const r = this.stats.rule(e.rule);
    if (e.agedOut) r.unused--;
    r.hits++;
    this.unusedFor.delete(e);
    this.threshold.record('hit');
  }

  /**
   * A speculation went unused: on its rule's record, and a false positive for the threshold —
   * unless the rule's record is good (it launches whatever the threshold says): its occasional
   * miss must not raise the bar for the rules still judged by the threshold.
   */
  private guessUnused(rule: string): void {
    const r = this.stats.rule(rule);
    const decided = r.hits + r.unused;
    if (!(decided >= RULE_RECORD_MIN && r.hits / decided >= RULE_GOOD)) this.threshold.record('wasted');
    r.unused++;
  }

  /** One more agent query: speculations left unused for too long count as wasted guesses. */
  private ageSpeculations(): void {
    // One still on its way after the agent moved on several queries (a busy server queues it):
    // its answer would come too late to be used, and it holds the server meanwhile.
    for (const e of this.cache.values()) {
      if (e.pending && e.abort && !e.joined && e.launchedAtQuery !== undefined && this.agentQueries - e.launchedAtQuery > USE_WITHIN_QUERIES) e.abort.abort();
    }
    for (const [e, left] of this.unusedFor) {
      if (e.used) this.unusedFor.delete(e);
      else if (left > 1) this.unusedFor.set(e, left - 1);
      else {
        this.unusedFor.delete(e);
        this.guessUnused(e.rule);
        e.agedOut = true;
      }
    }
  }

  private evicted(e: CacheEntry): void {
    if (!e.settled || e.used) return;
    this.stats.wastedMs += e.durationMs;
    if (e.rule !== 'agent') this.stats.rule(e.rule).wasted_ms += e.durationMs;
  }

  /** Remembers the agent's query: predictions do not repeat it, and its position is where the agent stands. */
  private noteAgentQuery(method: string, params: unknown): void {
    this.recentAgent.push(`${method}\u0000${normalizedParams(params)}`);
    if (this.recentAgent.length > RECENT_AGENT_QUERIES) this.recentAgent.shift();
    const uri = documentOf(params);
    const position = (params as { position?: { line?: unknown; character?: unknown } }).position;
    if (uri && typeof position?.line === 'number' && typeof position.character === 'number') {
      this.lastPositions.delete(uri);
      this.lastPositions.set(uri, { line: position.line, character: position.character });
      if (this.lastPositions.size > 100) this.lastPositions.delete(this.lastPositions.keys().next().value as string);
    }
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

  /**
   * Whether to launch a prediction of this confidence. A rule with a record of its own is judged
   * by it: one that hits often launches even while the global threshold is high (other rules'
   * unused guesses raised it), one that almost never hits no longer launches. The threshold
   * decides for rules without enough record yet.
   */
  private launches(rule: string, confidence: number): boolean {
    const r = this.stats.rules.get(rule);
    const decided = r ? r.hits + r.unused : 0;
    if (r && decided >= RULE_RECORD_MIN) {
      const rate = r.hits / decided;
      if (rate >= RULE_GOOD) return true;
      if (rate < RULE_FAILING) return r.predicted % RULE_PROBE_EVERY === 0 && confidence >= this.threshold.value;
    }
    return confidence >= this.threshold.value;
  }

  /** Counts a prediction and launches it when allowed; `repeat` allows what the agent asked recently (after a write it asks again). */
  private consider(conn: LspConnection, p: Prediction, confidence: number, repeat = false): void {
    this.stats.predictions++;
    this.stats.rule(p.rule).predicted++;
    if (!repeat && this.recentAgent.includes(`${p.method}\u0000${normalizedParams(p.params)}`)) return;
    if (this.launches(p.rule, confidence)) this.launch(conn, p);
    else if (canSpeculate(p.method)) this.heldBack.add(this.keyOf(conn, p.method, p.params));
  }

  private predictFrom(conn: LspConnection, method: string, params: unknown, result: unknown): void {
    this.transitions.observe(method, answerStatus(result));
    let predictions: Prediction[];
    try {
      predictions = predictNext(method, params, result, this.context);
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
    if (!conn.isAlive || !conn.supports(p.method) || !this.agentHolds(conn, p.params) || this.cache.has(this.keyOf(conn, p.method, p.params))) return;
    this.inFlight++;
    try {
      await this.options.shared(async () => {
        if (!conn.isAlive || !conn.supports(p.method) || !this.agentHolds(conn, p.params)) return;
        if (!(await this.refreshEpoch(conn))) return;
        const key = this.keyOf(conn, p.method, p.params);
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
          if (!entry.used) this.unusedFor.set(entry, USE_WITHIN_QUERIES);
        } catch {
          this.guessUnused(p.rule);
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

  /** A speculation never opens a document: one naming a document must name one the agent opened. */
  private agentHolds(conn: LspConnection, params: unknown): boolean {
    const uri = documentOf(params);
    if (uri === undefined) return true;
    const doc = conn.documents.get(uri);
    return doc !== undefined && !doc.internal && doc.disk !== undefined;
  }
}

/** One tool call seen by the prefetcher. */
interface CallScope {
  /** Hears of each query of the call answered from the cache (the audit log's mark). */
  onServed: () => void;
  /** Speculations to launch once the call has answered. */
  deferred: (() => void)[];
  closed: boolean;
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
