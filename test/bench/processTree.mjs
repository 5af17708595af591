// Processes as /proc shows them, for the benchmarks that count or end every process an MCP server
// leaves: a pid's descendants, our broker's and the original agent-lsp's daemon pids under a home.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A pid and all its descendants, from /proc (parents first). */
export function tree(pid) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch {
      // gone
    }
  }
  const out = [];
  const walk = (p) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** The pids of our brokers under AGENT_LSP_HOME `home`. */
export function ourBrokerPids(home) {
  const dir = join(home, 'daemons');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((d) => join(dir, d, 'daemon.json')).filter(existsSync).map((f) => JSON.parse(readFileSync(f, 'utf8')).broker.pid);
}

/** The pids of the original agent-lsp's daemons started with HOME=`home`. */
export function originalDaemonPids(home) {
  const dir = join(home, '.cache', 'agent-lsp', 'daemons');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((d) => join(dir, d, 'daemon.pid')).filter(existsSync).map((f) => Number(readFileSync(f, 'utf8').trim())).filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** SIGKILL to each of `pids` still there (children after their parents have been listed: reverse it to end the leaves first). */
export function killAll(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** The original's daemons under HOME=`home` ended: its own daemon-stop, then any process of theirs left. */
export function stopOriginalDaemons(bin, env, home) {
  const left = originalDaemonPids(home).flatMap((pid) => tree(pid));
  spawnSync(bin, ['daemon-stop', '--all'], { env, timeout: 30_000 });
  killAll(left.reverse());
}
