import type { LspConnection } from '@agent-lsp/lsp';

/** A client that gave a progressToken hears from a running call at least this often. */
export const HEARTBEAT_MS = 1500;

/**
 * What a long call is doing, for its progress: the request it has waited on longest (a cold
 * find_references sent two notifications, then nothing for 18 s while pyright answered), else the
 * last thing it reported, with the time so far.
 */
export async function describeWork(tool: string, startedAt: number, lastReported: string | undefined, connections: () => Promise<LspConnection[]>): Promise<string> {
  const now = Date.now();
  const elapsed = `${Math.round((now - startedAt) / 1000)} s so far`;
  // A connection still starting is not waited for: the heartbeat says what it knows now.
  const live = await Promise.race([connections().catch(() => []), new Promise<LspConnection[]>((resolve) => setTimeout(() => resolve([]), HEARTBEAT_MS / 5).unref())]);
  const waits = live.flatMap((conn) => conn.requestsInFlight().map((r) => ({ ...r, server: conn.server.displayName })));
  const oldest = waits.sort((a, b) => a.since - b.since)[0];
  if (oldest) {
    const others = waits.length > 1 ? ` (+${waits.length - 1} more request${waits.length > 2 ? 's' : ''})` : '';
    return `${tool}: waiting for ${oldest.server} to answer ${oldest.method} (${Math.round((now - oldest.since) / 1000)} s)${others}; ${elapsed}`;
  }
  return `${lastReported ?? `${tool}: working`}; ${elapsed}`;
}

/**
 * Sends `describe()` through `send` whenever HEARTBEAT_MS passed since the last progress the call
 * sent; stop() ends it. `sent()` is told of every other notification the call sends.
 */
export function progressHeartbeat(send: (message: string) => void, describe: () => Promise<string>): { sent(): void; stop(): void } {
  let lastSent = Date.now();
  let stopped = false;
  const timer = setInterval(() => {
    if (Date.now() - lastSent < HEARTBEAT_MS - 50) return;
    void describe().then((message) => {
      if (stopped) return;
      lastSent = Date.now();
      send(message);
    });
  }, HEARTBEAT_MS / 3);
  timer.unref();
  return {
    sent: () => {
      lastSent = Date.now();
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
