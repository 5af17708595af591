// Where a fresh front's time goes on a warm daemon, mark by mark (issue 33): fronts of one or more
// builds of agent-lsp (each with its own warm daemon on the same copy) and the original's, spawned
// alternately; every mark a front writes (AGENT_LSP_STARTUP_TRACE=1) as milliseconds from spawn,
// median over the runs. `node test/bench/warmTimeline.mjs [--runs N] [--corpus django|stdlib]
// [--build label=/path/to/bin/agent-lsp]...` (default: this checkout's bin/agent-lsp as "ours");
// `pnpm bench --only warmtimeline` writes its section of docs/benchmarks.md.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';
import { resolvePositionPattern } from '@agent-lsp/protocol';
import { djangoSources, pythonStdlib } from './corpora.mjs';
import { originalArgs, originalBinary, peerEnv } from './originalBinary.mjs';
import { BIN, readMarks, waitForSnapshot } from './programFront.mjs';
import { originalDaemonPids, ourBrokerPids, stopOriginalDaemons, tree } from './processTree.mjs';

const now = () => performance.timeOrigin + performance.now();
const LONG = { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (s) => process.stderr.write(s + '\n');

/** One fresh front of `bin`: every mark (first of each name) in ms from spawn, client events included. */
async function ourFront(bin, env, corpus) {
  const marks = new Map();
  const cpus = new Map();
  const daemon = daemonCpu(ourBrokerPids(env.AGENT_LSP_HOME));
  const broker = ourBrokerPids(env.AGENT_LSP_HOME).reduce((s, pid) => s + (cpuMs(pid) || 0), 0);
  const t0 = now();
  const transport = new StdioClientTransport({ command: bin, args: ['serve', '--daemon', 'always'], env: { ...env, AGENT_LSP_STARTUP_TRACE: '1' }, stderr: 'pipe' });
  readMarks(transport.stderr, (name, ms, cpu) => {
    if (!marks.has(name)) marks.set(name, ms - t0);
    if (cpu !== undefined && !cpus.has(name)) cpus.set(name, cpu);
  });
  const client = new Client({ name: 'timeline', version: '0' });
  const at = (name) => marks.set(`CLIENT ${name}`, now() - t0);
  await client.connect(transport);
  at('connected');
  await client.listTools();
  at('tools listed');
  const started = await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: corpus.language } }, undefined, LONG);
  at('start_lsp answered');
  // The front's CPU sampled while it waits for the server: work of its own then, or the answer's parse at the end.
  const samples = [];
  const sampler = setInterval(() => samples.push([now() - t0, cpuMs(transport.pid)]), 100);
  const r = await client.callTool({ name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 } }, undefined, LONG);
  clearInterval(sampler);
  at('find_references answered');
  // The last sample at least 200 ms before the server's answer reached the front: what the wait itself cost.
  const answeredAt = marks.get('query first answer');
  const beforeAnswer = answeredAt === undefined ? undefined : samples.filter(([t]) => t <= answeredAt - 200).at(-1);
  if (beforeAnswer) {
    marks.set('SAMPLE 200 ms before the answer reached the front', beforeAnswer[0]);
    cpus.set('SAMPLE 200 ms before the answer reached the front', beforeAnswer[1]);
  }
  const cpu = cpuMs(transport.pid);
  const daemonUsed = daemonCpu(ourBrokerPids(env.AGENT_LSP_HOME)) - daemon;
  const brokerUsed = ourBrokerPids(env.AGENT_LSP_HOME).reduce((s, pid) => s + (cpuMs(pid) || 0), 0) - broker;
  await client.close();
  const complete = !started.isError && !r.isError && r.structuredContent?.complete === true;
  return { marks, cpus, cpu, daemonCpu: daemonUsed, brokerCpu: brokerUsed, total: marks.get('CLIENT find_references answered'), complete, references: r.structuredContent?.total, error: complete ? undefined : JSON.stringify(r.content).slice(0, 300) };
}

async function originalFront(bin, env, corpus, position) {
  const marks = new Map();
  const daemon = daemonCpu(originalDaemonPids(env.HOME));
  const t0 = now();
  const transport = new StdioClientTransport({ command: bin, args: originalArgs(corpus.language), env, stderr: 'ignore' });
  const client = new Client({ name: 'timeline', version: '0' });
  const at = (name) => marks.set(`CLIENT ${name}`, now() - t0);
  await client.connect(transport);
  at('connected');
  await client.listTools();
  at('tools listed');
  const start = await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: corpus.language } }, undefined, LONG);
  at('start_lsp answered');
  const r = await client.callTool({ name: 'find_references', arguments: { file_path: join(corpus.root, corpus.file), ...position } }, undefined, LONG);
  at('find_references answered');
  const cpu = cpuMs(transport.pid);
  const daemonUsed = daemonCpu(originalDaemonPids(env.HOME)) - daemon;
  await client.close();
  const text = r.content?.map((c) => c.text ?? '').join('\n') ?? '';
  const complete = !start.isError && !r.isError && !/still being indexed|not ready|indexing/i.test(text);
  return { marks, cpus: new Map(), cpu, daemonCpu: daemonUsed, total: marks.get('CLIENT find_references answered'), complete, references: Number(/## \[(\d+)\]/.exec(text)?.[1] ?? NaN), error: complete ? undefined : text.slice(0, 300) };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (NaN when gone). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}
/** The CPU time of daemons and all their descendants (the language server), ms. */
const daemonCpu = (pids) => pids.flatMap(tree).reduce((sum, pid) => sum + (cpuMs(pid) || 0), 0);

async function untilComplete(label, attempt) {
  for (let i = 1; ; i++) {
    const r = await attempt().catch((err) => ({ complete: false, error: err.message }));
    if (r.complete) return r;
    if (i >= 40) throw new Error(`${label}: no complete answer after ${i} fronts (${r.error})`);
    log(`  ${label}: not complete yet (${String(r.error).slice(0, 120)}); again in 5 s…`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}


export const WARM_TIMELINE_HEADING = '## A fresh agent on a warm daemon, mark by mark';

/** Where the gap is, measured finer than the section's tables (written by hand, dated; before/after: the builds compared). */
const WARM_TIMELINE_FINDINGS = `Where the gap to the original is (2026-11-28, measured with this bench's marks and
\`node test/bench/warmTimeline.mjs --build before=<main> --build after=<this branch>\`, fronts of the
two builds and the original's alternating, each with its own warm daemon; Django 5 fronts each at
load 24–26, the stdlib 3 each at load 17–23, 2 cores; CPU from the marks and /proc):

| stage (wall ms from the medians of the marks; the front's CPU ms) | Django: before | Django: after | Django: original | stdlib: before | stdlib: after | stdlib: original |
| --- | --- | --- | --- | --- | --- | --- |
| spawn → our first line (sh, node, deserializing the 10 MB snapshot) | 1707 (cpu 159) | 830 (cpu 143) | | 934 (cpu 130) | 968 (cpu 142) | |
| → connected (listen on stdio, MCP handshake) | 2100 | 929 | 107 | 1091 | 1140 | 99 |
| tools/list: ours to answer (cpu) / the client's parse and schema compile (wall) | cpu 18 / 232 | cpu 16 / 89 | 68 in all | cpu 16 / 98 | cpu 15 / 52 | 82 in all |
| start_lsp {root_dir, language_id} | 226 (cpu 41) | 319 (cpu 29) | 24 | 233 (cpu 25) | 37 (cpu 23) | 2 |
| &nbsp;&nbsp;of which the broker attach (socket, initialize through the broker) | 81 (cpu 21) | 121 (cpu 16) | | 89 (cpu 12) | 14 (cpu 13) | |
| &nbsp;&nbsp;of which resolving the server for start_lsp itself (fixed) | 8 (cpu 4) | 0 (cpu 0) | | 29 (cpu 2) | 2 (cpu 0) | |
| find_references | 1367 (cpu 43) | 1980 (cpu 38) | 989 | 7547 (cpu ~240) | 8100 (cpu ~230) | 10063 |
| &nbsp;&nbsp;of which the answer cache's probe, cache off (fixed) | 25 (cpu 6) | 10 (cpu 1) | | 21 (cpu 4) | 0 (cpu 0) | |
| &nbsp;&nbsp;of which open the document, ready?, sync, epoch | 70 (cpu 9) | 101 (cpu 11) | | 64 (cpu 17) | 11 (cpu 11) | |
| &nbsp;&nbsp;of which the server's answer (broker hop + pyright; the front idle until the answer arrives, then reading it) | 1134 (cpu 7) | 1719 (cpu 4) | | 7068 (cpu 24) | 7566 (cpu 74) | |
| &nbsp;&nbsp;of which files of the answer changed since the connection began? (stats; fixed) | 15 (cpu 2) | 12 (cpu 2) | | 69 (cpu 50) | 76 (cpu 28) | |
| &nbsp;&nbsp;of which converting the locations (reading their files) | 55 (cpu 10) | 71 (cpu 16) | | 246 (cpu 122) | 357 (cpu 100) | |
| &nbsp;&nbsp;of which text, output check, send, client parse | 51 (cpu 8) | 45 (cpu 3) | | 39 (cpu 23) | 88 (cpu 17) | |
| **spawn → first complete answer** (median of the totals) | **3958** | **3338** | **1188** | **8996** | **9384** | **10246** |
| the front's CPU at the answer (/proc) | 270 | 240 | 20 | 430 | 420 | 60 |
| the daemon's and the server's CPU during the front (/proc) | 270 | 240 | 160 | 2130 | 2270 | 2550 |
| &nbsp;&nbsp;of which our broker itself | 20 | 10 | | 20 | 20 | |

- **Reading the table.** At these loads wall time is mostly the scheduler's: the two builds are
  identical up to our first line, yet took 1707 and 830 ms to reach it on Django. Compare CPU; the
  wall times say where the order of magnitude is, and the totals only side by side in one run.
- **Nothing waits.** On a warm broker no step of ours waits for readiness, settling, diagnostics,
  pushes or a fixed delay: the broker's \`initialize\` answer says the server is ready (the
  readiness gate passes at once), pyright publishes nothing the query waits for, no step walks the
  workspace. Between the marks the front either computes or waits for one round trip: the broker
  attach (a socket and \`initialize\` through the broker), the answer cache's \`$/agentLsp/epoch\`, the
  request. While pyright computes, the front is idle (its CPU sampled 200 ms before the answer
  arrived equals its CPU when the request left).
- **The gap is CPU, and wall time on a loaded machine follows CPU**: at load L on 2 cores a process
  gets about 2/L of a core, so every millisecond of CPU costs L/2 of wall. Our front uses 240–270 ms
  of CPU to its first answer on Django, the original's front 20 ms; the daemon side is about the same
  (our broker itself 10–20 ms, the rest pyright). Of our front's CPU, 130–160 ms are spent before our
  first line of JavaScript runs (\`node -e 0\` alone: 60–120 ms at these loads; deserializing the 10 MB
  snapshot ~50 ms more), ~15 ms to listen, ~16 ms for the handshake and tools/list, ~25–40 ms for
  start_lsp, ~40 ms for find_references (Django).
- **First calls pay for compiling.** In one front (Django, 7 fronts, load 24), start_lsp then
  find_references cost 30 + 40 ms of CPU; the same two calls again in the same front 10 + 20 ms.
  Part of it is one-time work (the broker attach), the rest compiling: the code a front runs for
  its first tool calls (the broker client, the LSP connection, the tool paths) is not run while the
  snapshot is built, so each front compiles it; warming those paths in the snapshot
  (scripts/snapshotEntry.cjs, without reading any process state) is the next lever.
- **The client's work on tools/list** (its parse, and the MCP SDK client compiling our output
  schemas) is the largest single step after Node's start: 50–230 ms of wall time here against the
  original's whole tools/list in 68–82 ms (issue 33 target 2).
- **Fixed here** (behaviour tests, no timings): the answer cache's probe no longer resolves the
  server and hashes its settings for a workspace that did not opt in (5 ms of CPU off every first
  query: packages/tools/src/answerCache/cachedAnswers.test.ts); start_lsp told the language without
  a scope leaves resolving the server (its binary, the Python interpreter on PATH) to the connection,
  which did it again (startLsp.test.ts); the files an answer names are stat'ed synchronously to know
  whether they changed since the connection began (each async stat was a round trip through libuv's
  thread pool: 50 → 28 ms of CPU on the stdlib's 1723 references; freshAnswer.test.ts pins what is
  opened). Together ~10 ms of CPU on Django and ~30 ms on the stdlib in the marks, below the noise
  of a total: Django again, 7 fronts of each build alternating at load 14, before 1419 ms
  (874–1757), after 1533 ms (1078–1836), the front's CPU at the answer 230 and 230 ms (the marks:
  the probe 7 → 1 ms, start_lsp's own resolution 3 → 0 ms).
- **What parity would take.** A Go front starts in ~5 ms of CPU; any Node front pays 60–120 ms
  before its first line at these loads. The original's 0.4–1.2 s (Django) is out of reach for a
  Node process per session, whatever the front does after its start; a front that is not a fresh
  Node process (a small native relay from the agent's stdio to a long-lived front) would be a change
  of DESIGN's process model, not an optimisation. Within it: warm the first calls' code in the
  snapshot, shrink the snapshot, and the client's tools/list work (target 2). On the stdlib, the
  rest is converting 1723 locations (reading their ~hundreds of files: ~100 ms of CPU).`;

/**
 * Fronts of each build and the original's, alternating on one corpus (each with its own warm
 * daemon on the same copy): a Markdown table of every mark's median time from spawn (and the
 * front's CPU time there), the front's and the daemon's CPU, the total.
 */
export async function timeline({ tmp, corpus, builds, runs, withOriginal = true }) {
  const original = withOriginal ? originalBinary() : { notRun: 'not asked' };
  const text = readFileSync(join(corpus.root, corpus.file), 'utf8');
  const pos = resolvePositionPattern(text, corpus.pattern, corpus.file);
  const position = { line: pos.line, column: pos.column };
  const runners = builds.map((b) => {
    const home = mkdtempSync(join(tmp, `home-${b.label}-`));
    const env = { ...process.env, AGENT_LSP_HOME: home, AGENT_LSP_SNAPSHOT_DIR: join(home, 'snapshot') };
    return { label: b.label, env, run: () => ourFront(b.bin, env, corpus), stop: () => stopDaemons({ all: true, force: true }, env), rows: [] };
  });
  if (original.bin) {
    const env = peerEnv(mkdtempSync(join(tmp, 'original-')));
    runners.push({ label: 'original', run: () => originalFront(original.bin, env, corpus, position), stop: () => stopOriginalDaemons(original.bin, env, env.HOME), rows: [] });
  }
  const loads = [];
  try {
    for (const r of runners) {
      log(`${r.label}: warming its daemon on ${corpus.label}…`);
      await untilComplete(r.label, r.run);
      if (r.env) log(`  snapshot ${(await waitForSnapshot(r.env.AGENT_LSP_SNAPSHOT_DIR)) ? 'built' : 'NOT built'}`);
    }
    for (let i = 0; i < runs; i++) {
      loads.push(loadavg()[0]);
      for (const r of runners) {
        const row = await r.run();
        if (!row.complete) throw new Error(`${r.label}: incomplete answer ${row.error}`);
        r.rows.push(row);
      }
      log(`  ${i + 1}/${runs} (load ${loads.at(-1).toFixed(1)}): ${runners.map((r) => `${r.label} ${Math.round(r.rows.at(-1).total)} ms`).join(', ')}`);
    }
  } finally {
    for (const r of runners) await r.stop();
  }
  // Marks in the order of their median time; a column per runner.
  const names = [...new Set(runners.flatMap((r) => r.rows.flatMap((row) => [...row.marks.keys()])))];
  const cell = (r, name) => {
    const xs = r.rows.map((row) => row.marks.get(name)).filter((x) => x !== undefined);
    return xs.length ? median(xs) : undefined;
  };
  const order = (name) => Math.min(...runners.map((r) => cell(r, name) ?? Infinity));
  names.sort((a, b) => order(a) - order(b));
  const fmt = (x) => (x === undefined ? '' : `${x.toFixed(0)}`);
  const cpuCell = (r, name) => {
    const xs = r.rows.map((row) => row.cpus.get(name)).filter((x) => x !== undefined);
    return xs.length ? ` (cpu ${median(xs).toFixed(0)})` : '';
  };
  const out = [
    `${corpus.label}, \`${corpus.pattern}\` in ${corpus.file}; ms from spawn (the front's CPU ms there), median of ${runners[0].rows.length} fronts each, alternating; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${cpus().length} cores; references: ${runners.map((r) => `${r.label} ${r.rows[0].references}`).join(', ')}`,
    '',
    `| mark | ${runners.map((r) => r.label).join(' | ')} |`,
    `| --- | ${runners.map(() => '---').join(' | ')} |`,
    ...names.map((name) => `| ${name} | ${runners.map((r) => `${fmt(cell(r, name))}${cpuCell(r, name)}`).join(' | ')} |`),
    `| front process CPU at the answer (/proc) | ${runners.map((r) => fmt(median(r.rows.map((x) => x.cpu)))).join(' | ')} |`,
    `| daemon + server CPU during the front (/proc) | ${runners.map((r) => fmt(median(r.rows.map((x) => x.daemonCpu)))).join(' | ')} |`,
    `| &nbsp;&nbsp;of which the broker itself (ours) | ${runners.map((r) => (r.rows[0].brokerCpu === undefined ? '' : fmt(median(r.rows.map((x) => x.brokerCpu))))).join(' | ')} |`,
    `| **total (spawn → answer), min–max** | ${runners.map((r) => `**${fmt(median(r.rows.map((x) => x.total)))}** (${fmt(Math.min(...r.rows.map((x) => x.total)))}–${fmt(Math.max(...r.rows.map((x) => x.total)))})`).join(' | ')} |`,
  ];
  return out.join('\n');
}

/** The bench section (`--only warmtimeline`): this checkout beside the original, on Django and the stdlib, 3 fronts each. */
export async function warmTimelineSection(tmp, logTo = log) {
  const tables = [];
  for (const corpus of [djangoSources(tmp), pythonStdlib(tmp, 'stdlib-timeline')]) {
    if (corpus.notRun) {
      tables.push(`Not run: ${corpus.notRun}`);
      continue;
    }
    logTo(`warm timeline, ${corpus.label}…`);
    tables.push(await timeline({ tmp, corpus, builds: [{ label: 'ours', bin: BIN }], runs: 3 }));
  }
  return `${WARM_TIMELINE_HEADING}

Where the time of the previous section goes, step by step: each mark a fresh front of ours writes
(AGENT_LSP_STARTUP_TRACE=1; \`agent-lsp-mark <name> <epoch ms> cpu=<ms>\`), as its median time from
spawn and the front's CPU time at that mark; CLIENT rows are the bench client's own, the only ones
the original (a Go binary) gives. Fronts of ours and the original's alternate, each with its own warm
daemon on the same copy; the daemons' CPU (broker or daemon, and the language server) is read from
/proc around each front. \`node test/bench/warmTimeline.mjs [--corpus django|stdlib] [--build label=bin]...\`
compares builds the same way.

${tables.join('\n\n')}

${WARM_TIMELINE_FINDINGS}
`;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, corpus: { type: 'string', default: 'django' }, build: { type: 'string', multiple: true }, 'no-original': { type: 'boolean' } } });
  const builds = (values.build ?? [`ours=${BIN}`]).map((b) => ({ label: b.split('=')[0], bin: b.slice(b.indexOf('=') + 1) }));
  const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-timeline-'));
  try {
    const corpus = values.corpus === 'stdlib' ? pythonStdlib(tmp, 'stdlib-timeline') : djangoSources(tmp);
    if (corpus.notRun) throw new Error(corpus.notRun);
    console.log(await timeline({ tmp, corpus, builds, runs: Number(values.runs), withOriginal: !values['no-original'] }));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
