import type { FileEvent } from 'vscode-languageserver-protocol';
import type { AgentLspExperimental, BrokerEvictResult, BrokerRestartServerResult, WireError } from '@agent-lsp/protocol';
import type { LspConnection, Logger } from '@agent-lsp/lsp';
import type { ClientFolders } from './clientFolders.js';
import type { LeaseManager } from './lease.js';
import type { RequestScheduler } from './requestScheduler.js';
import type { SharedDocuments } from './sharedDocuments.js';

/**
 * What a broker client needs from its broker. `Client` is the broker's own client class, named by
 * the broker (the host does not import the client: the client depends on its host, not back).
 */
export interface BrokerHost<Client = unknown> {
  readonly logger: Logger;
  readonly documents: SharedDocuments;
  /** Resolves once the server is initialized (not necessarily indexed). */
  server(): Promise<LspConnection>;
  /**
   * The server for a client's request: first in step with the disk (watcher news, documents no
   * client holds). `eventsRead`: afterCurrentPoll() taken when the request was read.
   */
  serverForRequest(eventsRead?: Promise<void>): Promise<LspConnection>;
  /** Whether the watcher sees outside edits (false past the OS's watch limit). */
  watching(): boolean;
  experimental(): AgentLspExperimental;
  touch(): void;
  /** A client said who it is (initialize): daemon.json lists it. */
  clientIdentified(): void;
  stop(reason: string): Promise<void>;
  /** A front asks this broker to stop to keep brokers within the memory budget: it agrees only when idle. */
  evict(from: number, reason: string): BrokerEvictResult;
  removeClient(client: Client): void;
  readonly lease: LeaseManager;
  /** Fair queuing of client requests in front of the server. */
  readonly scheduler: RequestScheduler;
  /** Which client added which workspace folder. */
  readonly folders: ClientFolders;
  /** A client reported file changes itself (its own writes): the watcher must not echo them. */
  clientReportedChanges(changes: FileEvent[], from?: number): void;
  /** Why requests fail at once: the server runs but answers nothing (undefined while it answers). */
  unresponsive(): WireError | undefined;
  /** A client opened `uri` and the server's text did not change: it gets the diagnostics the server pushed already. */
  diagnosticsOnOpen(client: Client, uri: string): void;
  /** Restarts the shared server (a client asked: restart_lsp_server); resolves with the old and new pids. */
  restartServer(reason: string): Promise<BrokerRestartServerResult>;
}
