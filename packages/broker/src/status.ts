import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrokerClientInfo, BrokerProgress, BrokerState } from '@agent-lsp/protocol';
import { readDaemonFile, type DaemonInfo } from './daemonFile.js';
import { brokersUsage } from './evictionPlan.js';
import { formatBytes, type MemoryBudget } from './memoryBudget.js';
import { daemonsHome } from './paths.js';
import { brokerHome, descendantPids, isBrokerProcess, listBrokerProcesses, pidAlive, rssBytes } from './processInfo.js';

export interface DaemonStatus {
  key: string;
  dir: string;
  language: string;
  root: string;
  state: BrokerState;
  ready: boolean;
  progress?: BrokerProgress;
  clients: number;
  /** Who is connected: front (MCP on stdio), http (a session of `serve --http`), editor. */
  clientList: BrokerClientInfo[];
  uptimeMs: number;
  idleMs: number;
  /** When a client last connected, asked something or left (least recently used brokers are evicted first). */
  lastActivityAt: string;
  idleTimeoutMs: number;
  brokerPid: number;
  serverPid?: number;
  /** A paired server's companion (vue-language-server beside vtsls): a second child of the broker. */
  companionPid?: number;
  server: string;
  /** Broker plus server, its companion and their children (tsserver), from /proc. */
  rssBytes?: number;
  socket: string;
}

export interface StaleDaemon {
  key: string;
  dir: string;
  reason: string;
}

export interface OrphanBroker {
  pid: number;
  key?: string;
  cmd: string;
}

export interface DaemonsReport {
  home: string;
  daemons: DaemonStatus[];
  stale: StaleDaemon[];
  orphans: OrphanBroker[];
}

function toStatus(dir: string, info: DaemonInfo, now: number): DaemonStatus {
  const serverPids = [info.server.pid, info.server.companionPid].flatMap((pid) => (pid !== undefined && pidAlive(pid) ? [pid, ...descendantPids(pid)] : []));
  const rss = [info.broker.pid, ...new Set(serverPids)].map(rssBytes).filter((x): x is number => x !== undefined);
  const status: DaemonStatus = {
    key: info.key,
    dir,
    language: info.language,
    root: info.root,
    state: info.state,
    ready: info.ready,
    clients: info.clients,
    clientList: info.clientList ?? [],
    uptimeMs: now - Date.parse(info.broker.startedAt),
    idleMs: info.clients > 0 ? 0 : now - Date.parse(info.lastActivityAt),
    lastActivityAt: info.lastActivityAt,
    idleTimeoutMs: info.idleTimeoutMs,
    brokerPid: info.broker.pid,
    server: `${info.server.name}${info.server.version ? ` ${info.server.version}` : ''}`,
    socket: info.socket,
  };
  if (info.progress) status.progress = info.progress;
  if (info.server.pid !== undefined) status.serverPid = info.server.pid;
  if (info.server.companionPid !== undefined) status.companionPid = info.server.companionPid;
  if (rss.length) status.rssBytes = rss.reduce((a, b) => a + b, 0);
  return status;
}

/** Every daemon under the home: running ones, stale directories, and (unless `orphans: false`) broker processes nobody lists. */
export async function listDaemons(env: NodeJS.ProcessEnv = process.env, options: { orphans?: boolean } = {}): Promise<DaemonsReport> {
  const home = daemonsHome(env);
  const report: DaemonsReport = { home, daemons: [], stale: [], orphans: [] };
  const known = new Set<number>();
  const now = Date.now();
  const entries = existsSync(home) ? readdirSync(home, { withFileTypes: true }).filter((e) => e.isDirectory()) : [];
  for (const e of entries) {
    const dir = join(home, e.name);
    const info = readDaemonFile(dir);
    if (!info) {
      if (readdirSync(dir).some((f) => f !== 'broker.log' && f !== 'broker.log.1')) report.stale.push({ key: e.name, dir, reason: 'no daemon.json (a broker died or is starting)' });
      continue;
    }
    if (!(await isBrokerProcess(info.broker.pid, info.key))) {
      report.stale.push({ key: info.key, dir, reason: `broker pid ${info.broker.pid} is not running` });
      continue;
    }
    known.add(info.broker.pid);
    report.daemons.push(toStatus(dir, info, now));
  }
  // Listing every process (ps) is the slow part; eviction, which only measures, skips it.
  if (options.orphans === false) return report;
  for (const p of await listBrokerProcesses()) {
    if (known.has(p.pid)) continue;
    // A broker of another home (another AGENT_LSP_HOME) is not an orphan of this one, even with the same key.
    if (brokerHome(p.pid) !== home) continue;
    const orphan: OrphanBroker = { pid: p.pid, cmd: p.cmd };
    if (p.key) orphan.key = p.key;
    if (p.key && existsSync(join(home, p.key))) report.orphans.push(orphan);
  }
  return report;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** `memory 1.2 GiB of a 11 GiB budget (half the RAM)`: what all brokers use, against the budget. */
export function formatMemoryLine(report: DaemonsReport, budget: MemoryBudget): string {
  const from = { flag: '--max-broker-memory', env: 'AGENT_LSP_MAX_BROKER_MEMORY', config: 'config file', default: 'half the RAM' }[budget.source];
  const usage = brokersUsage(report.daemons);
  const limit = Number.isFinite(budget.bytes) ? `of a ${formatBytes(budget.bytes)} budget (${from})` : `(no budget: ${from} says off)`;
  const over = usage >= budget.bytes ? '; over budget: the next new broker evicts the least recently used idle ones' : '';
  return `memory ${formatBytes(usage)} ${limit}${over}`;
}

export function formatDaemons(report: DaemonsReport, budget?: MemoryBudget): string {
  const lines: string[] = [];
  if (budget) lines.push(formatMemoryLine(report, budget));
  if (report.daemons.length === 0) lines.push(`No daemons running (home: ${report.home}).`);
  for (const d of report.daemons) {
    const progress = d.ready ? '' : ` ${[d.progress?.title, d.progress?.message].filter(Boolean).join(': ')}${d.progress?.percentage !== undefined ? ` ${d.progress.percentage}%` : ''}`;
    lines.push(`${d.language} ${d.root}`);
    lines.push(`  state ${d.state}${progress} · clients ${d.clients} · up ${duration(d.uptimeMs)} · idle ${duration(d.idleMs)} (stops after ${duration(d.idleTimeoutMs)})`);
    for (const c of d.clientList) lines.push(`  client ${c.kind}${c.name && c.kind === 'editor' ? ` (${c.name})` : ''} pid ${c.pid ?? '-'} since ${c.since}`);
    lines.push(`  broker pid ${d.brokerPid} · ${d.server} pid ${d.serverPid ?? '-'}${d.companionPid !== undefined ? `, companion pid ${d.companionPid}` : ''} · RSS ${d.rssBytes !== undefined ? `${Math.round(d.rssBytes / 1048576)} MiB` : '?'} · key ${d.key}`);
    lines.push(`  last activity ${d.clients > 0 ? 'now (in use)' : `${d.lastActivityAt} (${duration(d.idleMs)} ago)`}`);
  }
  for (const s of report.stale) lines.push(`STALE ${s.dir}: ${s.reason} (daemon-stop --all cleans it)`);
  for (const o of report.orphans) lines.push(`ORPHAN broker pid ${o.pid}${o.key ? ` (key ${o.key})` : ''} has no daemon.json (daemon-stop --all --force ends it)`);
  return lines.join('\n');
}
