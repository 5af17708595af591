import type { ConnectOptions, LspConnection, Logger, OpenDocument, ServerRegistry } from '@agent-lsp/lsp';

export type ConnectionFactory = (options: ConnectOptions) => Promise<LspConnection>;

/**
 * How a tool call uses the servers: `shared` runs alongside other calls (never inside a
 * speculative evaluation), `exclusive` takes the exclusive section itself, `none` needs no section.
 */
export type CallConcurrency = 'shared' | 'exclusive' | 'none';

export interface WorkspaceOptions {
  registry: ServerRegistry;
  logger: Logger;
  /** The MCP client's roots, asked for when no start_lsp root was given. */
  clientRoots?: () => Promise<string[]>;
  /** How connections are made; direct mode (spawn a child) by default. */
  connect?: ConnectionFactory;
  /** The root fixed at startup (`serve --root`, AGENT_LSP_ROOT; a realpath): the workspace until start_lsp sets another. */
  root?: string;
  /** Answers the servers' workspace/applyEdit requests (the transaction layer); refused when absent. */
  onApplyEdit?: ConnectOptions['onApplyEdit'];
  /** Speculative prefetch of read-only queries (`--prefetch`); on by default. */
  prefetch?: boolean;
  /** Where prefetch keeps what it learned of a workspace root's agents (in memory only when absent). */
  prefetchStateFile?: (root: string) => string | undefined;
}

export interface DocumentHandle {
  conn: LspConnection;
  path: string;
  uri: string;
  languageId: string;
  doc: OpenDocument;
}
