// Where a fresh front's time goes, from process spawn to its first complete find_references
// answer on a warm broker, beside the language server's own warm answer to the same request:
// `node test/bench/startup.mjs [--runs N] [--corpus basic|stdlib|effect]... [--no-bundle] [--no-code-cache] [--no-snapshot]`.
// Fronts are started as npm's bin link starts them: bin/agent-lsp run as a program (its sh part
// starts node from the start-up snapshot once the cold front has built it).
// Prints one table: a column per corpus (median of N fresh fronts). The front writes timing marks
// to stderr when AGENT_LSP_STARTUP_TRACE=1 (packages/protocol/src/startupMarks.ts); the client
// side times the rest.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { effectSources, openQueryTarget, pythonStdlib } from './corpora.mjs';
import { BIN, readMarks, snapshotsOff, waitForSnapshot } from './programFront.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const now = () => performance.timeOrigin + performance.now();
/** Every reference in one page: the answer is complete, as in the cold/warm table. */
const LIMIT = 100_000;

/** The python-basic fixture as a corpus (cheap: the table's first column). */
function pythonBasic(tmp) {
  const root = join(tmp, 'python-basic');
  cpSync(join(REPO, 'test', 'fixtures', 'python-basic'), root, { recursive: true });
  return { name: 'python-basic fixture', short: 'python-basic', language: 'python', root, file: 'app/geometry.py', pattern: 'def @@distance(' };
}

export const CORPORA = {
  basic: pythonBasic,
  stdlib: (tmp) => ({ ...pythonStdlib(tmp), short: 'Python stdlib' }),
  effect: (tmp) => ({ ...effectSources(tmp), short: 'effect' }),
};

/** The stages, in order: [label, mark or client event that ends it]. */
export const STAGES = [
  ['node start (spawn → first line of bin/agent-lsp, or the snapshot\'s main: sh, node, deserializing the snapshot)', 'entry'],
  ['load the CLI (commander, lsp, protocol; in the snapshot)', 'cli loaded'],
  ['load the server (MCP SDK, tools, workspace, broker client)', 'server modules loaded'],
  ['create the MCP server, listen on stdio', 'stdio listening'],
  ['MCP handshake (initialize, initialized)', 'client connected'],
  ['tools/list: the request, up to the server\'s answer', 'tools/list served'],
  ['tools/list: serialize, send; the client parses it, compiles output schemas', 'tools listed'],
  ['start_lsp (sets the root, detects languages; no server yet)', 'start_lsp answered'],
  ['find_references: attach to the broker, fresh section, open the document, ready?', 'find_references document ready'],
  ['find_references: the request (broker hop + server)', 'find_references answer received'],
  ['find_references: convert locations, page', 'find_references converted'],
  ['find_references: text, serialize, send, client parse', 'find_references answered'],
];
const TOOLS_LIST_CLIENT = STAGES.findIndex(([, mark]) => mark === 'tools listed');

/** One fresh front: the time of every stage (ms), the total, and the broker attach; start_lsp names `languageId` if given. */
export async function freshFront(env, corpus, { languageId } = {}) {
  const marks = new Map();
  const t0 = now();
  const transport = new StdioClientTransport({ command: BIN, args: ['serve', '--daemon', 'always'], env: { ...env, AGENT_LSP_STARTUP_TRACE: '1' }, stderr: 'pipe' });
  readMarks(transport.stderr, (name, ms) => {
    if (!marks.has(name)) marks.set(name, ms);
  });
  const client = new Client({ name: 'startup-bench', version: '0' });
  await client.connect(transport);
  marks.set('client connected', now());
  await client.listTools();
  marks.set('tools listed', now());
  const long = { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined };
  const started = await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, ...(languageId ? { language_id: languageId } : {}) } }, undefined, long);
  marks.set('start_lsp answered', now());
  const r = await client.callTool({ name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern, limit: LIMIT } }, undefined, long);
  marks.set('find_references answered', now());
  const cpu = cpuMs(transport.pid);
  await client.close();
  if (started.isError || r.isError || !r.structuredContent?.complete) throw new Error(`bad answer: ${JSON.stringify(r.content).slice(0, 400)}`);
  const stages = [];
  let previous = t0;
  for (const [, mark] of STAGES) {
    const at = marks.get(mark);
    if (at === undefined) throw new Error(`no mark "${mark}" (is the front built with the marks?)`);
    stages.push(at - previous);
    previous = at;
  }
  // Part of the first query's first stage (the connection starts on first use of the language).
  const attach = marks.get('broker attached') - marks.get('broker attach');
  return { stages, total: previous - t0, attach, cpu, references: r.structuredContent.total, fromSnapshot: marks.has('started from the snapshot') };
}

/** CPU time (user + system) a process has used so far, from /proc (NaN elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux Node supports. */
const CLOCK_TICKS = 100;

/** The server by itself, no agent-lsp in between: its warm references answer (median of 5). */
export async function serverWarm(corpus) {
  const registry = new ServerRegistry();
  const conn = await startDirectConnection({ server: registry.forLanguage(corpus.language), rootDir: corpus.root, workspaceFolders: [corpus.root], logger: createLogger({ level: 'error' }) });
  try {
    const { uri, position } = await openQueryTarget(conn, corpus);
    const ask = () => conn.request('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, { timeoutMs: 900_000 });
    await ask();
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await ask();
      times.push(performance.now() - t);
    }
    return median(times);
  } finally {
    await conn.shutdown();
  }
}

/** Spawn-to-exit of `node -e 0`: the floor any Node front pays. */
function bareNodeMs() {
  const t = now();
  spawnSync(process.execPath, ['-e', '0']);
  return now() - t;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

/** One corpus: a cold front warms the broker, then `runs` fresh fronts; then the server alone. */
async function measureCorpus(corpus, { runs, log, env: extraEnv }) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-startup-home-'));
  const snapshotDir = join(home, 'snapshot');
  const env = { ...process.env, ...extraEnv, AGENT_LSP_HOME: home, AGENT_LSP_SNAPSHOT_DIR: snapshotDir };
  const results = [];
  try {
    log(`startup, ${corpus.short}: cold front (spawns the broker, the server indexes)…`);
    // On a loaded machine the cold server may not answer within agent-lsp's 120 s request
    // timeout; it goes on indexing, and a new front asks again.
    let cold;
    for (let attempt = 1; !cold; attempt++) {
      cold = await freshFront(env, corpus).catch((err) => {
        if (attempt >= 5) throw err;
        log(`  cold front: ${err.message.slice(0, 160)}; again…`);
        return undefined;
      });
    }
    log(`  cold ${Math.round(cold.total)} ms, ${cold.references} references`);
    // The cold front builds the start-up snapshot in the background after its answer.
    if (!snapshotsOff(env)) log(`  snapshot ${(await waitForSnapshot(snapshotDir)) ? 'built' : 'NOT built'}`);
    for (let i = 0; i < runs; i++) {
      results.push(await freshFront(env, corpus));
      log(`  fresh front ${i + 1}/${runs}: ${Math.round(results.at(-1).total)} ms${results.at(-1).fromSnapshot ? ', from the snapshot' : ''}`);
    }
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(home, { recursive: true, force: true });
  }
  log(`  the server alone (cold, then 5 warm answers)…`);
  const server = await serverWarm(corpus);
  log(`  server warm ${Math.round(server)} ms`);
  return { corpus, results, server };
}

/**
 * Runs the breakdown on the given corpora (names of CORPORA); returns the Markdown table (also
 * used by run.mjs): a column per corpus, medians, then the total beside the server's own answer.
 */
export async function startupBreakdown({ runs = 5, corpora = ['basic', 'stdlib', 'effect'], log = () => undefined, env = {}, label = '' } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-startup-'));
  try {
    const measured = [];
    for (const name of corpora) measured.push(await measureCorpus(CORPORA[name](tmp), { runs, log, env }));
    const nodes = Array.from({ length: 5 }, bareNodeMs);
    const cell = (f) => measured.map((m) => ms(median(m.results.map(f)))).join(' | ');
    const rows = STAGES.map(([stage], i) => `| ${stage} | ${cell((r) => r.stages[i])} |`);
    const totals = measured.map((m) => median(m.results.map((r) => r.total)));
    const range = (m) => `${Math.round(Math.min(...m.results.map((r) => r.total)))}–${Math.round(Math.max(...m.results.map((r) => r.total)))}`;
    const withoutList = measured.map((m) => median(m.results.map((r) => r.total - r.stages[TOOLS_LIST_CLIENT])));
    const row = (label, xs) => `| ${label} | ${xs.join(' | ')} |`;
    return [
      `Fresh front on a warm broker, \`find_references\` (every reference, one page) from process spawn, median of ${runs} fronts per corpus, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores${label}:`,
      '',
      `| stage | ${measured.map((m) => m.corpus.short).join(' | ')} |`,
      `| --- | ${measured.map(() => '---').join(' | ')} |`,
      row('query', measured.map((m) => `\`${m.corpus.pattern}\` in ${m.corpus.file}, ${m.results[0].references} refs`)),
      ...rows,
      row('**spawn → first complete answer** (min–max)', measured.map((m, i) => `**${ms(totals[i])}** (${range(m)})`)),
      row('of which: broker attach + initialize (socket, initialize through the broker)', measured.map((m) => ms(median(m.results.map((r) => r.attach))))),
      row('the front\'s CPU time (user + system) up to the answer', measured.map((m) => ms(median(m.results.map((r) => r.cpu))))),
      row('spawn → answer without the client\'s output-schema compile (a client that skips tools/list or validation)', withoutList.map(ms)),
      row('**the server\'s own warm answer** (direct, median of 5)', measured.map((m) => `**${ms(m.server)}**`)),
      row('**gap: spawn → answer minus the server\'s answer** (target ≤ 150 ms)', measured.map((m, i) => `**${ms(totals[i] - m.server)}**`)),
      row('gap without the client\'s output-schema compile', measured.map((m, i) => ms(withoutList[i] - m.server))),
      row('for scale: `node -e 0`, spawn → exit', measured.map(() => ms(median(nodes)))),
      '',
    ].join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const runs = Number(arg('--runs') ?? 5);
  const corpora = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--corpus' ? [a] : []));
  const env = {
    ...(process.argv.includes('--no-bundle') ? { AGENT_LSP_NO_BUNDLE: '1' } : {}),
    ...(process.argv.includes('--no-code-cache') ? { AGENT_LSP_NO_CODE_CACHE: '1' } : {}),
    ...(process.argv.includes('--no-snapshot') ? { AGENT_LSP_NO_SNAPSHOT: '1' } : {}),
  };
  process.stdout.write(await startupBreakdown({ runs, env, ...(corpora.length ? { corpora } : {}), log: (s) => process.stderr.write(s + '\n') }));
}

export const STARTUP_HEADING = "## A fresh front's start-up and memory";

/** The docs/benchmarks.md section: the start-up breakdown on three corpora, the levers on the fixture, and a front's memory. */
export async function startupSection(log) {
  const { frontMemory, VARIANTS } = await import('./frontMemory.mjs');
  const corpora = await startupBreakdown({ runs: 3, log });
  log(corpora);
  const noSnapshot = await startupBreakdown({ runs: 3, corpora: ['basic'], log, env: { AGENT_LSP_NO_SNAPSHOT: '1' }, label: ', the bundle with its code cache, without the start-up snapshot (AGENT_LSP_NO_SNAPSHOT=1)' });
  log(noSnapshot);
  const noCache = await startupBreakdown({ runs: 3, corpora: ['basic'], log, env: { AGENT_LSP_NO_SNAPSHOT: '1', AGENT_LSP_NO_CODE_CACHE: '1' }, label: ', the bundle without its code cache (AGENT_LSP_NO_SNAPSHOT=1 AGENT_LSP_NO_CODE_CACHE=1)' });
  log(noCache);
  const unbundled = await startupBreakdown({ runs: 3, corpora: ['basic'], log, env: { AGENT_LSP_NO_BUNDLE: '1' }, label: ', unbundled packages (AGENT_LSP_NO_BUNDLE=1)' });
  log(unbundled);
  const noFlags = await startupBreakdown({ runs: 3, corpora: ['basic'], log, env: { AGENT_LSP_NODE_FLAGS: '' }, label: ", from the snapshot, node without the fronts' flags (AGENT_LSP_NODE_FLAGS= : four V8 worker threads)" });
  log(noFlags);
  const memory = await frontMemory({ runs: 2, log, variants: VARIANTS });
  log(memory);
  return `${STARTUP_HEADING}

Run on ${new Date().toISOString().slice(0, 10)}. What an agent session pays before its first answer: a fresh front process
(\`bin/agent-lsp\` run as a program) attaching to an already warm broker, from spawn to the first complete
\`find_references\` answer, beside the language server's own warm answer to the same request
(target, issue 19: within 150 ms of it). Stages come from marks the front writes with
AGENT_LSP_STARTUP_TRACE=1 (test/bench/startup.mjs); "tools/list: … client" is the MCP SDK client's
own work (it compiles every tool's output schema with ajv), which a real agent pays too.
\`pnpm build\` bundles the front with esbuild into one CommonJS file, dist/agent-lsp.cjs, which its
loader dist/agent-lsp.mjs runs through \`vm.Script\` with V8's code cache (Node 20 has no compile
cache for modules; scripts/bundle.mjs, scripts/bundleLoader.mjs). The cache is made by the first
front after its first query's answer, beside the bundle (else in the state dir), named by the
bundle's hash, Node's version and V8's flags. Fronts are started as npm's bin link starts them,
bin/agent-lsp run as a program: its sh part gives node the fronts' flags (\`--v8-pool-size=1\`;
AGENT_LSP_NODE_FLAGS replaces them) and starts it from a start-up snapshot
(\`node --snapshot-blob\`) of the bundle with the server's modules loaded and one MCP server created
and closed, built under those flags in the background by the first front after its first answer for
this bundle, install, node binary and flags (scripts/snapshotEntry.cjs, scripts/snapshotBuild.mjs);
here the cold front builds it.

${corpora}
${noSnapshot}
${SNAPSHOT_FINDINGS}
${BEFORE}
${noCache}
${unbundled}
${noFlags}
${FINDINGS}
${memory}
${MEMORY_FINDINGS}
`;
}

/**
 * The same script on the front as it was before the code cache (commit 93194f6: the ES module
 * bundle with chunks), kept for comparison: one run, so the figures of one row compare only
 * under the same load; the front's CPU time compares best.
 */
const BEFORE = `Before (commit 93194f6, the ES module bundle in chunks without code cache; same script, 2026-11-23, 3 fronts per corpus, load average 18.0 on 2 cores):

| stage | python-basic | Python stdlib | effect |
| --- | --- | --- | --- |
| query | \`def @@distance(\` in app/geometry.py, 6 refs | \`srcname = os.path.@@join(src, srcentry.name)\` in shutil.py, 1723 refs | \`export const @@dual\` in src/Function.ts, 1763 refs |
| node start (spawn → first line of bin/agent-lsp) | 231.6 ms | 449.1 ms | 520.0 ms |
| load the CLI (commander, lsp, protocol) | 109.1 ms | 274.1 ms | 185.1 ms |
| load the server (MCP SDK, tools, workspace, broker client) | 389.8 ms | 1122.6 ms | 612.6 ms |
| create the MCP server, listen on stdio | 71.7 ms | 122.9 ms | 61.1 ms |
| MCP handshake (initialize, initialized) | 102.6 ms | 212.4 ms | 120.7 ms |
| tools/list: the request, up to the server's answer | 6.6 ms | 45.1 ms | 22.5 ms |
| tools/list: serialize, send; the client parses it, compiles output schemas | 630.8 ms | 1284.3 ms | 1046.7 ms |
| start_lsp (sets the root, detects languages; no server yet) | 58.5 ms | 250.2 ms | 204.8 ms |
| find_references: attach to the broker, fresh section, open the document, ready? | 41.0 ms | 111.2 ms | 34.5 ms |
| find_references: the request (broker hop + server) | 33.2 ms | 14845.9 ms | 862.0 ms |
| find_references: convert locations, page | 1.3 ms | 542.3 ms | 264.5 ms |
| find_references: text, serialize, send, client parse | 1.6 ms | 162.6 ms | 117.5 ms |
| **spawn → first complete answer** (min–max) | **1766.5 ms** (1350–2187) | **17089.9 ms** (11698–28696) | **3968.7 ms** (3214–6850) |
| of which: broker attach + initialize (socket, initialize through the broker) | 21.4 ms | 75.0 ms | 24.1 ms |
| the front's CPU time (user + system) up to the answer | 380.0 ms | 1370.0 ms | 630.0 ms |
| spawn → answer without the client's output-schema compile (a client that skips tools/list or validation) | 1135.7 ms | 16781.0 ms | 2921.9 ms |
| **the server's own warm answer** (direct, median of 5) | **16.0 ms** | **5938.0 ms** | **786.9 ms** |
| **gap: spawn → answer minus the server's answer** (target ≤ 150 ms) | **1750.4 ms** | **11151.9 ms** | **3181.7 ms** |
| gap without the client's output-schema compile | 1119.7 ms | 10843.0 ms | 2135.0 ms |
| for scale: \`node -e 0\`, spawn → exit | 328.4 ms | 328.4 ms | 328.4 ms |
`;

/** The snapshot's measurements while it was built (2026-11-23, a loaded machine: CPU time compares best). */
const SNAPSHOT_FINDINGS = `The start-up snapshot, measured while it was built (load average 8–11 on 2 cores, so wall times
are noisy; the front's CPU time compares best): spawn → "MCP server listening on stdio" took 190–260 ms
of the front's CPU from the bundle with its code cache, and 120–140 ms from the snapshot; on the
fixture, spawn → first find_references answer 310 → 190 ms of CPU and 632 → 346 ms wall (median of
5, load 8). A snapshot of the CLI alone (the server's modules not loaded) saved nothing over the
code cache (200–250 ms): the time is in running the server modules' top-level code (the MCP SDK,
the tools' zod schemas), which the snapshot does once, at build time. Creating one MCP server in the
builder compiles what a front runs to create its own: "create the MCP server" went from ~40 ms to
~11 ms from the snapshot. The blob is ~12 MB (~1 s of CPU to build, once per bundle, install and node
binary). Node 20's builder lacks V8's change-array-by-copy methods (node:http calls toSorted as it
loads: the HTTP server module now loads node:http only for --http), cannot hold signal handles
(proper-lockfile's signal-exit listeners are taken out before the heap is written and put back in
each front) and freezes what modules read at load (the start-up marks and the Python cache dir now
read the environment when used).
`;

/** What the figures above say (written from the runs of 2026-11-23; see the tables for this run's). */
const FINDINGS = `What each lever bought, measured while the machine was shared and loaded (load average 15–20 on 2
cores, like the "Before" table; this run's tables above are from a quiet machine): the front's CPU
time to the answer compares best. Before → after: python-basic 380 → 260 ms, the stdlib 1370 → 1070 ms, effect 630 → 500 ms. On the fixture,
measured side by side: the ES module bundle in chunks 430 ms, the CommonJS bundle without cache
360 ms, with the code cache 260 ms (parsing and compiling 1.5 MB of JavaScript became a ~13 ms
deserialization of a 2.2 MB cache). Loading the HTTP transport (hono, undici, http2) only for
\`--http\` took ~15 ms off every stdio front. Converting 1,763 references (effect) cost 116 ms of
CPU and now 64 ms: each file's name is resolved once per answer instead of once per reference,
files are read without a sha256 of each, and lines without surrogate pairs are not walked code
point by code point. start_lsp's language detection reads a level's directories 16 at a time
instead of one after another (its stage is still 140–200 ms on the big trees under this load).

What keeps a fresh front from the 150 ms target:
- node's own start (the \`node -e 0\` row: ~40–80 ms on a quiet machine) and, from the snapshot,
  deserializing a bigger heap: V8 takes 47–54 ms for ours (an isolate of 3.3 MB and a context of
  2.9 MB, \`node --profile-deserialization\`) against 13 ms for node's own, plus reading the 10 MB
  blob and ~2.6 ms verifying its checksum (\`--no-verify-snapshot-checksum\` does not turn that
  off). bin/agent-lsp's sh part (readlink, ls, reads) costs ~3 ms: \`bin/agent-lsp --version\` from
  the snapshot 109–114 ms against 106–113 ms for the same \`node --snapshot-blob\` command, and
  \`node -e 0\` 70–86 ms (quiet machine, 5 runs each). The heap holds ~12.5 MB of live objects at
  start (code 2.7 MB, strings 2.4 MB of which the bundle's source 1.35 MB, object shapes,
  closures, modules' export objects): no single part a front could drop;
- running the modules' top-level code, mostly the MCP SDK's and the tools' zod schemas (the code
  cache removes compiling, not running them);
- the client's compile of the 68 tools' output schemas (ajv, in the MCP SDK client: ~2,000 schema
  nodes; its cost is linear in them, and descriptions or \`additionalProperties\` make no
  difference; the not-ready/inferred-root envelope every tool's output repeats is 600 of them);
- no longer: a file watcher in every front. The prefetch cache once put an inotify watch on every
  file and directory of the workspace at a front's first query (0.8–1.8 s to the first warm answer
  on a 1,681-file tree, 18 MiB more per front); its answers are now keyed by the broker's own count
  of changes (\`$/agentLsp/epoch\`), and a front in daemon mode watches nothing.

Not ours either: where the "the request" stage sits above the server's own warm answer on the big
corpora (the first table), that is the server's own spread, the two measured at different moments. The same references request side by side, direct and through
the broker, 6 rounds each after a warm-up (2026-11-27, quiet machine): stdlib (1,723 locations)
1354 against 1358 ms at p50, each path ranging over 926–1563 ms; effect (1,763 locations) 113.6
against 111.3 ms.

Fronts registered by \`agent-lsp init\` (and the README's client snippets) now start as in the first
table: init writes bin/agent-lsp as the command, run as a program, with its node in
\`AGENT_LSP_NODE\`. Before, it wrote \`node bin/agent-lsp\`, which skips the sh part and so the
snapshot and the fronts' node flags: the AGENT_LSP_NO_SNAPSHOT table's front (the code cache only)
spends ~30 ms more CPU to its first answer; on this quiet run the wall times of the two are within
their spread, under load (average 6, the previous run) it answered 847 against 537 ms.
`;

const MEMORY_FINDINGS = `The front is a relay; what it holds is node itself, the loaded code, and the MCP SDK's and the
tools' zod schemas. Before (commit 93194f6, same script, load average 14.7): the bundle 77.7 MiB
after start, 80.9 after the first find_references, 89.5 after 100 calls. V8's young generation
growing to 16 MiB semi-spaces was the largest avoidable part: \`--max-semi-space-size\` works only
on node's command line, but \`--semi-space-growth-factor=1\` set at run time keeps the young
generation at its initial size, so the bundle's loader sets it in every front and broker (not when
node was given semi-space flags): ~12–20 MiB less in a front, ~5 MiB of a broker's private memory
(four fronts on effect's sources: 22–31 MiB, median ~29, with V8's default; 19–24, median ~24,
with it), the calls as fast. It costs ~30 ms of CPU at a front's start (more scavenges of the
start's allocations); set only after the first answer it saved nothing.

Until issue 19's third round this table started fronts as \`node bin/agent-lsp\`, which skips the sh
part (no snapshot, no node flags); now they start as users start them. From the snapshot a front
holds ~6 MiB more private memory than from the code cache (26.6 against 32.9 MiB after the first
find_references): node keeps the blob it read (its V8 part, 6.9 MB, is one anonymous mapping of the
front), while node's own built-in snapshot is part of its binary, shared by every node process. An
idle node (\`node -e 'setTimeout(…)'\` beside another node process) holds 39.5 MiB RSS and 6.2 MiB
private. A full garbage collection after the calls frees no RSS (V8 keeps its pages).

Node flags bin/agent-lsp can give (AGENT_LSP_NODE_FLAGS; V8 flags need a blob built with them,
which the key and the builder see to), measured side by side (python-basic, the rows above) and on
effect's sources (20 calls, half of them find_references with 1,763 locations, median of 3):
- \`--v8-pool-size=1\` (adopted): one V8 worker thread instead of four, so fewer threads and malloc
  arenas: ~2–3 MiB less private memory after 100 calls (37.1–37.9 → 34.9–35.2 MiB in three runs),
  ~0.3 MiB after the first answer, the calls as fast (effect: 549 against 528 ms, within the noise);
- \`--lite-mode\` (and \`--no-expose-wasm\`, else V8 warns on stderr at every start): ~6 MiB less
  after 100 calls, ~1 MiB after the first answer, but no optimizing compiler: effect's calls took
  1248 against 405 ms (converting 1,763 locations is the front's hot loop), so not adopted;
- \`--no-opt\`: ~4 MiB less after 100 calls, effect's calls 908 against 405 ms; with
  \`--no-sparkplug\` 1105 ms: not adopted;
- \`--optimize-for-size\`, \`--single-threaded-gc\`, \`--single-threaded\`, MALLOC_ARENA_MAX=1 or 2:
  within the noise of \`--v8-pool-size=1\`; \`--max-semi-space-size=1\`: within the noise of no
  flag (the loader's growth factor already keeps the young generation at its initial size);
  \`--max-old-space-size\` caps the heap (a front reaching it dies) rather than shrinking it, not
  measured.
`;
