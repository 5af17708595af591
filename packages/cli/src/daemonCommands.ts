import { realpathSync } from 'node:fs';
import { Broker, brokerKey, brokerLogPath, daemonDir, rotatingLogSink, formatDaemons, listDaemons, stopDaemons, type MemoryBudget, type StopResult } from '@agent-lsp/broker';
import { createLogger, resolveScoped, type LogLevel, type ServerRegistry } from '@agent-lsp/lsp';
import { saveCodeCache } from '@agent-lsp/protocol';

/** When a broker stores the code cache: its first client's requests have gone through by then. */
const BROKER_CODE_CACHE_DELAY_MS = 5000;

export interface BrokerCommandOptions {
  root: string;
  language: string;
  key: string;
  idleTimeout: string;
  /** Requests in flight at the server at once; 0: unbounded (benchmarks compare against it). */
  maxInFlight?: string;
  /** start_lsp's scope, as a JSON array of root-relative directories. */
  scope?: string;
}

/** `agent-lsp daemon-broker`: the detached broker process (spawned by fronts, not by people). */
export async function runBrokerCommand(registry: ServerRegistry, opts: BrokerCommandOptions, log: { level?: LogLevel } = {}): Promise<number> {
  const logger = createLogger({ ...log, scope: `broker ${opts.key}`, sink: rotatingLogSink({ path: brokerLogPath(daemonDir(opts.key)) }) });
  const server = registry.forLanguage(opts.language);
  const root = realpathSync(opts.root);
  let scope: string[] | undefined;
  try {
    scope = opts.scope === undefined ? undefined : (JSON.parse(opts.scope) as string[]);
  } catch {
    logger.error(`--scope must be a JSON array of directories, not ${opts.scope}`);
    return 1;
  }
  const resolved = resolveScoped(server, root, scope);
  if (!resolved) {
    logger.error(`${server.displayName} not found: ${server.installHint}`);
    return 1;
  }
  const key = brokerKey(root, resolved.profileFingerprint);
  if (key !== opts.key) {
    logger.error(`key mismatch: this environment gives ${key}, asked for ${opts.key}; refusing to serve another profile`);
    return 1;
  }
  const idleTimeoutMs = Number(opts.idleTimeout);
  if (!Number.isFinite(idleTimeoutMs) || idleTimeoutMs <= 0) {
    logger.error(`--idle-timeout must be a positive number of milliseconds, not ${opts.idleTimeout}`);
    return 1;
  }
  const maxInFlight = opts.maxInFlight === undefined ? undefined : Number(opts.maxInFlight);
  if (maxInFlight !== undefined && !(Number.isInteger(maxInFlight) && maxInFlight >= 0)) {
    logger.error(`--max-in-flight must be a whole number (0: unbounded), not ${opts.maxInFlight}`);
    return 1;
  }
  logger.info(`starting for ${root} (${server.displayName}), pid ${process.pid}`);
  const broker = new Broker({ key, dir: daemonDir(key), root, server, resolved, idleTimeoutMs, logger, ...(maxInFlight !== undefined ? { maxInFlight } : {}) });
  // Process-wide effects live here, at the entry point: the broker only knows stop().
  const onSignal = (signal: NodeJS.Signals) => void broker.stop(signal);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // Without a code cache each broker compiles its bundle afresh, and the parser's memory stays with
  // the process (~12 MiB for the whole CLI): the first broker stores one once it has served a while.
  setTimeout(saveCodeCache, BROKER_CODE_CACHE_DELAY_MS).unref();
  const outcome = await broker.run();
  logger.info(`exiting (${outcome})`);
  return 0;
}

export async function runDaemonStatus(json: boolean, out: (s: string) => void, budget?: MemoryBudget): Promise<void> {
  const report = await listDaemons();
  if (!json) return out(formatDaemons(report, budget));
  const { daemonsReportOut, memoryOut } = await import('@agent-lsp/tools/daemonReport');
  out(JSON.stringify({ ...daemonsReportOut(report), ...(budget ? { memory: memoryOut(report, budget) } : {}) }, null, 2));
}

export interface DaemonStopOptions {
  all?: boolean;
  root?: string;
  language?: string;
  force?: boolean;
}

/** Returns the exit code: non-zero when something could not be stopped. */
export async function runDaemonStop(opts: DaemonStopOptions, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  if (!opts.all && !opts.root) {
    err('daemon-stop needs --all or --root DIR (optionally with --language L).');
    return 2;
  }
  let root: string | undefined;
  if (opts.root) {
    try {
      root = realpathSync(opts.root);
    } catch {
      err(`--root ${opts.root} does not exist.`);
      return 2;
    }
  }
  const results = await stopDaemons({ ...opts, ...(root ? { root } : {}) });
  if (results.length === 0) out('Nothing to stop.');
  for (const r of results) out(describe(r));
  return results.every((r) => r.stopped) ? 0 : 1;
}

function describe(r: StopResult): string {
  if (r.how === 'cleaned') return `cleaned stale ${r.root} (${r.detail})`;
  if (!r.stopped) return `FAILED to stop ${r.language} ${r.root}: ${r.detail}`;
  return `stopped ${r.language} ${r.root} (${r.how}${r.detail ? `, ${r.detail}` : ''})`;
}
