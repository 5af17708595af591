// `pnpm bench`: cold vs warm time to the first complete find_references answer, through the
// broker, beside the language server's own warm answer time; figures into docs/benchmarks.md.
// `node test/bench/run.mjs --only fairness|startup|prefetch|hop` reruns only that section and replaces it there.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { listDaemons, stopDaemons } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { brokerOverhead } from './brokerOverhead.mjs';
import { fairness } from './fairness.mjs';
import { previewEditLatency } from './previewEdit.mjs';
import { STARTUP_HEADING, startupSection } from './startup.mjs';
import { PREFETCH_HEADING, prefetchSection } from './prefetch.mjs';
import { effectSources, openQueryTarget, pythonStdlib } from './corpora.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'bin', 'agent-lsp');
const log = (s) => process.stderr.write(s + '\n');

/** A fresh front process; returns the time from spawn to the answer and the answer itself. */
async function frontQuery(env, corpus) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'always'], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const t1 = performance.now();
  await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root } }, undefined, { timeout: 900_000 });
  const r = await client.callTool(
    { name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 } },
    undefined,
    { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
  );
  const t2 = performance.now();
  await client.close();
  if (r.isError) throw new Error(r.content[0].text);
  return { total: r.structuredContent.total, complete: r.structuredContent.complete, processMs: t2 - t0, callsMs: t2 - t1 };
}

/** The server by itself, no agent-lsp in between: warm references answer time (median of 5). */
async function serverWarm(corpus) {
  const registry = new ServerRegistry();
  const conn = await startDirectConnection({ server: registry.forLanguage(corpus.language), rootDir: corpus.root, workspaceFolders: [corpus.root], logger: createLogger({ level: 'error' }) });
  try {
    const { uri, position } = await openQueryTarget(conn, corpus);
    const ask = () => conn.request('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, { timeoutMs: 900_000 });
    const first = await ask();
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await ask();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { total: first.length, medianMs: times[2] };
  } finally {
    await conn.shutdown();
  }
}

async function benchCorpus(corpus) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const env = { ...process.env, AGENT_LSP_HOME: home };
  try {
    log(`${corpus.name}: ${corpus.files} files — cold…`);
    const cold = await frontQuery(env, corpus);
    log(`  cold ${Math.round(cold.processMs)} ms (${cold.total} refs); warm…`);
    const warmRuns = [];
    for (let i = 0; i < 3; i++) warmRuns.push(await frontQuery(env, corpus));
    warmRuns.sort((a, b) => a.callsMs - b.callsMs);
    const warm = warmRuns[1];
    const report = await listDaemons(env);
    const rss = report.daemons[0]?.rssBytes;
    await stopDaemons({ all: true }, env);
    log(`  warm ${Math.round(warm.processMs)} ms; server alone…`);
    const server = await serverWarm(corpus);
    log(`  server warm ${Math.round(server.medianMs)} ms`);
    return { corpus, cold, warm, server, rss };
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(home, { recursive: true, force: true });
  }
}

const DOC = join(REPO, 'docs', 'benchmarks.md');
const FAIRNESS_HEADING = '## Fairness under load';
const HOP_HEADING = '## The broker hop, memory and load';
const HOP_TARGETS = 'Targets (issue 4): under 1 ms added at p50 by the broker hop; 0 errors under load. (Issue 19: at most 0.3 ms added at p50; 4 agents sharing one broker at most 0.3× of 4 agents each with its own server.)';

/** The broker hop section on the effect sources, in a home of its own (the bench process connects to its broker too). */
async function hopSection(corpus) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const env = { ...process.env, AGENT_LSP_HOME: home };
  const previousHome = process.env.AGENT_LSP_HOME;
  process.env.AGENT_LSP_HOME = home; // connectToBroker in this process uses it too
  try {
    return await brokerOverhead(corpus, env, log);
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(home, { recursive: true, force: true });
    if (previousHome === undefined) delete process.env.AGENT_LSP_HOME;
    else process.env.AGENT_LSP_HOME = previousHome;
  }
}

/** Replaces one section of the existing docs/benchmarks.md (or appends it), keeping the rest. */
async function onlySection(tmp, heading = FAIRNESS_HEADING, make = () => fairness(effectSources(tmp), log)) {
  const section = await make();
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(heading);
  const end = start < 0 ? -1 : doc.indexOf('\n## ', start + heading.length);
  const next = start < 0 ? `${doc.trimEnd()}\n\n${section}` : `${doc.slice(0, start)}${section}${end < 0 ? '' : doc.slice(end)}`;
  writeFileSync(DOC, next);
  process.stdout.write(section);
}

if (process.argv.includes('--only')) {
  const what = process.argv[process.argv.indexOf('--only') + 1];
  if (what !== 'fairness' && what !== 'startup' && what !== 'prefetch' && what !== 'hop') throw new Error(`--only takes "fairness", "startup", "prefetch" or "hop", not ${what}`);
  const only = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-'));
  try {
    if (what === 'startup') await onlySection(only, STARTUP_HEADING, () => startupSection(log));
    else if (what === 'prefetch') await onlySection(only, PREFETCH_HEADING, () => prefetchSection(log));
    else if (what === 'hop') await onlySection(only, HOP_HEADING, async () => `${HOP_HEADING}\n\n${HOP_TARGETS}\n\n${(await hopSection(effectSources(only))).section}`);
    else await onlySection(only);
  } finally {
    rmSync(only, { recursive: true, force: true });
  }
  process.exit(0);
}

const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-'));
try {
  const results = [];
  for (const make of [pythonStdlib, effectSources]) results.push(await benchCorpus(make(tmp)));
  log('preview_edit vs the 500 ms quiet window…');
  const previewRows = [];
  for (const r of results) previewRows.push(await previewEditLatency(r.corpus, log));
  log('Broker overhead, memory and load (effect sources)…');
  const hop = await hopSection(results[1].corpus);
  const overhead = hop.section;
  // Raw per-request latencies of the hop ({ [method]: { direct, broker } }, ms), for the distribution plot.
  const hopSamples = hop.samples;
  log(`  hop samples: ${Object.entries(hopSamples).map(([m, s]) => `${m} ${s.direct.length} direct, ${s.broker.length} broker`).join('; ')}`);
  log('Fairness: a light client\'s hovers while another floods references (effect sources)…');
  const fairnessSection = await fairness(results[1].corpus, log);
  log('A fresh front\'s start-up and memory (python-basic fixture)…');
  const startup = await startupSection(log);
  log('Speculative prefetch: agent traces, prefetch on vs off (stdlib, effect sources)…');
  const prefetch = await prefetchSection(log);
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const m = (ms) => `${Math.round(ms)} ms`;
  const rows = results.map(({ corpus, cold, warm, server, rss }) =>
    `| ${corpus.name} | ${corpus.files} | \`${corpus.pattern}\` in ${corpus.file} | ${cold.total}${cold.complete ? '' : ' (incomplete!)'} | ${s(cold.processMs)} | ${m(warm.processMs)} | ${m(warm.callsMs)} | ${m(server.medianMs)} (${server.total} refs) | ${(cold.processMs / warm.processMs).toFixed(1)}× | ${(cold.callsMs / warm.callsMs).toFixed(1)}× | ${m(warm.callsMs - server.medianMs)} | ${rss ? `${Math.round(rss / 1048576)} MiB` : '?'} |`,
  );
  const doc = `# Benchmarks

Generated by \`pnpm bench\` (test/bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}, ${process.platform} ${process.arch}, Node ${process.version}, ${(await import('node:os')).cpus().length} cores. All figures of one table come from one run.

## Cold vs warm: time to the first complete \`find_references\` answer

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

## Speculative edits: \`preview_edit\` vs a fixed 500 ms quiet window

A single-file edit (a comment line inserted at the top of the file), evaluated 15 times on a warm
server (direct mode) after one warm-up call that takes the baseline. **preview_edit**: the tool
call, end to end over MCP (push the overlay in an exclusive section, settle, diff against the
baseline, restore). **Quiet window**: the same edit pushed on a direct connection, then waiting
until the file's diagnostics have been quiet for 500 ms and collecting them, as peers do.

| corpus | file | preview_edit p50 | preview_edit p95 | settled by | quiet window p50 | quiet window p95 | ratio (p50) |
| --- | --- | --- | --- | --- | --- | --- | --- |
${previewRows.join('\n')}

Target (issue 5): preview_edit p50 at most half of the quiet-window strategy's (ratio ≤ 0.50).

${HOP_HEADING}

${HOP_TARGETS}

${overhead}
${fairnessSection}
${startup}
${prefetch}`;
  writeFileSync(DOC, doc);
  process.stdout.write(doc);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
