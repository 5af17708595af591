import { performance } from 'node:perf_hooks';

/**
 * Start-up tracing for `test/bench/startup.mjs`: with AGENT_LSP_STARTUP_TRACE=1 a process writes
 * `agent-lsp-mark <name> <epoch ms>` lines to stderr at the stages of its start and
 * of its first queries. Off (one boolean test) otherwise; stdout is never touched.
 */
const TRACING = process.env['AGENT_LSP_STARTUP_TRACE'] === '1';

export function startupMark(name: string): void {
  if (TRACING) process.stderr.write(`agent-lsp-mark ${name} ${(performance.timeOrigin + performance.now()).toFixed(2)}\n`);
}
