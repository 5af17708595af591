// Issue 4's figures: the broker hop's per-request cost against direct stdio, memory of four agents
// sharing one broker against four direct servers, and eight fronts' concurrent load on one broker.
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

/** Resident memory of a process and all its descendants. */
function treeRss(pid) {
  return [pid, ...descendantPids(pid)].reduce((sum, p) => sum + (rssBytes(p) ?? 0), 0);
}

async function timed(conn, uri, position, method, n) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await conn.request(method, { textDocument: { uri }, position });
    samples.push(performance.now() - t);
  }
  return summarize(samples);
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

export async function brokerOverhead(corpus, env, log) {
  const registry = new ServerRegistry();
  const server = registry.forLanguage(corpus.language);
  const N = 200;

  log('  broker hop vs direct…');
  const direct = await startDirectConnection({ server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger });
  const viaBroker = await connectToBroker({ server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger });
  const rows = [];
  let loadRow = '';
  try {
    const d = await prepared(direct, corpus);
    const b = await prepared(viaBroker, corpus);
    for (const method of ['textDocument/hover', 'textDocument/definition']) {
      const dd = await timed(direct, d.uri, d.position, method, N);
      const bb = await timed(viaBroker, b.uri, b.position, method, N);
      rows.push(`| ${method} | ${ms(dd.p50)} | ${ms(dd.p95)} | ${ms(bb.p50)} | ${ms(bb.p95)} | ${ms(bb.p50 - dd.p50)} | ${(bb.p50 / dd.p50).toFixed(2)}× |`);
    }

    log('  load: 8 clients × 100 concurrent hovers…');
    const idle = await timed(viaBroker, b.uri, b.position, 'textDocument/hover', 50);
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

  log('  memory: 4 agents sharing a broker vs 4 direct…');
  const shared = await fronts(env, corpus, 'always', 4);
  const report = await listDaemons(env);
  const brokerRss = report.daemons.reduce((sum, d) => sum + (d.rssBytes ?? 0), 0);
  const sharedFronts = shared.reduce((sum, f) => sum + treeRss(f.pid), 0);
  await Promise.all(shared.map((f) => f.client.close()));
  await stopDaemons({ all: true }, env);
  const separate = await fronts(env, corpus, 'never', 4);
  const directTotal = separate.reduce((sum, f) => sum + treeRss(f.pid), 0);
  await Promise.all(separate.map((f) => f.client.close()));

  return `### ${corpus.name}

Per request, warm, same position, ${N} sequential requests each (LspConnection over stdio vs over the broker's socket):

| request | direct p50 | direct p95 | broker p50 | broker p95 | added at p50 | ratio |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Load on one broker (each client its own socket, like a front):

| load | requests | errors | idle p95 | p50 under load | p95 under load |
| --- | --- | --- | --- | --- | --- |
${loadRow}

Memory, total RSS (fronts + brokers + servers, from /proc):

| 4 agents sharing one broker | 4 agents, each with its own server |
| --- | --- |
| ${mib(sharedFronts + brokerRss)} (fronts ${mib(sharedFronts)}, broker + server ${mib(brokerRss)}) | ${mib(directTotal)} |
`;
}
