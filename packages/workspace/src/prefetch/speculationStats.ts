export interface RuleStats {
  predicted: number;
  launched: number;
  hits: number;
  /** Launches that went unused (aged out, failed or cancelled): with hits, the rule's record. */
  unused: number;
  /** Server time of this rule's speculations nobody used. */
  wasted_ms: number;
}

export interface SpeculationStats {
  enabled: boolean;
  predictions: number;
  launched: number;
  /** Agent calls answered from a settled cache entry. */
  hits: number;
  /** Agent calls that joined a request already on its way. */
  partial_hits: number;
  /** Agent calls (of speculatable methods) that had to ask the server. */
  misses: number;
  /** Speculations dropped (failed, timed out, cancelled or refused by the guard). */
  dropped: number;
  /** Server time spent on speculations nobody used (evicted, invalidated or still unused). */
  wasted_ms: number;
  /** Server time the agent did not wait for, summed over hits and partial hits. */
  latency_saved_ms: number;
  /** Speculations launched or waiting for the shared section right now. */
  in_flight: number;
  threshold: number;
  hit_rate: number;
  cache_entries: number;
  cache_bytes: number;
  rules: Record<string, RuleStats & { hit_rate: number }>;
}

/** The counters behind get_speculation_stats. */
export class StatsCounters {
  predictions = 0;
  launched = 0;
  hits = 0;
  partialHits = 0;
  misses = 0;
  dropped = 0;
  wastedMs = 0;
  savedMs = 0;
  readonly rules = new Map<string, RuleStats>();

  rule(name: string): RuleStats {
    let r = this.rules.get(name);
    if (!r) this.rules.set(name, (r = { predicted: 0, launched: 0, hits: 0, unused: 0, wasted_ms: 0 }));
    return r;
  }
}
