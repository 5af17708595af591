import type { Disposable, DisposableStore } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';

/** When no readiness signal comes at all after the start, stop calling the server "indexing" after this long. */
export const SIGNAL_FALLBACK_MS = 180_000;

/** What a server family's readiness strategy works with; what it attaches goes into `store`. */
export interface ReadinessContext {
  conn: LspConnection;
  store: DisposableStore;
  /** A timer disposed with the store. */
  later: (ms: number, fn: () => void) => void;
  /** The server's stderr, line by line, when agent-lsp runs it as a child (ServerTransport.onStderrLine). */
  stderrLines?: (listener: (line: string) => void) => Disposable;
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
