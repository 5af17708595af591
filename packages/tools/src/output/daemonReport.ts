import { brokersUsage, type DaemonsReport, type DaemonStatus, type MemoryBudget } from '@agent-lsp/broker';
import type { BrokerClientInfo } from '@agent-lsp/protocol';

/** One broker as agents and `daemon-status --json` see it: snake_case, seconds and MiB. */
export interface DaemonOut {
  language: string;
  root: string;
  state: string;
  ready: boolean;
  progress?: { title?: string | undefined; message?: string | undefined; percentage?: number | undefined };
  clients: number;
  /** Who is connected: front, http (a `serve --http` session), editor; pid and since when. */
  client_list: BrokerClientInfo[];
  uptime_seconds: number;
  idle_seconds: number;
  /** When a client last connected, asked something or left: the least recently used idle broker is evicted first. */
  last_activity_at: string;
  broker_pid: number;
  server: string;
  server_pid?: number;
  /** A paired server's second process (vue-language-server beside vtsls). */
  companion_pid?: number;
  rss_mib?: number;
  socket: string;
}

export interface DaemonsReportOut {
  home: string;
  daemons: DaemonOut[];
  stale: { key: string; dir: string; reason: string }[];
  orphans: { pid: number; key?: string }[];
}

function daemonOut(d: DaemonStatus): DaemonOut {
  const out: DaemonOut = {
    language: d.language,
    root: d.root,
    state: d.state,
    ready: d.ready,
    clients: d.clients,
    client_list: d.clientList,
    uptime_seconds: Math.round(d.uptimeMs / 1000),
    idle_seconds: Math.round(d.idleMs / 1000),
    last_activity_at: d.lastActivityAt,
    broker_pid: d.brokerPid,
    server: d.server,
    socket: d.socket,
  };
  if (d.progress) out.progress = d.progress;
  if (d.serverPid !== undefined) out.server_pid = d.serverPid;
  if (d.companionPid !== undefined) out.companion_pid = d.companionPid;
  if (d.rssBytes !== undefined) out.rss_mib = Math.round(d.rssBytes / 1048576);
  return out;
}

/**
 * The broker report in the tools' naming (get_daemon_status and `daemon-status --json` print the
 * same keys). Loaded by the CLI on its own, without the tool catalogue.
 */
export function daemonsReportOut(report: DaemonsReport): DaemonsReportOut {
  return {
    home: report.home,
    daemons: report.daemons.map(daemonOut),
    stale: report.stale.map((s) => ({ key: s.key, dir: s.dir, reason: s.reason })),
    orphans: report.orphans.map((o) => (o.key ? { pid: o.pid, key: o.key } : { pid: o.pid })),
  };
}

/** The memory budget against what all brokers use (`daemon-status --json`'s `memory`). */
export interface MemoryOut {
  /** null: no budget (off). */
  budget_bytes: number | null;
  budget_source: MemoryBudget['source'];
  usage_bytes: number;
  over_budget: boolean;
}

export function memoryOut(report: DaemonsReport, budget: MemoryBudget): MemoryOut {
  const usage = brokersUsage(report.daemons);
  return { budget_bytes: Number.isFinite(budget.bytes) ? budget.bytes : null, budget_source: budget.source, usage_bytes: usage, over_budget: usage >= budget.bytes };
}
