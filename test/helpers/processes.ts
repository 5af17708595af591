/**
 * Process checks for tests are the broker's own: descendants from /proc, and liveness that knows
 * an unreaped zombie has exited.
 */
export { descendantPids as descendants, pidAlive as isAlive } from '@agent-lsp/broker';

export async function waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
