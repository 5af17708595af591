// Issue 31's Python server comparison: pyright (the default), basedpyright, pyrefly, ty and pylsp
// side by side on Django (Debian's python3-django) and the Python standard library, each in a fresh
// front of its own (`serve --daemon never --python-server …`, so the cold start is in the figure):
// cold time to the first find_references, its warm time, the RSS of the server's process tree,
// and whether its answer agrees with pyright's. The battery's correctness per server is the
// language matrix (docs/languages.md). `node test/bench/pythonServers.mjs` runs it alone.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { descendantPids, rssBytes } from '@agent-lsp/broker';
import { ServerRegistry } from '@agent-lsp/lsp';
import { pythonStdlib } from './corpora.mjs';
import { mib, ms } from './stats.mjs';
import { BIN } from './programFront.mjs';

export const PYTHON_SERVERS_HEADING = '## Python servers: pyright vs basedpyright vs pyrefly vs ty vs pylsp';

const SERVERS = ['pyright', 'basedpyright', 'pyrefly', 'ty', 'pylsp'];
const WARM_RUNS = 3;
/** A server that takes longer than this for one query is reported as timing out. */
const QUERY_TIMEOUT_MS = 240_000;
const DJANGO = '/usr/lib/python3/dist-packages/django';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function djangoCorpus(tmp) {
  if (!existsSync(DJANGO)) return undefined;
  const root = join(tmp, 'django-project');
  cpSync(DJANGO, join(root, 'django'), { recursive: true });
  return { name: `Django (${DJANGO})`, root, file: 'django/utils/functional.py', pattern: 'class @@cached_property' };
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: QUERY_TIMEOUT_MS, resetTimeoutOnProgress: false });
  if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
  return r.structuredContent;
}

async function measure(corpus, choice) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--daemon', 'never', '--python-server', choice],
    env: { ...process.env, AGENT_LSP_HOME: home },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  try {
    const refs = { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 };
    const started = await call(client, 'start_lsp', { root_dir: corpus.root, language_id: 'python' });
    const readyMs = performance.now() - t0;
    const cold = await call(client, 'find_references', refs);
    const coldMs = performance.now() - t0;
    const warm = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const t = performance.now();
      await call(client, 'find_references', refs);
      warm.push(performance.now() - t);
    }
    const tree = descendantPids(transport.pid);
    const rss = tree.reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0);
    const keys = new Set(cold.locations.map((l) => `${l.file}:${l.line}:${l.column}`));
    return { version: started.servers?.[0]?.version, readyMs, coldMs, warmMs: median(warm), rss, total: cold.total, complete: cold.complete, keys };
  } catch (err) {
    return { error: err.message.split('\n')[0].slice(0, 160) };
  } finally {
    await client.close().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}

function agreement(result, pyright) {
  if (!result.keys || !pyright?.keys) return '—';
  const missing = [...pyright.keys].filter((k) => !result.keys.has(k)).length;
  const extra = [...result.keys].filter((k) => !pyright.keys.has(k)).length;
  return missing === 0 && extra === 0 ? 'same as pyright' : `${missing} of pyright's missing, ${extra} others`;
}

export async function pythonServersSection(log) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-py-'));
  const registry = new ServerRegistry();
  try {
    const stdlib = pythonStdlib(tmp);
    const corpora = [djangoCorpus(tmp), { ...stdlib, file: stdlib.file, pattern: stdlib.pattern }].filter(Boolean);
    const load = loadavg()[0];
    const sections = [];
    for (const corpus of corpora) {
      const rows = [];
      let pyright;
      for (const choice of SERVERS) {
        if (!registry.forLanguage(choice).resolve(corpus.root)) {
          rows.push(`| ${choice} | not run (not installed) | | | | | | |`);
          continue;
        }
        log(`Python servers: ${choice} on ${corpus.name}…`);
        const r = await measure(corpus, choice);
        if (choice === 'pyright') pyright = r;
        log(r.error ? `  failed: ${r.error}` : `  ready ${Math.round(r.readyMs)} ms, cold ${Math.round(r.coldMs)} ms, warm ${ms(r.warmMs)}, ${mib(r.rss)}, ${r.total} references`);
        rows.push(
          r.error
            ? `| ${choice} | failed: ${r.error.replace(/\|/g, '/')} | | | | | | |`
            : `| ${choice} | ${r.version ?? '?'} | ${(r.readyMs / 1000).toFixed(1)} s | ${(r.coldMs / 1000).toFixed(1)} s | ${ms(r.warmMs)} | ${mib(r.rss)} | ${r.total}${r.complete ? '' : ' (partial)'} | ${agreement(r, pyright)} |`,
        );
      }
      sections.push(`### ${corpus.name}

Query: find_references of \`${corpus.pattern}\` in ${corpus.file}.

| server | version | ready (spawn → start_lsp ready) | cold (→ first find_references) | warm find_references (median of ${WARM_RUNS}) | RSS of the server's process tree | references | against pyright |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`);
    }
    return `${PYTHON_SERVERS_HEADING}

Each server in a fresh front of its own (\`serve --daemon never --python-server …\`), one after the other; load average ${load.toFixed(1)} at the start (the machine was shared by other work: indicative figures). Which battery items each server passes or lacks: docs/languages.md.

${sections.join('\n\n')}
`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(await pythonServersSection((s) => process.stderr.write(s + '\n')));
}
