import type { CacheEntry } from './queryCache.js';
import type { SpeculationStats, StatsCounters } from './speculationStats.js';

/** What the prefetcher is doing now, beside its counters (for the snapshot). */
export interface LiveState {
  enabled: boolean;
  /** Speculations running, planned, deferred or waiting for a slot. */
  inFlight: number;
  threshold: number;
  cacheEntries: number;
  cacheBytes: number;
}

/** get_speculation_stats' figures: the counters, plus what cached answers nobody used cost. */
export function statsSnapshot(s: StatsCounters, entries: Iterable<CacheEntry>, live: LiveState): SpeculationStats {
  let unusedMs = 0;
  const unusedByRule = new Map<string, number>();
  for (const e of entries) {
    if (!e.settled || e.used) continue;
    unusedMs += e.durationMs;
    if (e.rule !== 'agent') unusedByRule.set(e.rule, (unusedByRule.get(e.rule) ?? 0) + e.durationMs);
  }
  const asked = s.hits + s.partialHits + s.misses;
  const rules: SpeculationStats['rules'] = {};
  for (const [name, r] of s.rules) rules[name] = { ...r, wasted_ms: r.wasted_ms + (unusedByRule.get(name) ?? 0), hit_rate: r.launched ? round(r.hits / r.launched) : 0 };
  return {
    enabled: live.enabled,
    predictions: s.predictions,
    launched: s.launched,
    hits: s.hits,
    partial_hits: s.partialHits,
    misses: s.misses,
    dropped: s.dropped,
    wasted_ms: s.wastedMs + unusedMs,
    latency_saved_ms: s.savedMs,
    in_flight: live.inFlight,
    threshold: live.threshold,
    hit_rate: asked ? round((s.hits + s.partialHits) / asked) : 0,
    cache_entries: live.cacheEntries,
    cache_bytes: live.cacheBytes,
    rules,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
