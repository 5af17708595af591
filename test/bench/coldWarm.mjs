// Cold vs warm time to the first complete find_references answer, through the broker, beside the
// language server's own warm answer: the measurement the "Cold vs warm" and "Large workspaces"
// sections share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { listDaemons, stopDaemons } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { openQueryTarget } from './corpora.mjs';

const BIN = fileURLToPath(new URL('../../bin/agent-lsp', import.meta.url));

const TIMED_OUT = /did not answer textDocument\/references within/;

/**
 * A fresh front process; returns the time from spawn to the answer and the answer itself. A tool
 * call that hits agent-lsp's request timeout (120 s) is asked again, as its error message tells an
 * agent to do, up to `retries` times: the time then includes the failed calls, and `timeouts` says how many.
 */
export async function frontQuery(env, corpus, retries = 4) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'always'], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const t1 = performance.now();
  let timeouts = 0;
  try {
    await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root } }, undefined, { timeout: 900_000 });
    for (;;) {
      const r = await client.callTool(
        { name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 } },
        undefined,
        { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
      );
      const t2 = performance.now();
      if (!r.isError) return { total: r.structuredContent.total, complete: r.structuredContent.complete, processMs: t2 - t0, callsMs: t2 - t1, timeouts };
      if (!TIMED_OUT.test(r.content[0].text) || timeouts >= retries) throw new Error(r.content[0].text);
      timeouts++;
    }
  } finally {
    await client.close();
  }
}

/** The server by itself, no agent-lsp in between: warm references answer time (median of `runs`). */
export async function serverWarm(corpus, runs = 5) {
  const registry = new ServerRegistry();
  const conn = await startDirectConnection({ server: registry.forLanguage(corpus.language), rootDir: corpus.root, workspaceFolders: [corpus.root], logger: createLogger({ level: 'error' }) });
  try {
    const { uri, position } = await openQueryTarget(conn, corpus);
    const ask = () => conn.request('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, { timeoutMs: 900_000 });
    const first = await ask();
    const times = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await ask();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { total: first.length, medianMs: times[Math.floor(runs / 2)] };
  } finally {
    await conn.shutdown();
  }
}

/**
 * Cold (a front that spawns the broker), then warm (the median of `warmRuns` fresh fronts on that
 * broker), the broker + server RSS after them, and, unless `serverAlone` is false, the server's own
 * warm answer on a direct connection (which indexes the corpus once more).
 */
export async function benchCorpus(corpus, log, { warmRuns = 3, serverAlone = true } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const env = { ...process.env, AGENT_LSP_HOME: home };
  try {
    log(`${corpus.name}: ${corpus.files} files — cold…`);
    const cold = await frontQuery(env, corpus);
    log(`  cold ${Math.round(cold.processMs)} ms, ${cold.total} refs${timedOut(cold)}; warm…`);
    const runs = [];
    for (let i = 0; i < warmRuns; i++) runs.push(await frontQuery(env, corpus));
    runs.sort((a, b) => a.callsMs - b.callsMs);
    const warm = runs[Math.floor(warmRuns / 2)];
    const report = await listDaemons(env);
    const rss = report.daemons[0]?.rssBytes;
    await stopDaemons({ all: true }, env);
    log(`  warm ${Math.round(warm.processMs)} ms${rss ? `, broker + server ${Math.round(rss / 1048576)} MiB` : ''}`);
    if (!serverAlone) return { corpus, cold, warm, rss };
    log('  server alone…');
    const server = await serverWarm(corpus);
    log(`  server warm ${Math.round(server.medianMs)} ms`);
    return { corpus, cold, warm, server, rss };
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(home, { recursive: true, force: true });
  }
}

export const COLD_WARM_HEADING = '## Cold vs warm: time to the first complete `find_references` answer';

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const m = (ms) => `${Math.round(ms)} ms`;
/** A note for a time that includes tool calls which hit the 120 s request timeout. */
export const timedOut = (r) => (r.timeouts ? ` (after ${r.timeouts} timeout${r.timeouts > 1 ? 's' : ''} of 120 s)` : '');

/** The docs/benchmarks.md section from benchCorpus results (with the server alone). */
export function coldWarmSection(results) {
  const rows = results.map(({ corpus, cold, warm, server, rss }) =>
    `| ${corpus.name} | ${corpus.files} | \`${corpus.pattern}\` in ${corpus.file} | ${cold.total}${cold.complete ? '' : ' (incomplete!)'} | ${s(cold.processMs)}${timedOut(cold)} | ${m(warm.processMs)} | ${m(warm.callsMs)} | ${m(server.medianMs)} (${server.total} refs) | ${(cold.processMs / warm.processMs).toFixed(1)}× | ${(cold.callsMs / warm.callsMs).toFixed(1)}× | ${m(warm.callsMs - server.medianMs)} | ${rss ? `${Math.round(rss / 1048576)} MiB` : '?'} |`,
  );
  return `${COLD_WARM_HEADING}

Each corpus is real code nobody here wrote, copied to a temp dir. **Cold**: a fresh front process in
daemon mode with no broker yet (it spawns the broker, the server indexes), from process spawn to the
complete answer. **Warm**: a fresh front process that finds the already-indexed broker (median of 3),
from process spawn, and for the two tool calls alone (\`start_lsp\` + \`find_references\`, after the
MCP handshake). **Server alone**: the language server's own warm answer to the same request, with no
agent-lsp in between (median of 5). **Overhead**: warm tool calls minus the server's own answer.

| corpus | files | query | references | cold | warm (process) | warm (tool calls) | server alone | cold / warm (process) | cold / warm (tool calls) | overhead | broker + server RSS |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Targets (issue 3): warm at least 10× faster than cold; warm tool calls within 150 ms of the server's own warm answer.

![Cold vs warm per corpus, log scale](plots/cold-warm.svg)
`;
}
