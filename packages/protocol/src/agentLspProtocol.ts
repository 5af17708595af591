import { NotificationType, NotificationType0, RequestType, RequestType0 } from './lspValues.js';

/**
 * The broker's own LSP extensions (`$/agentLsp/*`), declared once and imported by both ends.
 * Any LSP client may connect to a broker; these are what our front uses beyond plain LSP.
 */
export const AGENT_LSP_PROTOCOL_VERSION = 1;

/** `unresponsive`: the server is running but did not answer the broker's health probe in time. */
export type BrokerState = 'starting' | 'indexing' | 'ready' | 'restarting' | 'unresponsive' | 'stopping';

/**
 * How long a request waits for its answer unless its caller says otherwise. The front's requests
 * default to it, and the broker waits no longer on a client's behalf (the client's cancel ends a
 * forwarded request sooner): one bound on both sides of the socket.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export interface BrokerProgress {
  title?: string;
  message?: string;
  percentage?: number;
}

/** Found in the broker's initialize answer under `capabilities.experimental.agentLsp`. */
export interface AgentLspExperimental {
  protocol: number;
  key: string;
  state: BrokerState;
  ready: boolean;
  progress?: BrokerProgress;
  /** Pid of the broker's language server, while it runs. */
  serverPid?: number;
  /** Pid of its companion, for a paired server (vue-language-server beside vtsls). */
  companionPid?: number;
}

export interface BrokerStatusParams {
  state: BrokerState;
  ready: boolean;
  progress?: BrokerProgress;
  /** Pid of the broker's language server, while it runs (it changes when the server restarts). */
  serverPid?: number;
  /** Pid of its companion, for a paired server (vue-language-server beside vtsls). */
  companionPid?: number;
  /** Ready, but the server's workspace index misses part of the workspace (ReadinessSnapshot.partial). */
  partial?: string;
}

/** Broker → client: readiness changed. */
export const BrokerStatusNotification = {
  method: '$/agentLsp/status',
  type: new NotificationType<BrokerStatusParams>('$/agentLsp/status'),
} as const;

/** Client → broker: stop the broker and its server (daemon-stop). */
export const BrokerStopNotification = { method: '$/agentLsp/stop', type: new NotificationType0('$/agentLsp/stop') } as const;

/**
 * Client → broker: take an exclusive section. Granted once the other clients' in-flight requests
 * have drained; until release (or disconnect, or the lease expiring) the others' messages wait in
 * order, notifications about documents the holder changed go to the holder only, and watcher
 * events are deferred. On release the broker restores every document the holder changed.
 */
export interface BrokerAcquireParams {
  /** Lease length; renew before it runs out. Default 60 s. */
  leaseMs?: number;
}
export interface BrokerAcquireResult {
  leaseId: string;
  expiresAt: number;
}
export const BrokerAcquireRequest = {
  method: '$/agentLsp/acquire',
  type: new RequestType<BrokerAcquireParams | null, BrokerAcquireResult, void>('$/agentLsp/acquire'),
} as const;

export interface BrokerLeaseParams {
  leaseId: string;
  leaseMs?: number;
}
/** Client → broker: extend the lease. */
export const BrokerRenewRequest = {
  method: '$/agentLsp/renew',
  type: new RequestType<BrokerLeaseParams, BrokerAcquireResult, void>('$/agentLsp/renew'),
} as const;
/** Client → broker: end the exclusive section; the holder's documents are restored. */
export const BrokerReleaseRequest = {
  method: '$/agentLsp/release',
  type: new RequestType<BrokerLeaseParams, null, void>('$/agentLsp/release'),
} as const;

export interface BrokerStats {
  clients: number;
  /** Messages of other clients waiting for an exclusive section to end. */
  waiting: number;
  lease: { client: number; expiresAt: number } | null;
  /** Exclusive sections (leases) granted since the broker started. */
  leasesGranted: number;
  /** URIs the server holds open (clients' documents, lingering ones, the broker's own). */
  openDocuments: string[];
  /**
   * Open documents whose text no connected client holds and that are not known to be the disk's
   * text. Always empty: the broker's invariant, reported so that tests can check it.
   */
  unheldDocuments: string[];
  /** Client requests the server is working on (counted against the fair-queuing bound), and those waiting for their turn. */
  requests: { inFlight: number; queued: number };
}
/** Client → broker: counters (answered at once, also while another client holds a lease). */
export const BrokerStatsRequest = { method: '$/agentLsp/stats', type: new RequestType0<BrokerStats, void>('$/agentLsp/stats') } as const;

export interface BrokerRestartServerResult {
  /** The server that was stopped, if one was running. */
  previousPid?: number;
  /** The server started in its place (initialized; readiness follows in `$/agentLsp/status`). */
  pid?: number;
  /** The new server's companion, for a paired server. */
  companionPid?: number;
}
/**
 * Client → broker: stop the shared language server (its whole process group) and start a new one
 * through the broker's restart path: documents clients hold are re-opened, registrations replayed,
 * every client is told `restarting`, then the new readiness. Not counted as a crash. Answered once
 * the new server is initialized.
 */
export const BrokerRestartServerRequest = {
  method: '$/agentLsp/restartServer',
  type: new RequestType0<BrokerRestartServerResult, void>('$/agentLsp/restartServer'),
} as const;

/** agent-lsp's own version: MCP server info, LSP client info, broker info, `--version`. */
export const AGENT_LSP_VERSION = '0.1.0';
