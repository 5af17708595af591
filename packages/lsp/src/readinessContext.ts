import type { Disposable, DisposableStore } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';

/** When no readiness signal comes at all after the start, stop calling the server "indexing" after this long. */
export const SIGNAL_FALLBACK_MS = 180_000;

/** A time in ms the environment's `name` sets (tests shorten waits so), when it is a number of at least `min`; else `fallback`. */
export function msFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  const ms = raw ? Number(raw) : NaN;
  return Number.isFinite(ms) && ms >= min ? ms : fallback;
}

/** SIGNAL_FALLBACK_MS, or AGENT_LSP_READY_FALLBACK_MS where set (tests reach the fallback in milliseconds). */
export function signalFallbackMs(env: NodeJS.ProcessEnv = process.env): number {
  return msFromEnv(env, 'AGENT_LSP_READY_FALLBACK_MS', SIGNAL_FALLBACK_MS);
}

/** What a server family's readiness strategy works with; what it attaches goes into `store`. */
export interface ReadinessContext {
  conn: LspConnection;
  store: DisposableStore;
  /** A timer disposed with the store. */
  later: (ms: number, fn: () => void) => void;
  /** The server's stderr, line by line, when agent-lsp runs it as a child (ServerTransport.onStderrLine). */
  stderrLines?: (listener: (line: string) => void) => Disposable;
  /**
   * The server's family always sends its signal (pyright: its end of finding source files): the
   * no-signal fallback never calls it ready, however long the signal takes.
   */
  signalComing: () => void;
}

/** One family of servers: drives `conn.readiness` from the signals that family gives. */
export type ReadinessFamily = (ctx: ReadinessContext) => void;

/** Any answer at all (even "method not found") shows the server is processing requests. */
export async function canary(conn: LspConnection): Promise<void> {
  try {
    await conn.request('workspace/symbol', { query: '' }, { timeoutMs: SIGNAL_FALLBACK_MS });
  } catch (err) {
    if (!conn.isAlive) throw err;
  }
}
