import { connectToBroker, type BrokerLeaseOptions } from '@agent-lsp/broker';
import { startDirectConnection, type LspConnection, type ConnectOptions } from '@agent-lsp/lsp';
import { CLIENT_NAME_BY_KIND, startupMark, UserError } from '@agent-lsp/protocol';

export type DaemonMode = 'auto' | 'always' | 'never';

/**
 * Servers whose indexing is slow enough that a warm shared broker pays off. typescript-go loads a
 * project several times faster than tsserver, yet still in seconds on a large one, and an agent
 * starts a front per session: it is shared too. The Vue pair runs a tsserver over the project
 * (vueServer.ts), and serves its .ts files as well.
 */
const DAEMON_BY_DEFAULT = new Set(['pyright', 'typescript', 'typescript-go', 'vue-language-server']);

export function parseDaemonMode(value: string | undefined): DaemonMode {
  const mode = value ?? 'auto';
  if (mode === 'auto' || mode === 'always' || mode === 'never') return mode;
  throw new UserError('invalid_argument', `daemon mode must be auto, always or never, not "${mode}".`);
}

export interface ConnectionModeOptions {
  mode: DaemonMode;
  idleTimeoutMs?: number;
  /** The custom servers file, passed on to brokers. */
  configPath?: string;
  /** Lease timing of exclusive sections through a broker (tests shorten it). */
  lease?: BrokerLeaseOptions;
  /** How brokers list this process's connections (daemon-status): a stdio front by default. */
  clientKind?: 'front' | 'http';
  /** The memory budget of all brokers, in bytes (Infinity: none); see connectToBroker. */
  maxBrokerMemory?: number;
}

/**
 * Chooses how each server is reached: a shared broker (daemon mode, the default for Python and
 * TypeScript/JavaScript) or a child of this process (direct mode). Nothing above knows which.
 */
export function connectionFactory(options: ConnectionModeOptions): (o: ConnectOptions) => Promise<LspConnection> {
  return (o) => {
    const daemon = options.mode === 'always' || (options.mode === 'auto' && DAEMON_BY_DEFAULT.has(o.server.id));
    if (!daemon) return startDirectConnection(o);
    startupMark('broker attach');
    return connectToBroker({
      ...o,
      clientName: CLIENT_NAME_BY_KIND[options.clientKind ?? 'front'],
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.lease ? { lease: options.lease } : {}),
      ...(options.configPath ? { configPath: options.configPath } : {}),
      ...(options.maxBrokerMemory !== undefined ? { maxBrokerMemory: options.maxBrokerMemory } : {}),
    }).then((conn) => {
      startupMark('broker attached');
      return conn;
    });
  };
}
