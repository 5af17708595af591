import { AGENT_LSP_VERSION, type BrokerStatusParams } from '@agent-lsp/protocol';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import type { BrokerClient } from './brokerClient.js';
import { DAEMON_SCHEMA, type DaemonInfo } from './daemonFile.js';

/** What daemon.json says of a broker at this moment. */
export interface DaemonInfoSource {
  key: string;
  root: string;
  server: ServerDefinition;
  idleTimeoutMs: number;
  socketPath: string;
  startedAt: Date;
  lastActivity: number;
  conn: LspConnection | undefined;
  status: BrokerStatusParams;
  clients: readonly BrokerClient[];
  restarts: number;
}

export function daemonInfo(b: DaemonInfoSource): DaemonInfo {
  const { conn, server, status } = b;
  const info: DaemonInfo = {
    schema: DAEMON_SCHEMA,
    key: b.key,
    root: b.root,
    language: server.languageIds[0] ?? server.id,
    profile: conn?.resolved.profileFingerprint ?? server.id,
    socket: b.socketPath,
    broker: { pid: process.pid, version: AGENT_LSP_VERSION, startedAt: b.startedAt.toISOString() },
    server: { name: conn?.serverInfo?.name ?? server.displayName, command: conn?.resolved.command ?? [] },
    state: status.state,
    ready: status.ready,
    clients: b.clients.length,
    clientList: b.clients.map((c) => c.info),
    lastActivityAt: new Date(b.lastActivity).toISOString(),
    idleTimeoutMs: b.idleTimeoutMs,
    restarts: b.restarts,
  };
  if (conn?.serverInfo?.version) info.server.version = conn.serverInfo.version;
  if (conn?.pid !== undefined) info.server.pid = conn.pid;
  if (conn?.companionPid !== undefined) info.server.companionPid = conn.companionPid;
  if (conn?.readiness.readyAt) info.readyAt = new Date(conn.readiness.readyAt).toISOString();
  if (status.progress) info.progress = status.progress;
  return info;
}
