// The answer cache (export_cache / import_cache): a teammate's first find_references, answered from
// an imported cache in a fresh home with no broker, against the cold answer it replaces, and the
// cost of keying on the workspace's state (hashing every file once, then a stat of each per call).
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { withHome } from './benchHome.mjs';
import { BIN } from './programFront.mjs';

const STATE = new URL('../../packages/tools/dist/answerCache/workspaceState.js', import.meta.url);

/** A fresh front in daemon mode: `steps(call)` runs its tool calls; returns their answers and the time from spawn. */
async function front(env, steps) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'always'], env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  const call = async (name, args) => {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined });
    if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
    return { ...r.structuredContent, callMs: performance.now() - t };
  };
  try {
    const answers = await steps(call);
    return { answers, processMs: performance.now() - t0 };
  } finally {
    await client.close();
  }
}

export async function answerCacheRow(corpus, tmp, log) {
  const artifact = join(mkdtempSync(join(tmp, 'answers-')), 'cache.json.gz');
  const query = { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 };
  log(`${corpus.name}: cold, then export…`);
  const cold = await withHome((env) =>
    front({ ...env, AGENT_LSP_ANSWER_CACHE: 'on' }, async (call) => {
      await call('start_lsp', { root_dir: corpus.root });
      const refs = await call('find_references', query);
      const exported = await call('export_cache', { dest_path: artifact });
      return { refs, exported };
    }),
  );
  log(`  cold ${Math.round(cold.processMs)} ms; a fresh home imports it…`);
  const warm = await withHome((env) =>
    front(env, async (call) => {
      await call('start_lsp', { root_dir: corpus.root });
      const imported = await call('import_cache', { src_path: artifact });
      const refs = await call('find_references', query);
      return { imported, refs };
    }),
  );
  if (!warm.answers.refs.from_cache) throw new Error(`${corpus.name}: the imported answer was not served from the cache`);
  if (JSON.stringify(warm.answers.refs.locations) !== JSON.stringify(cold.answers.refs.locations)) throw new Error(`${corpus.name}: the cached answer differs from the live one`);
  const { workspaceState } = await import(STATE.href);
  const t1 = performance.now();
  const state = await workspaceState(corpus.root);
  const firstMs = performance.now() - t1;
  const t2 = performance.now();
  await workspaceState(corpus.root);
  const againMs = performance.now() - t2;
  log(`  from cache ${Math.round(warm.processMs)} ms; state of ${state.files} files: ${Math.round(firstMs)} ms hashed, ${Math.round(againMs)} ms stat'd`);
  return { corpus, cold, warm, files: state.files, firstMs, againMs };
}

export const ANSWER_CACHE_HEADING = '## The answer cache: an imported `find_references` answer vs cold';

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const m = (ms) => `${Math.round(ms)} ms`;

export function answerCacheSection(rows) {
  const lines = rows.map(({ corpus, cold, warm, files, firstMs, againMs, error }) =>
    error
      ? `| ${corpus.name} | not measured: ${error.replace(/\|/g, '/')} | | | | | | | |`
      : `| ${corpus.name} | ${files} | ${cold.answers.refs.total} | ${s(cold.processMs)} | ${m(warm.processMs)} | ${m(warm.answers.refs.callMs)} | ${(cold.processMs / warm.processMs).toFixed(1)}× | ${m(firstMs)} | ${m(againMs)} |`,
  );
  return `${ANSWER_CACHE_HEADING}

**Cold**: a fresh home and front in daemon mode (it spawns the broker, the server indexes), from
process spawn to the complete \`find_references\` answer, the cache on (AGENT_LSP_ANSWER_CACHE=on);
the answer is then exported with \`export_cache\`. **From cache**: another fresh home with no broker,
as a teammate's machine: a fresh front calls \`start_lsp\`, \`import_cache\` and the same
\`find_references\`, from process spawn to the answer, which is checked to be served from the cache
and equal to the cold one. **State**: the workspace state every cached answer is keyed on, taken in
this process: the first time (every file read and hashed) and again (a stat of each file).

| corpus | files hashed | references | cold | from cache (process) | from cache (find_references call) | cold / from cache | state, first | state, again |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}
`;
}
