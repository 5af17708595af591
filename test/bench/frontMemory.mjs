// A front's memory: RSS, private memory (USS) and PSS of a fresh front on a warm broker after start
// (handshake + tools/list), after its first find_references, and after 100 more tool calls, per
// variant (bundled or not, snapshot or not, node and V8 flags): `node test/bench/frontMemory.mjs`.
// Fronts are started as users start them, bin/agent-lsp run as a program (its sh part gives node
// the fronts' flags and starts it from the start-up snapshot). Prints a Markdown table.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { stopDaemons } from '@agent-lsp/broker';
import { ensureSnapshot, processMemory, programFront, snapshotsOff } from './programFront.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(REPO, 'test', 'fixtures', 'python-basic');
const MiB = 1024 * 1024;

/** RSS, its peak, private memory (USS) and PSS, MiB. */
function rss(pid) {
  const m = processMemory(pid);
  return { rss: m.rss / MiB, peak: m.peak / MiB, uss: m.uss / MiB, pss: m.pss / MiB };
}

/** The calls an agent makes, in turn: references, definition, hover, document symbols. */
const CALLS = [
  ['find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }],
  ['go_to_definition', { file_path: 'app/routes.py', position_pattern: 'return @@distance(origin' }],
  ['inspect_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }],
  ['list_symbols', { file_path: 'app/geometry.py' }],
];

async function measure(env, root) {
  const { client, pid } = await programFront(env, ['serve', '--daemon', 'always']);
  await client.listTools();
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

/** What bin/agent-lsp gives a front's node by default (AGENT_LSP_NODE_FLAGS replaces it). */
const DEFAULT_FLAGS = '--v8-pool-size=1';
const withFlags = (flags) => ({ AGENT_LSP_NODE_FLAGS: `${DEFAULT_FLAGS} ${flags}` });

export const VARIANTS = [
  { name: 'unbundled packages (AGENT_LSP_NO_BUNDLE=1)', env: { AGENT_LSP_NO_BUNDLE: '1' } },
  { name: 'the bundle with its code cache, no snapshot (AGENT_LSP_NO_SNAPSHOT=1)', env: { AGENT_LSP_NO_SNAPSHOT: '1' } },
  { name: `the default: the snapshot, node given ${DEFAULT_FLAGS}`, env: {} },
  { name: 'the snapshot, no node flags (AGENT_LSP_NODE_FLAGS= : four V8 worker threads)', env: { AGENT_LSP_NODE_FLAGS: '' } },
  { name: "the snapshot, V8's default young generation (--semi-space-growth-factor=2; the loader then sets no growth flags)", env: withFlags('--semi-space-growth-factor=2') },
  { name: "the snapshot, V8's own old-generation growth (--heap-growing-percent=0; the loader sets 50)", env: withFlags('--heap-growing-percent=0') },
  { name: 'the snapshot, --lite-mode', env: withFlags('--lite-mode --no-expose-wasm') },
  { name: 'the snapshot, --no-opt', env: withFlags('--no-opt') },
];

/** Median of `runs` fronts per variant; returns the Markdown table. */
export async function frontMemory({ runs = 3, log = () => undefined, variants = VARIANTS } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-front-memory-'));
  const root = join(tmp, 'ws');
  cpSync(FIXTURE, root, { recursive: true });
  const baseEnv = { ...process.env, AGENT_LSP_HOME: join(tmp, 'home') };
  const mib = (x) => x.toFixed(1);
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  try {
    await measure({ ...baseEnv, AGENT_LSP_NO_SNAPSHOT: '1' }, root); // starts and warms the broker
    // Each variant its own snapshot dir: a blob is built under the front's V8 flags and V8 refuses it under others.
    const envs = variants.map((v, i) => ({ ...baseEnv, AGENT_LSP_SNAPSHOT_DIR: join(tmp, `snapshot-${i}`), ...v.env }));
    for (const [i, env] of envs.entries()) if (!(await ensureSnapshot(env)) && !snapshotsOff(env)) throw new Error(`no snapshot built for "${variants[i].name}"`);
    // Rounds over the variants, so that a change of the machine's load hits them alike.
    const results = variants.map(() => []);
    for (let i = 0; i < runs; i++) for (const [j, env] of envs.entries()) results[j].push(await measure(env, root));
    const rows = [];
    for (const [j, v] of variants.entries()) {
      const pick = (f) => med(results[j].map(f));
      const all = (stage) => `${mib(pick((r) => r[stage].rss))} / ${mib(pick((r) => r[stage].uss))} / ${mib(pick((r) => r[stage].pss))}`;
      rows.push(`| ${v.name} | ${all('afterStart')} | ${all('afterFirst')} | ${all('after100')} | ${mib(pick((r) => r.after100.peak))} | ${Math.round(pick((r) => r.callsMs))} ms |`);
      log(`  ${rows.at(-1)}`);
    }
    return [
      `A front's memory on a warm broker, RSS / private (USS) / PSS, started as users start it (bin/agent-lsp run as a program; python-basic fixture; median of ${runs} fronts per row, the rows' fronts in turn; load average ${loadavg()[0].toFixed(1)}). PSS divides each shared page among the processes mapping it (node's own code with every node process on the machine, so it depends on how many run). 100 calls: find_references, go_to_definition, inspect_symbol, list_symbols in turn.`,
      '',
      '| front | after start (tools/list), MiB | after the first find_references, MiB | after 100 calls, MiB | peak RSS, MiB | the 100 calls took |',
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
