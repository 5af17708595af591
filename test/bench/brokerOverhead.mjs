// Issue 4's figures: the broker hop's per-request cost against direct stdio, memory of four agents
// sharing one broker against four direct servers, and eight fronts' concurrent load on one broker.
// Issue 19: the raw per-request latencies are returned too (`samples`), for the distribution plot,
// and memory is split into fronts / broker process / language server.
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectToBroker, descendantPids, listDaemons, rssBytes, stopDaemons } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { openQueryTarget } from './corpora.mjs';
import { mib, ms, summarize } from './stats.mjs';

const logger = createLogger({ level: 'error' });
const BIN = fileURLToPath(new URL('../../bin/agent-lsp', import.meta.url));
export const HOP_METHODS = ['textDocument/hover', 'textDocument/definition'];

/** Resident memory of a process and all its descendants. */
function treeRss(pid) {
  return [pid, ...descendantPids(pid)].reduce((sum, p) => sum + (rssBytes(p) ?? 0), 0);
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

async function fronts(env, corpus, mode, count) {
  const clients = [];
  for (let i = 0; i < count; i++) {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', mode], env, stderr: 'ignore' });
    const client = new Client({ name: 'bench', version: '0' });
    await client.connect(transport);
    await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root } });
    await client.callTool({ name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern } }, undefined, { timeout: 900_000 });
    clients.push({ client, pid: transport.pid });
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

export function hopRows(samples) {
  return Object.entries(samples).map(([method, { direct, broker }]) => {
    const dd = summarize(direct);
    const bb = summarize(broker);
    return `| ${method} | ${ms(dd.p50)} | ${ms(dd.p95)} | ${ms(bb.p50)} | ${ms(bb.p95)} | ${ms(bb.p50 - dd.p50)} | ${(bb.p50 / dd.p50).toFixed(2)}× |`;
  });
}

/** Broker process, language server (with its children), from the daemons' own pids. */
async function daemonRss(env) {
  const report = await listDaemons(env);
  let broker = 0;
  let server = 0;
  for (const d of report.daemons) {
    broker += rssBytes(d.brokerPid) ?? 0;
    if (d.serverPid !== undefined) server += treeRss(d.serverPid);
  }
  return { broker, server };
}

export async function brokerOverhead(corpus, env, log) {
  const registry = new ServerRegistry();
  const server = registry.forLanguage(corpus.language);
  const N = 200;

  log('  broker hop vs direct…');
  const hop = await hopLatency(corpus, N);
  const rows = hopRows(hop.samples);
  for (const row of rows) log(`  ${row}`);
  const { direct, viaBroker } = hop;
  let loadRow = '';
  try {
    const b = hop.target;
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

  log('  memory: 4 agents sharing a broker vs 4 direct…');
  const shared = await fronts(env, corpus, 'always', 4);
  const { broker: brokerRss, server: serverRss } = await daemonRss(env);
  const sharedFronts = shared.reduce((sum, f) => sum + treeRss(f.pid), 0);
  await Promise.all(shared.map((f) => f.client.close()));
  await stopDaemons({ all: true }, env);
  const separate = await fronts(env, corpus, 'never', 4);
  const directTotal = separate.reduce((sum, f) => sum + treeRss(f.pid), 0);
  await Promise.all(separate.map((f) => f.client.close()));
  const sharedTotal = sharedFronts + brokerRss + serverRss;

  const section = `### ${corpus.name}

Per request, warm, same position, ${N} sequential requests each, direct and broker alternating in rounds of 20 (LspConnection over stdio vs over the broker's socket):

| request | direct p50 | direct p95 | broker p50 | broker p95 | added at p50 | ratio |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Load on one broker (each client its own socket, like a front):

| load | requests | errors | idle p95 | p50 under load | p95 under load |
| --- | --- | --- | --- | --- | --- |
${loadRow}

Memory, total RSS (from /proc; a front counts with its children, the server with tsserver):

| | fronts | broker process | language server | total | ratio |
| --- | --- | --- | --- | --- | --- |
| 4 agents sharing one broker | ${mib(sharedFronts)} | ${mib(brokerRss)} | ${mib(serverRss)} | ${mib(sharedTotal)} | ${(sharedTotal / directTotal).toFixed(2)}× |
| 4 agents, each with its own server | ${mib(directTotal)} (fronts with their servers) | – | – | ${mib(directTotal)} | 1.00× |
`;
  return { section, samples: hop.samples };
}
