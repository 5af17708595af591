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
import { BIN, waitForSnapshot } from './programFront.mjs';
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
  let buffered = '';
  transport.stderr?.on('data', (chunk) => {
    buffered += chunk.toString();
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const m = /^agent-lsp-mark (.+?) (\d+(?:\.\d+)?)(?: cpu=(\d+(?:\.\d+)?))?$/.exec(line);
      if (m && !marks.has(m[1])) marks.set(m[1], Number(m[2]) - t0);
      if (m?.[3] !== undefined && !cpus.has(m[1])) cpus.set(m[1], Number(m[3]));
    }
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
