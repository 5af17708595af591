import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerStopNotification } from '@agent-lsp/protocol';
import { connectSocketTransport } from '@agent-lsp/lsp';
import { lockTarget } from './broker.js';
import { daemonFilePath, type DaemonInfo } from './daemonFile.js';
import { daemonsHome } from './paths.js';
import { brokerHome, descendantPids, isBrokerProcess, pidAlive } from './processInfo.js';
import { listDaemons, type DaemonStatus } from './status.js';

export interface StopSelection {
  all?: boolean;
  root?: string;
  language?: string;
  force?: boolean;
}

export interface StopResult {
  key: string;
  root: string;
  language: string;
  stopped: boolean;
  how: 'graceful' | 'SIGTERM' | 'SIGKILL' | 'cleaned' | 'failed';
  detail?: string;
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

function kill(pid: number, signal: NodeJS.Signals, group = false): void {
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

/** Graceful ($/agentLsp/stop), then SIGTERM, then SIGKILL of broker and server process group. */
async function stopOne(d: DaemonStatus, force: boolean): Promise<StopResult> {
  if (!force) {
    try {
      const t = await connectSocketTransport({ path: d.socket }, 2000);
      // What the broker says before it closes (its "stopping" status) is read and dropped: unread
      // bytes would hold back the end of the stream, and so the 'close' this waits for.
      t.input.resume();
      const body = JSON.stringify({ jsonrpc: '2.0', method: BrokerStopNotification.method });
      t.output.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await t.exited;
    } catch {
      // not answering: escalate
    }
  }
  return awaitBrokerStopped(d, force);
}

/**
 * The rest of a stop, once the broker was asked to stop gracefully (daemon-stop, an eviction) or
 * at once with `force`: it gets 10 s to shut its server down cleanly, then SIGTERM, then SIGKILL;
 * its server's process group is ended whatever the broker managed, and its files are removed.
 */
export async function awaitBrokerStopped(d: DaemonStatus, force = false): Promise<StopResult> {
  const base = { key: d.key, root: d.root, language: d.language };
  let how: StopResult['how'] = 'graceful';
  if (force || !(await waitGone(d.brokerPid, 10_000))) {
    how = 'SIGTERM';
    kill(d.brokerPid, 'SIGTERM');
    if (!(await waitGone(d.brokerPid, 5_000))) {
      how = 'SIGKILL';
      kill(d.brokerPid, 'SIGKILL');
    }
  }
  // The server (and a paired server's companion) runs in its own process group: end it whatever the broker managed.
  for (const server of [d.serverPid, d.companionPid]) {
    if (server === undefined || !pidAlive(server)) continue;
    kill(server, 'SIGKILL', true);
    await waitGone(server, 2_000);
  }
  const gone = await waitGone(d.brokerPid, 2_000);
  removeDaemonFiles(d.dir, d.socket);
  return gone ? { ...base, stopped: true, how } : { ...base, stopped: false, how: 'failed', detail: `broker pid ${d.brokerPid} survived SIGKILL` };
}

function removeDaemonFiles(dir: string, socket?: string): void {
  rmSync(daemonFilePath(dir), { force: true });
  if (socket) rmSync(socket, { force: true });
  rmSync(`${lockTarget(dir, 'lifetime')}.lock`, { recursive: true, force: true });
  rmSync(`${lockTarget(dir, 'spawn')}.lock`, { recursive: true, force: true });
  rmSync(join(dir, 'daemon.sock'), { force: true });
}

/**
 * Ends a broker that is alive but does not answer (stopped, deadlocked), and its server's process
 * group, so that a new one can take its place. Only a process whose command line is the broker of
 * `key` and whose environment names this daemons home is touched: a reused pid or another home's
 * broker is left alone. Resolves whether the broker is gone.
 */
export async function killWedgedBroker(info: DaemonInfo, key: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const pid = info.broker.pid;
  if (!(await isBrokerProcess(pid, key))) return !pidAlive(pid);
  const home = brokerHome(pid);
  if (home !== undefined && home !== daemonsHome(env)) return false;
  // Its server (and companion) is ours to end only while it is still the broker's child (a pid may be reused later).
  const children = descendantPids(pid);
  const servers = [info.server.pid, info.server.companionPid].filter((p): p is number => p !== undefined && children.includes(p));
  kill(pid, 'SIGKILL'); // works on a stopped process too
  for (const server of servers) kill(server, 'SIGKILL', true);
  const gone = await waitGone(pid, 5_000);
  for (const server of servers) await waitGone(server, 2_000);
  return gone;
}

/** Stops the selected daemons; with --all also cleans stale dirs and (with --force) ends orphans. */
export async function stopDaemons(selection: StopSelection, env: NodeJS.ProcessEnv = process.env): Promise<StopResult[]> {
  const report = await listDaemons(env);
  const targets = report.daemons.filter(
    (d) => selection.all === true || (d.root === selection.root && (selection.language === undefined || d.language === selection.language || d.key === selection.language)),
  );
  const results = await Promise.all(targets.map((d) => stopOne(d, selection.force === true)));
  if (selection.all) {
    for (const s of report.stale) {
      removeDaemonFiles(s.dir);
      results.push({ key: s.key, root: s.dir, language: '?', stopped: true, how: 'cleaned', detail: s.reason });
    }
    if (selection.force) {
      for (const o of report.orphans) {
        kill(o.pid, 'SIGKILL');
        const gone = await waitGone(o.pid, 2_000);
        results.push({ key: o.key ?? '?', root: '?', language: '?', stopped: gone, how: gone ? 'SIGKILL' : 'failed', detail: `orphan broker pid ${o.pid}` });
      }
    }
  }
  return results;
}
