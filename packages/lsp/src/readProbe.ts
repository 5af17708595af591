import type { LspConnection } from './connection.js';
import { isServerAnswer } from './errors.js';

/**
 * Calls `read` once the server has read every message sent before this call: a request of a
 * method no server has is answered (with an error) as soon as it is read, and JSON-RPC keeps
 * order. Never called when no answer comes (a timeout, a lost connection).
 */
export function whenServerRead(conn: Pick<LspConnection, 'request'>, timeoutMs: number, read: () => void): void {
  conn.request('agentLsp/readProbe', null, { timeoutMs }).then(read, (err: unknown) => {
    if (isServerAnswer(err)) read();
  });
}
