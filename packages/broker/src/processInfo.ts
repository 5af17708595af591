import { readdirSync, readFileSync } from 'node:fs';
import psList from 'ps-list';
import { daemonsHome } from './paths.js';

/** Marker in a broker's command line; with the key it identifies the broker of one daemon dir. */
export const BROKER_COMMAND = 'daemon-broker';

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // A zombie has exited; only its parent has not reaped it yet.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** A process's command line, arguments joined by spaces (as ps prints it), from /proc; undefined without. */
function procCommandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is a broker for `key` (guards against a reused pid). Every front asks this when it
 * attaches: /proc answers for one pid at once, where listing every process with ps took tens of
 * milliseconds of a fresh front's start (ps remains for systems without /proc).
 */
export async function isBrokerProcess(pid: number, key: string): Promise<boolean> {
  if (!pidAlive(pid)) return false;
  const cmd = procCommandLine(pid) ?? (await psList({ all: true })).find((p) => p.pid === pid)?.cmd;
  return cmd !== undefined && cmd.includes(BROKER_COMMAND) && cmd.includes(key);
}

/** Every broker process on the machine, with the key from its command line. */
export async function listBrokerProcesses(): Promise<{ pid: number; key: string | undefined; cmd: string }[]> {
  return (await psList({ all: true }))
    .filter((p) => p.cmd?.includes(` ${BROKER_COMMAND}`) && p.pid !== process.pid)
    .map((p) => ({ pid: p.pid, key: /--key[= ]([0-9a-f]{16})/.exec(p.cmd ?? '')?.[1], cmd: p.cmd ?? '' }));
}

/**
 * The daemons home a running broker serves, from its environment in /proc; undefined when that
 * cannot be read (another user, no /proc). Brokers of different homes may share a key (same root
 * and profile), so the key alone does not say whose a broker is.
 */
export function brokerHome(pid: number): string | undefined {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return undefined;
  }
  const env: NodeJS.ProcessEnv = {};
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return daemonsHome(env);
}

/** Resident memory of a process in bytes, from /proc (ps-list gives only a percentage). */
export function rssBytes(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux everywhere). */
const USER_HZ = 100;

/** CPU time a process has used (user + system, its threads included), from /proc; undefined without. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces and parentheses): state is the 3rd, utime the 14th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/** Pids of a process's live descendants (tsserver under typescript-language-server). */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    for (const child of children.get(stack.pop() as number) ?? []) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}
