import { readdirSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { LineSplitter } from './outputCap.js';

export interface GroupRunOptions {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** Every line of stdout and stderr, in the order they arrive. */
  onLine(line: string): void;
}

export interface GroupRunOutcome {
  /** The process group's id (the runner's pid); gone when this resolves. */
  pid: number | undefined;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** Set when the command could not be started at all. */
  spawnError?: string;
}

/** How long a group gets between SIGTERM and SIGKILL. */
const TERM_GRACE_MS = 2_000;
/** How long to wait for the pipes to close once the group is dead. */
const PIPE_DRAIN_MS = 2_000;

/**
 * Runs an argv (never a shell) as the leader of a new process group and ends the whole group:
 * on timeout and cancellation (SIGTERM, then SIGKILL), and after the leader exits (SIGKILL to
 * whatever it left behind — a test's stray server, a watcher). Nothing it started keeps running,
 * except a process that left the group itself (setsid, a daemonizing fork).
 */
export function runProcessGroup(options: GroupRunOptions): Promise<GroupRunOutcome> {
  const started = Date.now();
  const [command, ...args] = options.argv;
  return new Promise((resolvePromise) => {
    if (!command) {
      resolvePromise({ pid: undefined, exitCode: null, exitSignal: null, timedOut: false, cancelled: false, durationMs: 0, spawnError: 'empty command' });
      return;
    }
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    let timedOut = false;
    let cancelled = false;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const killGroup = (sig: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, sig);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), TERM_GRACE_MS);
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    let openStreams = 0;
    const wire = (stream: NodeJS.ReadableStream | null) => {
      if (!stream) return;
      openStreams++;
      const decoder = new StringDecoder('utf8');
      const lines = new LineSplitter((line) => options.onLine(line));
      stream.on('data', (chunk: Buffer) => lines.push(decoder.write(chunk)));
      stream.on('close', () => {
        lines.push(decoder.end());
        lines.flush();
        openStreams--;
        if (openStreams === 0) finish();
      });
    };
    wire(child.stdout);
    wire(child.stderr);

    let drainTimer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (settled || (!exited && !spawnError)) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
      void untilGroupGone(pid).then(() => resolvePromise({
        pid,
        exitCode: exited?.code ?? null,
        exitSignal: exited?.signal ?? null,
        timedOut,
        cancelled,
        durationMs: Date.now() - started,
        ...(spawnError ? { spawnError } : {}),
      }));
    };

    child.on('error', (err) => {
      spawnError = err.message;
      finish();
    });
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      // The leader is gone; whatever it started in its group goes with it.
      killGroup('SIGKILL');
      if (openStreams === 0) finish();
      // A process that left the group may still hold the pipes: stop waiting for them.
      else
        drainTimer = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, PIPE_DRAIN_MS);
    });
  });
}

/** How long the outcome waits for a killed group's members to finish exiting. */
const GROUP_EXIT_WAIT_MS = 2_000;

/**
 * Waits until no member of the group is alive. A SIGKILLed process closes its pipes before the
 * kernel marks it exited, so the pipes' close alone does not mean the group is gone: an outcome
 * that says it is must not race that last step (seen under load).
 */
async function untilGroupGone(pgid: number | undefined): Promise<void> {
  if (pgid === undefined) return;
  const deadline = Date.now() + GROUP_EXIT_WAIT_MS;
  while (liveGroupMembers(pgid).length > 0 && Date.now() < deadline) {
    await new Promise((resolveWait) => setTimeout(resolveWait, 5));
  }
}

/** The live (not zombie) processes of a process group, from /proc: empty once a group is gone. */
export function liveGroupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return members;
}
