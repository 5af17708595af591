import type { AdaptiveThreshold } from './adaptiveThreshold.js';
import type { CacheEntry } from './queryCache.js';
import type { StatsCounters } from './speculationStats.js';

/** Agent queries after which a speculation nobody used counts as wasted (for the threshold). */
export const USE_WITHIN_QUERIES = 3;
/** Decided launches (used or unused) of a rule after which its own hit rate decides for it, whatever the global threshold says. */
const RULE_RECORD_MIN = 4;
/** A rule its record stopped still launches one prediction in this many, so that it can recover. */
const RULE_PROBE_EVERY = 5;
/** A rule hitting at least this often launches even above the threshold; one below `RULE_FAILING` no longer does. */
const RULE_GOOD = 0.5;
const RULE_FAILING = 0.15;

/**
 * Each prediction rule's record (hits, unused guesses) and what it decides: whether a rule's next
 * prediction launches, and what an unused guess does to the global threshold.
 */
export class RuleRecord {
  /** Settled speculations not used yet, with the agent queries they have left to be. */
  private readonly unusedFor = new Map<CacheEntry, number>();

  constructor(
    private readonly stats: StatsCounters,
    private readonly threshold: AdaptiveThreshold,
  ) {}

  /** A speculation's answer served the agent; a rule's record counts each speculation once. */
  hit(e: CacheEntry, firstUse: boolean): void {
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
  unused(rule: string): void {
    const r = this.stats.rule(rule);
    const decided = r.hits + r.unused;
    if (!(decided >= RULE_RECORD_MIN && r.hits / decided >= RULE_GOOD)) this.threshold.record('wasted');
    r.unused++;
  }

  /** A speculation settled before anyone used it: it has USE_WITHIN_QUERIES agent queries to be. */
  settledUnused(e: CacheEntry): void {
    this.unusedFor.set(e, USE_WITHIN_QUERIES);
  }

  /** One more agent query: speculations left unused for too long count as wasted guesses. */
  age(): void {
    for (const [e, left] of this.unusedFor) {
      if (e.used) this.unusedFor.delete(e);
      else if (left > 1) this.unusedFor.set(e, left - 1);
      else {
        this.unusedFor.delete(e);
        this.unused(e.rule);
        e.agedOut = true;
      }
    }
  }

  clear(): void {
    this.unusedFor.clear();
  }

  /**
   * Whether to launch a prediction of this confidence. A rule with a record of its own is judged
   * by it: one that hits often launches even while the global threshold is high (other rules'
   * unused guesses raised it), one that almost never hits no longer launches. The threshold
   * decides for rules without enough record yet.
   */
  launches(rule: string, confidence: number): boolean {
    const r = this.stats.rules.get(rule);
    const decided = r ? r.hits + r.unused : 0;
    if (r && decided >= RULE_RECORD_MIN) {
      const rate = r.hits / decided;
      if (rate >= RULE_GOOD) return true;
      if (rate < RULE_FAILING) return r.predicted % RULE_PROBE_EVERY === 0 && confidence >= this.threshold.value;
    }
    return confidence >= this.threshold.value;
  }
}
