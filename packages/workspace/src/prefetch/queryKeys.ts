import type { LspConnection } from '@agent-lsp/lsp';
import { dependsOnOneDocument, documentOf, queryKey } from './queryKey.js';

/**
 * The cache keys of queries: the connection (an id per connection and server pid), the method,
 * the normalized params and the state the answer is computed on — the document's version for
 * single-document methods, otherwise the workspace epoch (the connection's own count of
 * state-changing notifications and, where a broker runs the server, the broker's count).
 */
export class QueryKeys {
  private readonly ids = new WeakMap<LspConnection, number>();
  private nextId = 1;
  /** The broker's epoch of each connection a broker serves, as of its last refresh. */
  private readonly brokerEpochs = new WeakMap<LspConnection, string>();

  constructor(
    private readonly directWatching: () => boolean,
    /** A connection's server crashed: every answer of that connection (by its label) is void. */
    private readonly crashed: (connection: string) => void,
  ) {}

  /**
   * Brings the epoch of a connection up to the moment: a broker is asked for its count (it first
   * passes on what its watcher saw); a server this front runs was told of the front watcher's news
   * at the section's door. False when outside edits could go unseen (no watcher, or past the OS's
   * watch limit, or a broker that cannot say): then nothing is served from or stored in the cache.
   */
  async refreshEpoch(conn: LspConnection, signal?: AbortSignal): Promise<boolean> {
    if (!conn.broker) return this.directWatching();
    try {
      const answer = await conn.brokerEpoch(signal);
      if (!answer?.watching) return false;
      this.brokerEpochs.set(conn, `${answer.serverPid ?? ''}:${answer.epoch}`);
      return true;
    } catch {
      return false;
    }
  }

  /** The connection's label on cache entries (`c<id>`), once a key of it was made. */
  label(conn: LspConnection): string {
    return `c${this.ids.get(conn)}`;
  }

  keyOf(conn: LspConnection, method: string, params: unknown): string {
    const connection = this.connectionId(conn);
    const uri = documentOf(params);
    const doc = uri ? conn.documents.get(uri) : undefined;
    const state = dependsOnOneDocument(method) && doc ? `doc:${doc.version}` : `ws:${conn.changeEpoch}:${this.brokerEpochs.get(conn) ?? ''}`;
    return queryKey({ connection, method, params, state });
  }

  private connectionId(conn: LspConnection): string {
    let id = this.ids.get(conn);
    if (id === undefined) {
      this.ids.set(conn, (id = this.nextId++));
      const connection = `c${id}`;
      // A crash ends every answer of that server; a restarted one is a new connection.
      conn.onCrash(() => this.crashed(connection));
    }
    return `c${id}:${conn.pid ?? ''}`;
  }
}
