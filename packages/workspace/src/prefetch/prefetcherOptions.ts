import type { Logger } from '@agent-lsp/lsp';

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

export const PREFETCH_DEFAULTS = { maxEntries: 500, maxBytes: 16 * 1024 * 1024, maxInFlight: 3, threshold: 0.5, speculationTimeoutMs: 15_000 };
export type PrefetchLimits = typeof PREFETCH_DEFAULTS;

/** The limits of `o`, the defaults where it sets none. */
export function prefetchLimits(o: PrefetcherOptions): PrefetchLimits {
  const out: Partial<PrefetchLimits> = {};
  for (const k of Object.keys(PREFETCH_DEFAULTS) as (keyof PrefetchLimits)[]) if (o[k] !== undefined) out[k] = o[k];
  return { ...PREFETCH_DEFAULTS, ...out };
}

/** The size a cached answer is counted for (UTF-16 of its JSON). */
export function sizeOf(value: unknown): number {
  return (JSON.stringify(value) ?? '').length * 2;
}

/** `p`, or a rejection as soon as `signal` aborts (the agent's call gave up on a joined speculation). */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
