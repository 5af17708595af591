// A front's memory: RSS of a fresh front on a warm broker after start (handshake + tools/list),
// after its first find_references, and after 100 more tool calls, per variant (bundled or not, V8
// flags): `node test/bench/frontMemory.mjs`. Prints a Markdown table.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'bin', 'agent-lsp');
const FIXTURE = join(REPO, 'test', 'fixtures', 'python-basic');

/** Resident set, its peak and the private part (USS: what this process alone holds), MiB, from /proc. */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kib = (text, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kib(status, 'VmRSS') / 1024, peak: kib(status, 'VmHWM') / 1024, uss: (kib(rollup, 'Private_Clean') + kib(rollup, 'Private_Dirty')) / 1024 };
}

/** The calls an agent makes, in turn: references, definition, hover, document symbols. */
const CALLS = [
  ['find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }],
  ['go_to_definition', { file_path: 'app/routes.py', position_pattern: 'return @@distance(origin' }],
  ['inspect_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }],
  ['list_symbols', { file_path: 'app/geometry.py' }],
];

async function measure(env, root, nodeArgs) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, BIN, 'serve', '--daemon', 'always'], env, stderr: 'ignore' });
  const client = new Client({ name: 'memory-bench', version: '0' });
  await client.connect(transport);
  await client.listTools();
  const pid = transport.pid;
  await new Promise((r) => setTimeout(r, 300));
  const afterStart = rss(pid);
  await client.callTool({ name: 'start_lsp', arguments: { root_dir: root } });
  const first = await client.callTool({ name: 'find_references', arguments: CALLS[0][1] });
  if (first.isError) throw new Error(first.content[0].text);
  const afterFirst = rss(pid);
  const t = performance.now();
  for (let i = 0; i < 100; i++) {
    const [name, args] = CALLS[i % CALLS.length];
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
  }
  const callsMs = performance.now() - t;
  await new Promise((r) => setTimeout(r, 300));
  const after100 = rss(pid);
  await client.close();
  return { afterStart, afterFirst, after100, callsMs };
}

export const VARIANTS = [
  { name: 'unbundled packages', env: { AGENT_LSP_NO_BUNDLE: '1' }, nodeArgs: [] },
  { name: 'bundle without code cache (AGENT_LSP_NO_CODE_CACHE=1)', env: { AGENT_LSP_NO_CODE_CACHE: '1' }, nodeArgs: [] },
  { name: 'bundle with code cache, V8\'s default young generation (--semi-space-growth-factor=2)', env: {}, nodeArgs: ['--semi-space-growth-factor=2'] },
  { name: 'bundle with code cache, young generation kept small (the default: the loader sets --semi-space-growth-factor=1)', env: {}, nodeArgs: [] },
  { name: 'the default, but V8\'s own old-generation growth (--heap-growing-percent=0; the loader sets 50)', env: {}, nodeArgs: ['--heap-growing-percent=0'] },
  { name: 'the default, --lite-mode', env: {}, nodeArgs: ['--lite-mode'] },
];

/** Median of `runs` fronts per variant; returns the Markdown table. */
export async function frontMemory({ runs = 3, log = () => undefined, variants = VARIANTS } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-front-memory-'));
  const root = join(tmp, 'ws');
  cpSync(FIXTURE, root, { recursive: true });
  const baseEnv = { ...process.env, AGENT_LSP_HOME: join(tmp, 'home') };
  const mib = (x) => `${x.toFixed(1)} MiB`;
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  try {
    await measure(baseEnv, root, []); // starts and warms the broker
    const rows = [];
    for (const v of variants) {
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await measure({ ...baseEnv, ...v.env }, root, v.nodeArgs));
      const pick = (f) => med(results.map(f));
      const both = (stage) => `${mib(pick((r) => r[stage].rss))} (${mib(pick((r) => r[stage].uss))})`;
      rows.push(`| ${v.name} | ${both('afterStart')} | ${both('afterFirst')} | ${both('after100')} | ${mib(pick((r) => r.after100.peak))} | ${Math.round(pick((r) => r.callsMs))} ms |`);
      log(`  ${rows.at(-1)}`);
    }
    return [
      `A front's RSS and in brackets its private memory (USS) on a warm broker (python-basic fixture; median of ${runs} fronts per row; load average ${loadavg()[0].toFixed(1)}). 100 calls: find_references, go_to_definition, inspect_symbol, list_symbols in turn.`,
      '',
      '| front | after start (tools/list) | after the first find_references | after 100 calls | peak | the 100 calls took |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n');
  } finally {
    await stopDaemons({ all: true, force: true }, baseEnv);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(await frontMemory({ log: (s) => process.stderr.write(s + '\n') }));
}
