// Issue 4's figures: the broker hop's per-request cost against direct stdio, memory of four agents
// sharing one broker against four direct servers, and eight fronts' concurrent load on one broker.
// Issue 19: the raw per-request latencies are returned too (`samples`), for the distribution plot,
// and memory is split into fronts / broker process / language server.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connectToBroker, descendantPids, listDaemons, stopDaemons } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { openQueryTarget } from './corpora.mjs';
import { ensureSnapshot, processMemory, programFront } from './programFront.mjs';
import { mib, ms, summarize } from './stats.mjs';

const logger = createLogger({ level: 'error' });
export const HOP_METHODS = ['textDocument/hover', 'textDocument/definition'];

/**
 * RSS, private memory (USS) and PSS of a set of processes, with their descendants when `tree` (less
 * any pid in `except`: the front that spawned the broker is its parent, but the broker is counted
 * apart). RSS counts the pages of the node binary and shared libraries that every node process maps
 * (about 35-45 MiB each) once per process; USS leaves every shared page out; PSS divides each
 * shared page among the processes that map it, so summed over processes it is their real total.
 */
function memoryOf(pids, tree = true, except = new Set()) {
  const all = pids.flatMap((p) => (tree ? [p, ...descendantPids(p)] : [p])).filter((p) => !except.has(p));
  const each = all.map(processMemory);
  const sum = (field) => each.reduce((total, m) => total + m[field], 0);
  return { rss: sum('rss'), uss: sum('uss'), pss: sum('pss') };
}

/** The python-basic fixture copied into `tmp`, as a corpus for hopLatency. */
function pythonBasicCorpus(tmp) {
  const root = join(tmp, 'python-basic');
  cpSync(fileURLToPath(new URL('../fixtures/python-basic', import.meta.url)), root, { recursive: true });
  return { root, file: 'app/geometry.py', pattern: 'def @@distance(', language: 'python', label: 'python-basic' };
}

/** Latencies (ms) of `n` sequential requests, in the order they were made. */
async function timed(conn, uri, position, method, n) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await conn.request(method, { textDocument: { uri }, position });
    samples.push(performance.now() - t);
  }
  return samples;
}

/** The query target, opened and answered once (so the timed requests find it warm). */
async function prepared(conn, corpus) {
  const target = await openQueryTarget(conn, corpus);
  await conn.request('textDocument/hover', { textDocument: { uri: target.uri }, position: target.position }, { timeoutMs: 900_000 });
  return target;
}

/** `count` fronts started as users start them (bin/agent-lsp run as a program, from the start-up snapshot), one after the other, each after its first find_references. */
async function fronts(env, corpus, mode, count) {
  const clients = [];
  for (let i = 0; i < count; i++) {
    const { client, pid } = await programFront(env, ['serve', '--daemon', mode]);
    await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root } });
    await client.callTool({ name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern } }, undefined, { timeout: 900_000 });
    clients.push({ client, pid });
  }
  return clients;
}

/**
 * The hop alone: `n` sequential requests per method over stdio and over the broker's socket, the
 * two interleaved in rounds of 20 so that a change of the machine's load hits both alike. Returns
 * the raw latencies per method, and the two connections (still open) for the load figures.
 */
export async function hopLatency(corpus, n = 200) {
  const server = new ServerRegistry().forLanguage(corpus.language);
  const direct = await startDirectConnection({ server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger });
  const viaBroker = await connectToBroker({ server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger });
  const samples = {};
  let b;
  try {
    const d = await prepared(direct, corpus);
    b = await prepared(viaBroker, corpus);
    for (const method of HOP_METHODS) {
      // A few unmeasured rounds warm both paths (JIT) before the figures are taken.
      await timed(direct, d.uri, d.position, method, 20);
      await timed(viaBroker, b.uri, b.position, method, 20);
      samples[method] = { direct: [], broker: [] };
      for (let done = 0; done < n; done += 20) {
        const round = Math.min(20, n - done);
        samples[method].direct.push(...(await timed(direct, d.uri, d.position, method, round)));
        samples[method].broker.push(...(await timed(viaBroker, b.uri, b.position, method, round)));
      }
    }
  } catch (err) {
    await direct.shutdown();
    await viaBroker.shutdown();
    throw err;
  }
  return { samples, direct, viaBroker, target: b };
}

/**
 * A large answer through both paths: `n` references requests each (the corpus's query, ~1,700
 * locations), direct and broker alternating in rounds of 5. Its own rows, not in the hop plot.
 */
async function largeAnswerHop(direct, viaBroker, target, n = 40) {
  let locations = 0;
  const ask = async (conn) => {
    const t = performance.now();
    const answer = await conn.request('textDocument/references', { textDocument: { uri: target.uri }, position: target.position, context: { includeDeclaration: true } }, { timeoutMs: 300_000 });
    locations = answer?.length ?? 0;
    return performance.now() - t;
  };
  await ask(direct);
  await ask(viaBroker);
  const samples = { direct: [], broker: [] };
  for (let done = 0; done < n; done += 5) {
    for (let i = 0; i < 5; i++) samples.direct.push(await ask(direct));
    for (let i = 0; i < 5; i++) samples.broker.push(await ask(viaBroker));
  }
  return { [`textDocument/references (${locations} locations)`]: samples };
}

/** Table rows of hop latencies, `server` naming the language server and corpus. */
export function hopRows(samples, server) {
  return Object.entries(samples).map(([method, { direct, broker }]) => {
    const dd = summarize(direct);
    const bb = summarize(broker);
    return `| ${server} | ${method} | ${ms(dd.p50)} | ${ms(dd.p95)} | ${ms(bb.p50)} | ${ms(bb.p95)} | ${ms(bb.p50 - dd.p50)} | ${(bb.p50 / dd.p50).toFixed(2)}× |`;
  });
}

/** Broker processes and language servers (with their children), from the daemons' own pids. */
async function daemonMemory(env) {
  const report = await listDaemons(env);
  const brokers = report.daemons.map((d) => d.brokerPid);
  return {
    broker: memoryOf(brokers, false),
    server: memoryOf(report.daemons.flatMap((d) => (d.serverPid === undefined ? [] : [d.serverPid]))),
    pids: new Set(brokers.flatMap((p) => [p, ...descendantPids(p)])),
  };
}

/**
 * Memory after each agent's first `find_references`: four fronts sharing one broker (fronts, broker
 * process and language server apart) against four fronts each with its own server. Returns the
 * Markdown paragraph and table.
 */
export async function agentsMemory(corpus, env, log) {
  log('  memory: 4 agents sharing a broker vs 4 direct…');
  // Fronts start from the start-up snapshot, as npm's bin link starts them: one is built first, in a
  // directory of the bench's own (the checkout's dist/ is left alone).
  env = { ...env, AGENT_LSP_SNAPSHOT_DIR: env.AGENT_LSP_SNAPSHOT_DIR ?? join(env.AGENT_LSP_HOME ?? tmpdir(), 'snapshot') };
  const snapshot = await ensureSnapshot(env);
  const shared = await fronts(env, corpus, 'always', 4);
  const daemons = await daemonMemory(env);
  const sharedFronts = memoryOf(shared.map((f) => f.pid), true, daemons.pids);
  await Promise.all(shared.map((f) => f.client.close()));
  await stopDaemons({ all: true }, env);
  const separate = await fronts(env, corpus, 'never', 4);
  const separateMemory = memoryOf(separate.map((f) => f.pid));
  const separateFronts = memoryOf(separate.map((f) => f.pid), false);
  await Promise.all(separate.map((f) => f.client.close()));
  const sum = (...ms) => ({ rss: ms.reduce((t, m) => t + m.rss, 0), uss: ms.reduce((t, m) => t + m.uss, 0), pss: ms.reduce((t, m) => t + m.pss, 0) });
  const sharedTotal = sum(sharedFronts, daemons.broker, daemons.server);
  const all = (m) => `${mib(m.rss)} / ${mib(m.uss)} / ${mib(m.pss)}`;
  const ratio = (field) => `${(sharedTotal[field] / separateMemory[field]).toFixed(2)}×`;
  log(`  memory (RSS / private / PSS): shared ${all(sharedTotal)} = fronts ${all(sharedFronts)} + broker ${all(daemons.broker)} + server ${all(daemons.server)}; separate ${all(separateMemory)}`);
  // The target, as a budget per front: 4f + broker + server <= 0.3 (4f + the four servers), the
  // servers of the separate agents being their memory less their fronts'.
  const budget = (field) => (0.3 * (separateMemory[field] - separateFronts[field]) - daemons.broker[field] - daemons.server[field]) / (4 - 0.3 * 4);
  const perFront = (m, field) => mib(m[field] / 4);
  const verdict = (field) => `${field === 'uss' ? 'private' : field.toUpperCase()} ${sharedTotal[field] / separateMemory[field] <= 0.3 ? '**met**' : '**not met**'} (a front holds ${perFront(sharedFronts, field)}; the budget at this server's size is ${budget(field) > 0 ? mib(budget(field)) : 'below zero'})`;
  return `Memory after each agent's first \`find_references\`, RSS / private (USS) / PSS. RSS counts the node
binary's pages, shared by every node process, once per process; private memory (USS) is what the
process alone holds; PSS divides each shared page among the processes mapping it, so summed it is
the processes' real total (pages shared with other node processes on the machine, the bench's own
included, count here for their share only). Fronts are started as users start them: bin/agent-lsp run
as a program${snapshot ? ', from the start-up snapshot' : ''}. A front counts with its children but not the broker it spawned; the language
server with tsserver:

| | fronts | broker process | language server | total | ratio (RSS) | ratio (private) | ratio (PSS) |
| --- | --- | --- | --- | --- | --- | --- | --- |
| 4 agents sharing one broker | ${all(sharedFronts)} | ${all(daemons.broker)} | ${all(daemons.server)} | ${all(sharedTotal)} | ${ratio('rss')} | ${ratio('uss')} | ${ratio('pss')} |
| 4 agents, each with its own server | ${all(separateMemory)} (fronts with their servers; the fronts alone ${all(separateFronts)}) | – | – | ${all(separateMemory)} | 1.00× | 1.00× | 1.00× |

Target (issue 19) 0.3×, as a budget per front (4 fronts + broker + server ≤ 0.3 × (4 fronts + 4
servers), the other figures as measured): ${verdict('rss')}; ${verdict('uss')}; ${verdict('pss')}.
`;
}

export async function brokerOverhead(corpus, env, log) {
  const registry = new ServerRegistry();
  const server = registry.forLanguage(corpus.language);
  const N = 200;

  log('  broker hop vs direct…');
  const hop = await hopLatency(corpus, N);
  const labelOf = (c) => `${registry.forLanguage(c.language).displayName} (${c.label ?? c.name})`;
  const label = labelOf(corpus);
  const rows = hopRows(hop.samples, label);
  for (const row of rows) log(`  ${row}`);
  // pyright's hop beside it (the python-basic fixture): a server whose own answers vary less.
  const fixtureDir = mkdtempSync(join(tmpdir(), 'agent-lsp-hop-python-'));
  try {
    const fixture = pythonBasicCorpus(fixtureDir);
    const pyHop = await hopLatency(fixture, N);
    await pyHop.direct.shutdown();
    await pyHop.viaBroker.shutdown();
    const pyRows = hopRows(pyHop.samples, labelOf(fixture));
    for (const row of pyRows) log(`  ${row}`);
    rows.push(...pyRows);
  } finally {
    rmSync(fixtureDir, { recursive: true, force: true });
  }
  const { direct, viaBroker } = hop;
  let loadRow = '';
  try {
    const b = hop.target;
    log('  a large answer (references) vs direct…');
    const large = hopRows(await largeAnswerHop(direct, viaBroker, b), label);
    for (const row of large) log(`  ${row}`);
    rows.push(...large);
    log('  load: 8 clients × 100 concurrent hovers…');
    const idle = summarize(await timed(viaBroker, b.uri, b.position, 'textDocument/hover', 50));
    const loaders = [];
    for (let i = 0; i < 8; i++) loaders.push(await connectToBroker({ server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger }));
    const targets = await Promise.all(loaders.map((c) => prepared(c, corpus)));
    let errors = 0;
    const samples = [];
    await Promise.all(
      loaders.flatMap((c, i) =>
        Array.from({ length: 100 }, async () => {
          const t = performance.now();
          try {
            await c.request('textDocument/hover', { textDocument: { uri: targets[i].uri }, position: targets[i].position }, { timeoutMs: 300_000 });
            samples.push(performance.now() - t);
          } catch {
            errors++;
          }
        }),
      ),
    );
    const load = summarize(samples);
    await Promise.all(loaders.map((c) => c.shutdown()));
    loadRow = `| 8 clients × 100 concurrent hovers | ${samples.length + errors} | ${errors} | ${ms(idle.p95)} | ${ms(load.p50)} | ${ms(load.p95)} |`;
  } finally {
    await direct.shutdown();
    await viaBroker.shutdown();
  }
  await stopDaemons({ all: true }, env);

  const memory = await agentsMemory(corpus, env, log);

  const section = `### ${corpus.name}

Per request, warm, same position, ${N} sequential requests each, direct and broker alternating in rounds of 20 (LspConnection over stdio vs over the broker's socket); the references row: 40 each, in rounds of 5:

| server | request | direct p50 | direct p95 | broker p50 | broker p95 | added at p50 | ratio |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Load on one broker (each client its own socket, like a front):

| load | requests | errors | idle p95 | p50 under load | p95 under load |
| --- | --- | --- | --- | --- | --- |
${loadRow}

${memory}`;
  return { section, samples: hop.samples };
}

// `node test/bench/brokerOverhead.mjs --memory`: the memory table alone, on effect's sources in a
// temporary dir and AGENT_LSP_HOME.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--memory')) {
  const { loadavg } = await import('node:os');
  const { effectSources } = await import('./corpora.mjs');
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-agents-memory-'));
  const env = { ...process.env, AGENT_LSP_HOME: join(tmp, 'home') };
  try {
    process.stderr.write(`load average ${loadavg()[0].toFixed(1)}\n`);
    process.stdout.write(await agentsMemory(effectSources(tmp), env, (line) => process.stderr.write(`${line}\n`)));
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(tmp, { recursive: true, force: true });
  }
}
