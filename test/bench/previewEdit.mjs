// Issue 5's figure: preview_edit latency for a single-file edit, against the fixed 500 ms
// quiet-window strategy (push the edit, wait until the file's diagnostics have been quiet for
// 500 ms, collect), measured side by side on the same warm server and file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { pathToUri } from '@agent-lsp/protocol';
import { ms, summarize } from './stats.mjs';

const BIN = fileURLToPath(new URL('../../bin/agent-lsp', import.meta.url));
const RUNS = 15;
const QUIET_MS = 500;

async function ours(corpus, file) {
  // Its own state home: the benchmark's audit lines and checkpoints never reach the user's.
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'never'], env: { ...process.env, AGENT_LSP_HOME: home }, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  try {
    await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: corpus.language } }, undefined, { timeout: 900_000 });
    const samples = [];
    const settledBy = new Set();
    for (let i = 0; i <= RUNS; i++) {
      const t = performance.now();
      const r = await client.callTool(
        { name: 'preview_edit', arguments: { workspace_root: corpus.root, language: corpus.language, file_path: file, start_line: 1, start_column: 1, end_line: 1, end_column: 1, new_text: `${corpus.comment} bench ${i}\n` } },
        undefined,
        { timeout: 900_000 },
      );
      if (r.isError) throw new Error(r.content[0].text);
      if (i > 0) samples.push(performance.now() - t); // the first one takes the baseline
      if (r.structuredContent?.settled_by) settledBy.add(r.structuredContent.settled_by);
    }
    return { ...summarize(samples), settledBy: [...settledBy].join(', ') };
  } finally {
    await client.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function quietWindow(corpus, file) {
  const registry = new ServerRegistry();
  const conn = await startDirectConnection({ server: registry.forLanguage(corpus.language), rootDir: corpus.root, workspaceFolders: [corpus.root], logger: createLogger({ level: 'error' }) });
  try {
    await conn.readiness.waitReady({ timeoutMs: 900_000 });
    const path = join(corpus.root, file);
    const uri = pathToUri(path);
    const text = readFileSync(path, 'utf8');
    const languageId = corpus.language === 'python' ? 'python' : 'typescript';
    conn.documents.sync(uri, languageId, text);
    let lastPush = performance.now();
    conn.diagnostics.onPush((u) => {
      if (u === uri) lastPush = performance.now();
    });
    const quiet = async () => {
      while (performance.now() - lastPush < QUIET_MS) await new Promise((r) => setTimeout(r, 10));
    };
    const samples = [];
    for (let i = 0; i <= RUNS; i++) {
      const t = performance.now();
      lastPush = t;
      conn.documents.sync(uri, languageId, `${corpus.comment} bench ${i}\n${text}`);
      await quiet();
      // collect what the server has now (pyright answers pulls; tsserver pushes)
      if (conn.supportsPullDiagnostics()) await conn.request('textDocument/diagnostic', { textDocument: { uri } });
      if (i > 0) samples.push(performance.now() - t);
      lastPush = performance.now();
      conn.documents.sync(uri, languageId, text);
      await quiet();
    }
    return summarize(samples);
  } finally {
    await conn.shutdown();
  }
}

export async function previewEditLatency(corpus, log) {
  const file = corpus.previewFile;
  log(`  preview_edit on ${file}…`);
  const a = await ours(corpus, file);
  log(`  quiet window on ${file}…`);
  const b = await quietWindow(corpus, file);
  return `| ${corpus.name} | ${file} | ${ms(a.p50)} | ${ms(a.p95)} | ${a.settledBy} | ${ms(b.p50)} | ${ms(b.p95)} | ${(a.p50 / b.p50).toFixed(2)} |`;
}
