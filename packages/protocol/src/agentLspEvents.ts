import { NotificationType } from './lspValues.js';
import type { FileEvent } from 'vscode-languageserver-protocol';

/**
 * What happened to a broker's language server, beyond the readiness `$/agentLsp/status` reports:
 * a front tells its agent (MCP logging) that the shared server crashed, is being restarted, came
 * back, or that the broker gave up on it.
 */
export type ServerHealthState = 'crashed' | 'restarting' | 'recovered' | 'gave_up';

export interface BrokerServerStateParams {
  state: ServerHealthState;
  /** The server's pid: the one that died (crashed), or the new one (recovered). */
  pid?: number;
  /** Why: the crash's message, what asked for the restart, why the broker gave up. */
  reason?: string;
  /** Restarts since the broker started. */
  restarts: number;
}

/** Broker → client: the shared server's health changed. */
export const BrokerServerStateNotification = {
  method: '$/agentLsp/serverState',
  type: new NotificationType<BrokerServerStateParams>('$/agentLsp/serverState'),
} as const;

/**
 * Who changed files on disk: `outside` is the broker's watcher (a shell, git, an editor), `client`
 * another client of the broker that reported its own writes (another agent's transaction).
 */
export interface BrokerFilesChangedParams {
  origin: 'outside' | 'client';
  changes: FileEvent[];
}

/** Broker → client: files changed on disk (never sent to the client that reported them itself). */
export const BrokerFilesChangedNotification = {
  method: '$/agentLsp/filesChanged',
  type: new NotificationType<BrokerFilesChangedParams>('$/agentLsp/filesChanged'),
} as const;
