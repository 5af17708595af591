import type { Disposable } from '@agent-lsp/protocol';
import { RequestTimeoutError, type LspConnection, type Logger } from '@agent-lsp/lsp';
import { cpuTimeMs } from './processInfo.js';

/**
 * A request every server answers at once without doing work: the LSP spec has it answer any `$/`
 * request it does not know with MethodNotFound. An answer of any kind means the server is alive.
 */
const PROBE_METHOD = '$/agentLsp/healthProbe';
/**
 * Evidence that a server which does not answer is working, not hung: it used at least this share
 * of a CPU while a probe went unanswered (pyright answers nothing while it indexes a large root or
 * computes a Django-wide find-references on its one thread, minutes on a loaded machine), or it
 * sent something meanwhile (progress, a log line, diagnostics). A working server is waited for as
 * long as it keeps working: calling it dead would fail the very request it is computing. A stopped
 * or deadlocked server shows neither and counts as unresponsive once a probe times out.
 */
const BUSY_CPU_SHARE = 0.02;
/** How long a working server may stay silent before the broker log says it is busy; default a minute. */
export const DEFAULT_BUSY_GRACE_MS = 60_000;

/** Between probes by default; the answer may take twice as long. */
export const DEFAULT_PROBE_INTERVAL_MS = 5_000;

/**
 * The probe's timing in a broker: AGENT_LSP_HEALTH_PROBE_MS (a positive integer, in ms) sets the
 * interval, the timeout is twice it; AGENT_LSP_HEALTH_BUSY_GRACE_MS sets the busy grace (tests
 * shorten both; docs/broker.md). Anything else: the default, and a warning in the broker log.
 */
export function probeTimingFromEnv(env: NodeJS.ProcessEnv, logger: Logger): { intervalMs: number; timeoutMs: number; busyGraceMs: number } {
  const intervalMs = positiveMs(env, 'AGENT_LSP_HEALTH_PROBE_MS', DEFAULT_PROBE_INTERVAL_MS, logger);
  return { intervalMs, timeoutMs: 2 * intervalMs, busyGraceMs: positiveMs(env, 'AGENT_LSP_HEALTH_BUSY_GRACE_MS', DEFAULT_BUSY_GRACE_MS, logger) };
}

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number, logger: Logger): number {
  const text = env[name];
  const n = Number(text);
  const valid = text !== undefined && Number.isInteger(n) && n > 0;
  if (text !== undefined && !valid) logger.warn(`${name}: "${text}" is not a positive integer of milliseconds; using the default, ${fallback} ms`);
  return valid ? n : fallback;
}

export interface HealthProbeOptions {
  /** The running server, if any (none while it starts or restarts). */
  connection(): LspConnection | undefined;
  logger: Logger;
  /** Whether the server answers changed. */
  onChange(responsive: boolean): void;
  /** Between probes; default 5 s. */
  intervalMs?: number;
  /** How long an answer may take before the server counts as unresponsive; default 10 s. */
  timeoutMs?: number;
  /** How long a working server may stay silent before the log says so (see BUSY_CPU_SHARE); default 60 s. */
  busyGraceMs?: number;
}

/**
 * Makes a hung server visible. A server that stops reading (stopped, deadlocked, stuck in a loop)
 * looks healthy from the outside: its process lives and requests simply wait. The probe asks it a
 * trivial question now and then; no answer in time, and no sign of work (BUSY_CPU_SHARE), turns
 * it `unresponsive`, the next answer turns it back.
 */
export class HealthProbe {
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private unresponsiveSince: number | undefined;
  /** Since when probes have gone unanswered while the server kept working (see BUSY_CPU_SHARE). */
  private busySince: number | undefined;
  /** Whether the log said so (once the busy spell outlasted the grace). */
  private busyLogged = false;
  /** When the server last sent a notification, heard on `listening`. */
  private heardAt = 0;
  private listening: { conn: LspConnection; subscription: Disposable } | undefined;
  private readonly intervalMs: number;
  readonly timeoutMs: number;
  private readonly busyGraceMs: number;

  constructor(private readonly options: HealthProbeOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? 2 * DEFAULT_PROBE_INTERVAL_MS;
    this.busyGraceMs = options.busyGraceMs ?? DEFAULT_BUSY_GRACE_MS;
  }

  get responsive(): boolean {
    return this.unresponsiveSince === undefined;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  /** A new server: whatever the old one did says nothing about it. */
  reset(): void {
    this.busySince = undefined;
    this.busyLogged = false;
    this.set(true);
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.listening?.subscription.dispose();
    this.listening = undefined;
  }

  /** Notices what the server sends: a message while a probe waits is a sign of work. */
  private listen(conn: LspConnection): void {
    if (this.listening?.conn === conn) return;
    this.listening?.subscription.dispose();
    this.listening = { conn, subscription: conn.onServerNotification(() => (this.heardAt = Date.now())) };
  }

  private async probe(): Promise<void> {
    const conn = this.options.connection();
    if (!conn?.isAlive || this.probing) return;
    this.probing = true;
    this.listen(conn);
    const startedAt = Date.now();
    const cpuBefore = conn.pid === undefined ? undefined : cpuTimeMs(conn.pid);
    try {
      await conn.request(PROBE_METHOD, null, { timeoutMs: this.timeoutMs });
      this.answered(conn);
    } catch (err) {
      if (this.options.connection() !== conn) return;
      if (err instanceof RequestTimeoutError) {
        const work = this.signOfWork(conn, startedAt, cpuBefore);
        if (work) this.busy(conn, work, startedAt);
        else {
          if (this.responsive) this.options.logger.warn(`language server pid ${conn.pid} did not answer a health probe within ${this.timeoutMs / 1000} s and shows no sign of work (no CPU time, no message): unresponsive`);
          this.busySince = undefined;
          this.busyLogged = false;
          this.set(false);
        }
      } else if (conn.isAlive) {
        this.answered(conn); // an error answer is an answer
      }
    } finally {
      this.probing = false;
    }
  }

  /** What shows the silent server worked while the probe waited since `startedAt`, if anything. */
  private signOfWork(conn: LspConnection, startedAt: number, cpuBefore: number | undefined): string | undefined {
    const cpuAfter = conn.pid === undefined ? undefined : cpuTimeMs(conn.pid);
    const cpuUsed = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : 0;
    if (cpuUsed > 0 && cpuUsed >= (Date.now() - startedAt) * BUSY_CPU_SHARE) return `${Math.round(cpuUsed)} ms of CPU in the last ${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
    if (this.heardAt >= startedAt) return 'it sends messages';
    return undefined;
  }

  /** Working, not answering: waited for; the log says so once the spell outlasts the grace. */
  private busy(conn: LspConnection, work: string, probeSentAt: number): void {
    const since = (this.busySince ??= probeSentAt);
    const silentMs = Date.now() - since;
    if (silentMs >= this.busyGraceMs && !this.busyLogged) {
      this.busyLogged = true;
      this.options.logger.warn(`language server pid ${conn.pid} has answered no health probe for ${(silentMs / 1000).toFixed(1)} s but keeps working (${work}): busy, not hung; waiting for it (a server stuck in a loop looks the same: restart_lsp_server ends it)`);
    } else {
      this.options.logger.debug(`language server pid ${conn.pid} is busy: no answer to a health probe within ${this.timeoutMs / 1000} s, but ${work}`);
    }
  }

  private answered(conn: LspConnection): void {
    if (this.options.connection() !== conn) return;
    if (this.busyLogged && this.busySince !== undefined) this.options.logger.info(`language server pid ${conn.pid} answers again after ${((Date.now() - this.busySince) / 1000).toFixed(1)} s of work`);
    this.busySince = undefined;
    this.busyLogged = false;
    if (!this.responsive) this.options.logger.info(`language server pid ${conn.pid} answers again`);
    this.set(true);
  }

  private set(responsive: boolean): void {
    if (responsive === this.responsive) return;
    this.unresponsiveSince = responsive ? undefined : Date.now();
    this.options.onChange(responsive);
  }
}
