import { RequestTimeoutError, type LspConnection, type Logger } from '@agent-lsp/lsp';
import { cpuTimeMs } from './processInfo.js';

/**
 * A request every server answers at once without doing work: the LSP spec has it answer any `$/`
 * request it does not know with MethodNotFound. An answer of any kind means the server is alive.
 */
const PROBE_METHOD = '$/agentLsp/healthProbe';
/**
 * A server that used at least this share of a CPU while a probe went unanswered is working, not
 * hung: pyright answers nothing while it computes a long request on its one thread (a Django-wide
 * find-references). It counts as unresponsive only once it has not answered for a grace (a minute).
 * A stopped or deadlocked server uses none and counts at once.
 */
const BUSY_CPU_SHARE = 0.02;
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
  /** How long a working server may stay silent (see BUSY_CPU_SHARE); default 60 s. */
  busyGraceMs?: number;
}

/**
 * Makes a hung server visible. A server that stops reading (stopped, deadlocked, stuck in a loop)
 * looks healthy from the outside: its process lives and requests simply wait. The probe asks it a
 * trivial question now and then; no answer in time turns it `unresponsive`, the next answer
 * turns it back.
 */
export class HealthProbe {
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private unresponsiveSince: number | undefined;
  /** Since when probes have gone unanswered while the server kept working (see BUSY_CPU_SHARE). */
  private busySince: number | undefined;
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
    this.set(true);
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async probe(): Promise<void> {
    const conn = this.options.connection();
    if (!conn?.isAlive || this.probing) return;
    this.probing = true;
    const startedAt = Date.now();
    const cpuBefore = conn.pid === undefined ? undefined : cpuTimeMs(conn.pid);
    try {
      await conn.request(PROBE_METHOD, null, { timeoutMs: this.timeoutMs });
      this.answered(conn);
    } catch (err) {
      if (this.options.connection() !== conn) return;
      if (err instanceof RequestTimeoutError) {
        const cpuAfter = conn.pid === undefined ? undefined : cpuTimeMs(conn.pid);
        const working = cpuBefore !== undefined && cpuAfter !== undefined && cpuAfter - cpuBefore >= (Date.now() - startedAt) * BUSY_CPU_SHARE;
        if (working) {
          this.busySince ??= startedAt;
          if (Date.now() - this.busySince < this.busyGraceMs) {
            this.options.logger.debug(`language server pid ${conn.pid} is busy: no answer to a health probe within ${this.timeoutMs / 1000} s, but it is working`);
            return;
          }
        }
        if (this.responsive) this.options.logger.warn(`language server pid ${conn.pid} did not answer a health probe within ${this.timeoutMs / 1000} s${working ? ` (working, but silent for over ${this.busyGraceMs / 1000} s)` : ''}: unresponsive`);
        this.set(false);
      } else if (conn.isAlive) {
        this.answered(conn); // an error answer is an answer
      }
    } finally {
      this.probing = false;
    }
  }

  private answered(conn: LspConnection): void {
    if (this.options.connection() !== conn) return;
    this.busySince = undefined;
    if (!this.responsive) this.options.logger.info(`language server pid ${conn.pid} answers again`);
    this.set(true);
  }

  private set(responsive: boolean): void {
    if (responsive === this.responsive) return;
    this.unresponsiveSince = responsive ? undefined : Date.now();
    this.options.onChange(responsive);
  }
}
