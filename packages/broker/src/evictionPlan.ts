/** What eviction needs to know of a running broker (a DaemonStatus has all of it). */
export interface EvictionCandidate {
  key: string;
  /** Clients connected, as daemon.json says (the broker re-checks when asked). */
  clients: number;
  /** When a client last connected, asked something or left (daemon.json's lastActivityAt). */
  lastActivityAt: string;
  /** Broker plus its language server's process tree; unknown counts as 0. */
  rssBytes?: number;
}

/** Total resident memory of these brokers. */
export function brokersUsage(daemons: readonly EvictionCandidate[]): number {
  return daemons.reduce((sum, d) => sum + (d.rssBytes ?? 0), 0);
}

/**
 * The brokers that may be evicted, least recently used first: idle ones only (no clients), never
 * the one being spawned. Ties (and unreadable times, which sort first) go by key, so every front
 * computes the same order.
 */
export function evictionOrder<T extends EvictionCandidate>(daemons: readonly T[], spawningKey?: string): T[] {
  const when = (d: T) => {
    const t = Date.parse(d.lastActivityAt);
    return Number.isNaN(t) ? -Infinity : t;
  };
  return daemons
    .filter((d) => d.clients === 0 && d.key !== spawningKey)
    .sort((a, b) => when(a) - when(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export interface EvictionOutcome<T> {
  usageBefore: number;
  usageAfter: number;
  evicted: T[];
  /** Asked, and said no (a client arrived, it had just started), with why. */
  refused: { daemon: T; why: string }[];
}

/**
 * Evicts in LRU order while usage is at or over the budget: each candidate is asked in turn
 * (`evict` answers true when it stopped, else why not), and what it used is freed. Stops as soon
 * as usage is under the budget or the candidates run out.
 */
export async function evictUntilUnderBudget<T extends EvictionCandidate>(
  daemons: readonly T[],
  budgetBytes: number,
  spawningKey: string | undefined,
  evict: (daemon: T) => Promise<true | string>,
): Promise<EvictionOutcome<T>> {
  const usageBefore = brokersUsage(daemons);
  const outcome: EvictionOutcome<T> = { usageBefore, usageAfter: usageBefore, evicted: [], refused: [] };
  for (const candidate of evictionOrder(daemons, spawningKey)) {
    if (outcome.usageAfter < budgetBytes) break;
    const answer = await evict(candidate);
    if (answer === true) {
      outcome.evicted.push(candidate);
      outcome.usageAfter -= candidate.rssBytes ?? 0;
    } else {
      outcome.refused.push({ daemon: candidate, why: answer });
    }
  }
  return outcome;
}
