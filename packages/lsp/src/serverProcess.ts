import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pipeline, type Readable, type Writable } from 'node:stream';
import { Emitter, type Disposable } from '@agent-lsp/protocol';
import type { Logger } from './logger.js';
import { StrayOutputFilter } from './strayOutputFilter.js';

export interface ExitInfo {
  /** Human-readable cause, e.g. "exit code 1" or "signal SIGKILL". */
  reason: string;
  /** The last lines the server wrote to stderr, for crash reports. */
  stderrTail: string;
}

/**
 * Where an LspConnection's bytes come from and go to, and how its peer ends. A child process
 * today; a Unix socket (broker) or a TCP socket (passive mode) implement the same shape.
 */
export interface ServerTransport {
  readonly input: Readable;
  readonly output: Writable;
  /** Process id of the server, when this transport owns a process. */
  readonly pid: number | undefined;
  /** A paired transport's second process (pairedTransport.ts): the companion server's pid. */
  readonly companionPid?: number | undefined;
  /** Settles when the peer is gone, whatever the cause. */
  readonly exited: Promise<ExitInfo>;
  /** Ends the peer (for a child: its whole process group), escalating to SIGKILL. */
  terminate(graceMs?: number): Promise<void>;
  /** Each line the server writes to stderr (a child's; pyrefly says only there when its workspace index is built). */
  onStderrLine?(listener: (line: string) => void): Disposable;
}

const STDERR_TAIL_BYTES = 4096;

export interface SpawnOptions {
  command: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  logger: Logger;
}

/**
 * Spawns a language server in its own process group, so that stopping it also stops the
 * helpers it starts (tsserver runs its own children).
 */
export function spawnServerProcess(options: SpawnOptions): Promise<ServerTransport> {
  const [file, ...args] = options.command;
  if (!file) throw new Error('empty server command');
  const child: ChildProcessWithoutNullStreams = spawn(file, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderrTail = '';
  let partialLine = '';
  const stderrLines = new Emitter<string>();
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    options.logger.debug(`stderr: ${chunk.trimEnd()}`);
    const lines = (partialLine + chunk).split('\n');
    partialLine = lines.pop() ?? '';
    for (const line of lines) stderrLines.fire(line);
  });
  // Writes after the server died raise EPIPE on stdin; the exit path reports the cause.
  child.stdin.on('error', (err) => options.logger.debug(`stdin: ${err.message}`));

  let exitedFlag = false;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      resolve({ reason: signal ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`, stderrTail: stderrTail.trim() });
    });
  });

  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    }
  };

  // Only LSP frames reach the reader: a line a server prints between them would stop it for good.
  const input = new StrayOutputFilter((text) => options.logger.warn(`the server wrote to stdout outside the protocol (dropped): ${text.trim().slice(0, 200)}`));
  pipeline(child.stdout, input, () => undefined);

  const transport: ServerTransport = {
    input,
    output: child.stdin,
    pid: child.pid,
    exited,
    onStderrLine: (listener) => stderrLines.on(listener),
    async terminate(graceMs = 2000) {
      if (!exitedFlag) {
        killGroup('SIGTERM');
        const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
        if ((await Promise.race([exited, timer])) === 'timeout') killGroup('SIGKILL');
        await exited;
      }
      // The leader may be gone while helpers in its group linger (tsserver's typings installer).
      killGroup('SIGKILL');
      // A helper in a session of its own (gopls's telemetry child) is not in the group and may
      // hold our pipes' other ends: let go of them, or this process cannot exit until it does.
      child.stdin.destroy();
      child.stdout.destroy();
      input.destroy();
      child.stderr.destroy();
      stderrLines.dispose();
    },
  };

  return new Promise((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      exitedFlag = true;
      reject(err);
    });
    child.once('spawn', () => resolve(transport));
  });
}
