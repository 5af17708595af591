import type { Disposable } from '@agent-lsp/protocol';
import type { ExclusiveAccess } from './exclusiveAccess.js';
import type { Logger } from './logger.js';
import type { ServerTransport } from './serverProcess.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';
import type { ApplyEditHandler } from './serverRequests.js';

export type ConnectionState = 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed';

/** How a connection is made; `Conn` is the connection class that names it (connection.ts). */
export interface ConnectionOptions<Conn> {
  transport: ServerTransport;
  server: ServerDefinition;
  resolved: ResolvedServer;
  rootDir: string;
  workspaceFolders: readonly string[];
  logger: Logger;
  onApplyEdit?: ApplyEditHandler;
  initializeTimeoutMs?: number;
  /** How `runExclusive` takes its section (the connection factory's choice); a private local lock by default. */
  exclusiveAccess?: ExclusiveAccess<Conn>;
  /**
   * Drives `readiness` from the signals this kind of server gives, attached once `initialized` is
   * sent (readinessStrategies.ts: the strategies depend on the connection, so it is handed in).
   */
  attachReadiness: (conn: Conn) => Disposable;
  /** The clientInfo name sent in initialize; `agent-lsp` by default. */
  clientName?: string;
  /**
   * Read with InlineMessageReader (each message handled in the read that completed it) instead of
   * vscode-jsonrpc's reader: the broker's hop, both sides of it. Servers a front runs itself keep
   * the library's reader: with inline reads ccls (Debian's 0.20220729) aborted in about one of ten
   * runs of its tests on a loaded machine, never with the library's; the cause is not known.
   */
  inlineReads?: boolean;
}
