// Issue 19's TypeScript server comparison: typescript-language-server (tsls, over tsserver) and
// typescript-go (tsgo, `--ts-server tsgo`) side by side on effect's sources, each in a fresh front
// of its own (--daemon never, so the server's cold start is in the figure): cold time to the first
// complete find_references, warm answer time through agent-lsp and from the server alone, RSS of
// the server's process tree after warm-up, and preview_edit's p50.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { descendantPids, rssBytes } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { effectSources, openQueryTarget } from './corpora.mjs';
import { mib, ms, summarize } from './stats.mjs';

export const TS_SERVERS_HEADING = '## TypeScript servers: typescript-language-server vs typescript-go';

const BIN = fileURLToPath(new URL('../../bin/agent-lsp', import.meta.url));
const SERVERS = [
  { choice: 'tsls', name: 'typescript-language-server' },
  { choice: 'tsgo', name: 'typescript-go' },
];
const WARM_RUNS = 5;
const PREVIEW_RUNS = 15;
const LONG = { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, LONG);
  if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
  return r.structuredContent;
}

/** One fresh front serving `choice`: cold, warm, memory and preview_edit, in that order. */
async function throughAgentLsp(corpus, choice) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--daemon', 'never', '--ts-server', choice],
    env: { ...process.env, AGENT_LSP_HOME: home },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  try {
    const refs = { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 };
    const caps = await call(client, 'start_lsp', { root_dir: corpus.root, language_id: 'typescript' }).then(() => call(client, 'get_server_capabilities', { language_id: 'typescript' }));
    const cold = await call(client, 'find_references', refs);
    const coldMs = performance.now() - t0;
    if (cold.complete !== true) throw new Error(`${choice}: the first find_references was not complete`);
    const warm = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const t = performance.now();
      await call(client, 'find_references', refs);
      warm.push(performance.now() - t);
    }
    // The server and its children (tsserver under typescript-language-server), not the front.
    const serverTree = descendantPids(transport.pid);
    const rss = serverTree.reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0);
    const preview = [];
    for (let i = 0; i <= PREVIEW_RUNS; i++) {
      const t = performance.now();
      await call(client, 'preview_edit', { workspace_root: corpus.root, language: 'typescript', file_path: corpus.previewFile, start_line: 1, start_column: 1, end_line: 1, end_column: 1, new_text: `${corpus.comment} bench ${i}\n` });
      if (i > 0) preview.push(performance.now() - t); // the first one takes the baseline
    }
    return { server: caps.server, total: cold.total, coldMs, warmMs: median(warm), rss, processes: serverTree.length, preview: summarize(preview) };
  } finally {
    await client.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** The server by itself, no agent-lsp in between: warm references answer time (median of 5). */
async function serverAlone(corpus, choice) {
  const registry = new ServerRegistry([], { typescriptServer: choice });
  const conn = await startDirectConnection({ server: registry.forLanguage('typescript'), rootDir: corpus.root, workspaceFolders: [corpus.root], logger: createLogger({ level: 'error' }) });
  try {
    const { uri, position } = await openQueryTarget(conn, corpus);
    const ask = () => conn.request('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, { timeoutMs: 900_000 });
    await ask();
    const times = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const t = performance.now();
      await ask();
      times.push(performance.now() - t);
    }
    return median(times);
  } finally {
    await conn.shutdown();
  }
}

export async function tsServersSection(log) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-ts-'));
  try {
    const corpus = effectSources(tmp);
    const load = loadavg()[0];
    const rows = [];
    const measured = [];
    for (const { choice, name } of SERVERS) {
      log(`TypeScript servers: ${name} on ${corpus.name} — cold, warm, memory, preview_edit…`);
      const a = await throughAgentLsp(corpus, choice);
      log(`  cold ${Math.round(a.coldMs)} ms, warm ${ms(a.warmMs)}, ${mib(a.rss)}, preview_edit p50 ${ms(a.preview.p50)}; server alone…`);
      const alone = await serverAlone(corpus, choice);
      log(`  server alone warm ${ms(alone)}`);
      measured.push({ name, ...a, alone });
      rows.push(`| ${name} (\`--ts-server ${choice}\`) | ${a.server} | ${a.total} | ${(a.coldMs / 1000).toFixed(2)} s | ${ms(a.warmMs)} | ${ms(alone)} | ${mib(a.rss)} (${a.processes} process${a.processes === 1 ? '' : 'es'}) | ${ms(a.preview.p50)} (p95 ${ms(a.preview.p95)}) |`);
    }
    const [tsls, tsgo] = measured;
    const ratio = (x, y) => `${(x / y).toFixed(1)}×`;
    return `${TS_SERVERS_HEADING}

${corpus.name}, ${corpus.files} files; query \`${corpus.pattern}\` in ${corpus.file}; preview_edit inserts a comment line at the top of ${corpus.previewFile}. Each server in a fresh front of its own (\`serve --daemon never --ts-server …\`); load average ${load.toFixed(1)} at the start (the machine was shared: indicative figures).

| server | serverInfo | references | cold: spawn → first complete find_references | warm find_references (median of ${WARM_RUNS}, through agent-lsp) | warm, server alone (median of ${WARM_RUNS}) | RSS of the server's process tree after warm-up | preview_edit p50 (${PREVIEW_RUNS} runs) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

typescript-go against typescript-language-server: cold ${ratio(tsls.coldMs, tsgo.coldMs)} faster, warm ${ratio(tsls.warmMs, tsgo.warmMs)} faster (through agent-lsp), ${(tsgo.rss / tsls.rss).toFixed(2)}× the memory, preview_edit p50 ${ratio(tsls.preview.p50, tsgo.preview.p50)} faster. ${tsls.total === tsgo.total ? `Both find the same ${tsls.total} references.` : `The reference counts differ (${tsls.total} vs ${tsgo.total}).`} What typescript-go lacks: docs/typescript-go.md.
`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
