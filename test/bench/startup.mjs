// Where a fresh front's time goes, from process spawn to its first complete find_references
// answer on a warm broker: `node test/bench/startup.mjs [--runs N] [--no-bundle]`. Prints a table
// (median, min and max of N fresh fronts). The front writes timing marks to stderr when
// AGENT_LSP_STARTUP_TRACE=1 (packages/protocol/src/startupMarks.ts); the client side times the rest.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'bin', 'agent-lsp');
const FIXTURE = join(REPO, 'test', 'fixtures', 'python-basic');
const QUERY = { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' };
const now = () => performance.timeOrigin + performance.now();

/** The stages, in order: [label, mark or client event that ends it]. */
const STAGES = [
  ['node start (spawn → first line of bin/agent-lsp)', 'entry'],
  ['load the CLI (commander, lsp, protocol)', 'cli loaded'],
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

/** One fresh front: the absolute time of every stage end. */
async function freshFront(env, root) {
  const marks = new Map();
  const t0 = now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'always'], env: { ...env, AGENT_LSP_STARTUP_TRACE: '1' }, stderr: 'pipe' });
  let buffered = '';
  transport.stderr?.on('data', (chunk) => {
    buffered += chunk.toString();
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const m = /^agent-lsp-mark (.+) (\d+(?:\.\d+)?)$/.exec(line);
      if (m && !marks.has(m[1])) marks.set(m[1], Number(m[2]));
    }
  });
  const client = new Client({ name: 'startup-bench', version: '0' });
  await client.connect(transport);
  marks.set('client connected', now());
  await client.listTools();
  marks.set('tools listed', now());
  const started = await client.callTool({ name: 'start_lsp', arguments: { root_dir: root } }, undefined, { timeout: 300_000 });
  marks.set('start_lsp answered', now());
  const r = await client.callTool({ name: 'find_references', arguments: QUERY }, undefined, { timeout: 300_000 });
  marks.set('find_references answered', now());
  await client.close();
  if (started.isError || r.isError || !r.structuredContent?.complete) throw new Error(`bad answer: ${JSON.stringify(r.content)}`);
  const ends = [];
  let previous = t0;
  for (const [, mark] of STAGES) {
    const at = marks.get(mark);
    if (at === undefined) throw new Error(`no mark "${mark}" (is the front built with the marks?)`);
    ends.push(at - previous);
    previous = at;
  }
  // Part of the first query's first stage (the connection starts on first use of a Python file).
  const attach = marks.get('broker attached') - marks.get('broker attach');
  return { stages: ends, total: previous - t0, attach };
}

/** Spawn-to-exit of `node -e 0`: the floor any Node front pays. */
function bareNodeMs() {
  const t = now();
  spawnSync(process.execPath, ['-e', '0']);
  return now() - t;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;

/** Runs the breakdown; returns the Markdown table (also used by run.mjs). */
export async function startupBreakdown({ runs = 7, log = () => undefined, env: extraEnv = {} } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-startup-'));
  const root = join(tmp, 'ws');
  const home = join(tmp, 'home');
  cpSync(FIXTURE, root, { recursive: true });
  const env = { ...process.env, ...extraEnv, AGENT_LSP_HOME: home };
  try {
    log('startup: cold front (spawns the broker)…');
    await freshFront(env, root);
    const results = [];
    for (let i = 0; i < runs; i++) {
      results.push(await freshFront(env, root));
      log(`  fresh front ${i + 1}/${runs}: ${Math.round(results.at(-1).total)} ms`);
    }
    const nodes = Array.from({ length: 5 }, bareNodeMs);
    const rows = STAGES.map(([label], i) => {
      const xs = results.map((r) => r.stages[i]);
      return `| ${label} | ${ms(median(xs))} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} |`;
    });
    const totals = results.map((r) => r.total);
    const attach = results.map((r) => r.attach);
    return [
      `Fresh front on a warm broker (python-basic fixture, \`find_references\` of \`distance\`), ${runs} fronts, load average ${loadavg()[0].toFixed(1)} on ${(await import('node:os')).cpus().length} cores${extraEnv.AGENT_LSP_NO_BUNDLE ? ', unbundled' : ''}:`,
      '',
      '| stage | median | min | max |',
      '| --- | --- | --- | --- |',
      ...rows,
      `| **spawn → first complete answer** | **${ms(median(totals))}** | ${ms(Math.min(...totals))} | ${ms(Math.max(...totals))} |`,
      `| of which: broker attach + initialize (socket, initialize through the broker) | ${ms(median(attach))} | ${ms(Math.min(...attach))} | ${ms(Math.max(...attach))} |`,
      `| for scale: \`node -e 0\`, spawn → exit | ${ms(median(nodes))} | ${ms(Math.min(...nodes))} | ${ms(Math.max(...nodes))} |`,
      '',
    ].join('\n');
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 7;
  const env = process.argv.includes('--no-bundle') ? { AGENT_LSP_NO_BUNDLE: '1' } : {};
  process.stdout.write(await startupBreakdown({ runs, env, log: (s) => process.stderr.write(s + '\n') }));
}

export const STARTUP_HEADING = "## A fresh front's start-up and memory";

/** The docs/benchmarks.md section: the start-up breakdown, bundled and not, and a front's memory. */
export async function startupSection(log) {
  const { frontMemory, VARIANTS } = await import('./frontMemory.mjs');
  const bundled = await startupBreakdown({ runs: 5, log });
  log(bundled);
  const unbundled = await startupBreakdown({ runs: 5, log, env: { AGENT_LSP_NO_BUNDLE: '1' } });
  log(unbundled);
  const memory = await frontMemory({ runs: 2, log, variants: VARIANTS });
  log(memory);
  return `${STARTUP_HEADING}

Run on ${new Date().toISOString().slice(0, 10)}. What an agent session pays before its first answer: a fresh front process
(\`node bin/agent-lsp\`) attaching to an already warm broker, from spawn to the first complete
\`find_references\` answer. Stages come from marks the front writes with AGENT_LSP_STARTUP_TRACE=1
(test/bench/startup.mjs); "tools/list: … client" is the MCP SDK client's own work (it compiles every
output schema), which a real agent pays too. \`pnpm build\` bundles the front with esbuild into
dist/agent-lsp.mjs (scripts/bundle.mjs); AGENT_LSP_NO_BUNDLE=1 runs the packages unbundled.
For the record, before the bundle and the prebuilt tool schemas (2026-11-23, commit 570a3c5, same
script, load average 13.7): 3169 ms from spawn to the answer, of which 1561 ms loading modules and
337 ms creating the MCP server (converting the tools' zod schemas).

${bundled}
${unbundled}
${memory}
The front is a relay; what it holds is mostly loaded code and the MCP SDK's and the tools' zod
schemas. The bundle takes a quarter off (one module instead of hundreds). V8's young generation is
most of the rest of the growth over 100 calls: \`--max-semi-space-size=1\` keeps it flat without
slowing the calls, but it can only be given on node's command line (set at run time with
\`v8.setFlagsFromString\` it measured no effect), so it is left to MCP configurations that start
\`node --max-semi-space-size=1 …/bin/agent-lsp\`; \`--max-old-space-size\` does not help.
`;
}
