import { performance } from 'node:perf_hooks';

/**
 * Start-up tracing for `test/bench/startup.mjs`: with AGENT_LSP_STARTUP_TRACE=1 a process writes
 * `agent-lsp-mark <name> <epoch ms> cpu=<ms>` lines to stderr at the stages of its start and
 * of its first queries (cpu: the process's CPU time so far, user + system: on a loaded machine
 * the wall time between marks is mostly the scheduler's). Off (one boolean test) otherwise;
 * stdout is never touched.
 */
export function startupMark(name: string): void {
  // Read at each mark, not when the module loads: the start-up snapshot loads it at build time.
  if (process.env['AGENT_LSP_STARTUP_TRACE'] !== '1') return;
  const cpu = process.cpuUsage();
  process.stderr.write(`agent-lsp-mark ${name} ${(performance.timeOrigin + performance.now()).toFixed(2)} cpu=${((cpu.user + cpu.system) / 1000).toFixed(1)}\n`);
}

/**
 * After a query's answer, the front lets the bundle's loader store V8's code cache
 * (scripts/bundleLoader.mjs): the code a front runs up to its first answer is compiled by then and
 * goes into the cache. The loader sets the hook only when there is no usable cache; it runs once,
 * after the answer has been sent. start_lsp's answer comes before any query: too early.
 */
const SAVE_CODE_CACHE = Symbol.for('agent-lsp.saveCodeCache');

export function toolAnswered(tool: string): void {
  if (tool === 'start_lsp') return;
  saveCodeCache();
}

/** Lets the bundle's loader store V8's code cache now, once per process (a no-op when there is one, or no loader). */
export function saveCodeCache(): void {
  const slot = globalThis as { [SAVE_CODE_CACHE]?: () => void };
  const save = slot[SAVE_CODE_CACHE];
  if (typeof save !== 'function') return;
  delete slot[SAVE_CODE_CACHE];
  setImmediate(save);
}
