// `pnpm bench`: every section of docs/benchmarks.md, one after the other. Each section's table is
// written into the doc (replacing that section, keeping the rest) and printed as soon as it is done;
// each ends with its date, the load average at its start and its wall time, and the wall times are
// tabled at the end of the doc. The plots (docs/plots/*.svg) are redrawn from what the sections
// recorded in docs/plots/bench-data.json.
// `node test/bench/run.mjs --only large` (or `--only preview,overhead`) reruns only those sections.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ANSWER_CACHE_HEADING, answerCacheRow, answerCacheSection } from './answerCache.mjs';
import { brokerOverhead } from './brokerOverhead.mjs';
import { benchCorpus, COLD_WARM_HEADING, coldWarmSection } from './coldWarm.mjs';
import { effectSources, pythonStdlib } from './corpora.mjs';
import { fairness } from './fairness.mjs';
import { previewSharing } from './previewSharing.mjs';
import { previewSharingClangd, SHARING_CLANGD_HEADING } from './previewSharingClangd.mjs';
import { LARGE_HEADING, largeWorkspacesSection } from './largeWorkspaces.mjs';
import { readBenchData, roundSamples, updateBenchData } from './plots.mjs';
import { previewEditLatency } from './previewEdit.mjs';
import { PREFETCH_HEADING, prefetchSection } from './prefetch.mjs';
import { TS_SERVERS_HEADING, tsServersSection } from './tsServers.mjs';
import { PYTHON_SERVERS_HEADING, pythonServersSection } from './pythonServers.mjs';
import { STARTUP_HEADING, startupSection } from './startup.mjs';
import { TOOLS_LIST_HEADING, toolListingSection } from './toolListing.mjs';
import { WARM_FRONT_HEADING, warmFrontSection } from './warmFront.mjs';
import { WARM_TIMELINE_HEADING, warmTimelineSection } from './warmTimeline.mjs';
import { AGENTS_MEMORY_HEADING, agentsMemorySection } from './agentsMemory.mjs';
import { CALLER_WALK_HEADING, callerWalkSection } from './callerWalk.mjs';
import { withHome } from './benchHome.mjs';
import { PEERS_HEADING, peersSection } from './peers.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DOC = join(REPO, 'docs', 'benchmarks.md');
const log = (s) => process.stderr.write(s + '\n');
const today = () => new Date().toISOString().slice(0, 10);

/** For the plot: a cold/warm result as a bar group; `run` says when and under what load. */
const plotRow = ({ corpus, cold, warm, server }, run) => ({ label: corpus.label ?? corpus.name, files: corpus.files, run, coldMs: Math.round(cold.processMs), warmMs: Math.round(warm.processMs), ...(server ? { serverMs: Math.round(server.medianMs) } : {}) });

async function coldWarm(ctx) {
  ctx.coldWarm = [];
  for (const name of ['stdlib', 'effect']) ctx.coldWarm.push(await benchCorpus(ctx.corpus(name), log));
  updateBenchData({ coldWarm: ctx.coldWarm.map((r) => plotRow(r, ctx.run)) });
  return coldWarmSection(ctx.coldWarm);
}

async function largeWorkspaces(ctx) {
  const stdlib = ctx.coldWarm?.find((r) => r.corpus === ctx.corpus('stdlib'));
  const { section, rows } = await largeWorkspacesSection({ tmp: ctx.tmp, log, stdlib });
  // a reused 1× row is the cold/warm section's stdlib row, already in the plot
  updateBenchData({ large: rows.filter((r) => r.multiple > 1 || !stdlib).map((r) => plotRow(r, ctx.run)) });
  return section;
}

async function answerCache(ctx) {
  const rows = [];
  for (const name of ['effect', 'stdlib']) {
    // A corpus whose cold run fails (a server overwhelmed on a loaded machine) is a row that says so.
    rows.push(await answerCacheRow(ctx.corpus(name), ctx.tmp, log).catch((err) => ({ corpus: ctx.corpus(name), error: String(err.message ?? err).split('\n')[0] })));
  }
  return answerCacheSection(rows);
}

const PREVIEW_HEADING = '## Speculative edits: `preview_edit` vs a fixed 500 ms quiet window';

async function previewEdit(ctx) {
  const rows = [];
  for (const name of ['stdlib', 'effect']) rows.push(await previewEditLatency(ctx.corpus(name), log));
  return `${PREVIEW_HEADING}

A single-file edit (a comment line inserted at the top of the file), evaluated 15 times on a warm
server (direct mode) after one warm-up call that takes the baseline. **preview_edit**: the tool
call, end to end over MCP (push the overlay in an exclusive section, settle, diff against the
baseline, restore). **Quiet window**: the same edit pushed on a direct connection, then waiting
until the file's diagnostics have been quiet for 500 ms and collecting them, as peers do.

| corpus | file | preview_edit p50 | preview_edit p95 | settled by | quiet window p50 | quiet window p95 | ratio (p50) |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Target (issue 5): preview_edit p50 at most half of the quiet-window strategy's (ratio ≤ 0.50).
`;
}

const OVERHEAD_HEADING = '## The broker hop, memory and load';

async function overhead(ctx) {
  const previousHome = process.env.AGENT_LSP_HOME;
  const answer = await withHome(async (env) => {
    process.env.AGENT_LSP_HOME = env.AGENT_LSP_HOME; // connectToBroker in this process uses it too
    try {
      return await brokerOverhead(ctx.corpus('effect'), env, log);
    } finally {
      if (previousHome === undefined) delete process.env.AGENT_LSP_HOME;
      else process.env.AGENT_LSP_HOME = previousHome;
    }
  });
  // The section, and the raw hop latencies ({ [method]: { direct, broker } }, ms) for the plot.
  const { section, samples } = answer;
  updateBenchData({ hop: roundSamples(samples), hopRun: ctx.run });
  return `${OVERHEAD_HEADING}

Targets (issue 4): under 1 ms added at p50 by the broker hop; 0 errors under load. Issue 19: at
most 0.3 ms added at p50; 4 agents sharing one broker at most 0.3× of 4 agents each with its own server.

![The broker hop: latency CDF, direct vs broker](plots/hop-latency.svg)

${section}`;
}

/**
 * The sections of docs/benchmarks.md, in the order a full run makes them. `heading` finds the
 * section in the doc (a prefix of its first line); `run(ctx)` returns its markdown.
 */
const SECTIONS = [
  { key: 'coldwarm', heading: COLD_WARM_HEADING, run: coldWarm },
  { key: 'large', heading: LARGE_HEADING, run: largeWorkspaces },
  { key: 'preview', heading: PREVIEW_HEADING, run: previewEdit },
  { key: 'tsgo', heading: TS_SERVERS_HEADING, run: () => tsServersSection(log) },
  { key: 'python', heading: PYTHON_SERVERS_HEADING, run: () => pythonServersSection(log) },
  { key: 'overhead', heading: OVERHEAD_HEADING, run: overhead },
  { key: 'fairness', heading: '## Fairness under load', run: (ctx) => fairness(ctx.corpus('effect'), log) },
  { key: 'toolslist', heading: TOOLS_LIST_HEADING, run: () => toolListingSection(log) },
  { key: 'warmfront', heading: WARM_FRONT_HEADING, run: (ctx) => warmFrontSection(ctx.tmp, log) },
  { key: 'warmtimeline', heading: WARM_TIMELINE_HEADING, run: (ctx) => warmTimelineSection(ctx.tmp, log) },
  { key: 'memory', heading: AGENTS_MEMORY_HEADING, run: (ctx) => agentsMemorySection(ctx.tmp, log) },
  { key: 'callers', heading: CALLER_WALK_HEADING, run: (ctx) => callerWalkSection(ctx.tmp, log) },
  { key: 'sharing', heading: "## Sharing a broker with an agent's workspace preview", run: () => previewSharing(log) },
  { key: 'sharingc', heading: SHARING_CLANGD_HEADING, run: () => previewSharingClangd(log) },
  { key: 'startup', heading: STARTUP_HEADING, run: () => startupSection(log) },
  { key: 'prefetch', heading: PREFETCH_HEADING, run: () => prefetchSection(log) },
  { key: 'answers', heading: ANSWER_CACHE_HEADING, run: answerCache },
  // Installs the peers from PyPI and npm into the bench's cache: only when asked (`--peers`, `--only peers`).
  { key: 'peers', heading: PEERS_HEADING, run: (ctx) => peersSection(ctx.tmp, log), optIn: true },
];

const WALL_HEADING = '## Wall time of each section';

/** Where the line starting with `heading` begins in `doc`, or -1. */
function headingAt(doc, heading) {
  if (doc.startsWith(heading)) return 0;
  const i = doc.indexOf(`\n${heading}`);
  return i < 0 ? -1 : i + 1;
}

/** Where the section beginning at `start` ends (the next `## `, or the end of the doc). */
function sectionEnd(doc, start) {
  const end = doc.indexOf('\n## ', start + 1);
  return end < 0 ? doc.length : end + 1;
}

/**
 * Replaces the section starting with `heading` (up to the next `## `). A section not in the doc yet
 * goes after the nearest earlier section of SECTIONS that is, else before the wall-time table.
 */
function replaceSection(doc, heading, section) {
  const text = `${section.trimEnd()}\n\n`;
  const start = headingAt(doc, heading);
  if (start >= 0) return `${doc.slice(0, start)}${text}${doc.slice(sectionEnd(doc, start))}`.trimEnd() + '\n';
  const order = SECTIONS.findIndex((s) => s.heading === heading);
  const before = SECTIONS.slice(0, Math.max(0, order)).reverse().map((s) => headingAt(doc, s.heading)).find((i) => i >= 0);
  const wall = headingAt(doc, WALL_HEADING);
  const at = before !== undefined ? sectionEnd(doc, before) : heading !== WALL_HEADING && wall >= 0 ? wall : doc.length;
  const head = doc.slice(0, at).trimEnd();
  return `${head}\n\n${text}${doc.slice(at)}`.trimEnd() + '\n';
}

function machine() {
  return `${process.platform} ${process.arch}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}`;
}

function header() {
  return `# Benchmarks

Generated by \`pnpm bench\` (test/bench/run.mjs) on ${today()}, ${machine()}. All figures of one
table come from one run. The machine may be shared: each section ends with the load average at its
start and its wall time (tabled at the end). \`node test/bench/run.mjs --only <key>\` reruns one
section (keys: ${SECTIONS.map((s) => `\`${s.key}\``).join(', ')}) and replaces it here; \`pnpm bench --peers\`
runs the peers section alone (it installs the other MCP servers into the bench's cache). Plots:
[cold vs warm](plots/cold-warm.svg), [the broker hop's latency](plots/hop-latency.svg)
(docs/plots, drawn from docs/plots/bench-data.json by test/bench/plots.mjs).
`;
}

function wallTimeSection(sections) {
  const rows = SECTIONS.filter((s) => sections[s.key]).map((s) => {
    const r = sections[s.key];
    return `| \`${s.key}\` | ${r.date} | ${r.load.toFixed(1)} | ${r.wallS} s |`;
  });
  // opt-in sections (`peers`) are not part of a full run
  const total = SECTIONS.filter((s) => !s.optIn).reduce((sum, s) => sum + (sections[s.key]?.wallS ?? 0), 0);
  return `${WALL_HEADING}

Each section's last run (\`--only <key>\` reruns one), with the 1-minute load average at its start on ${cpus().length} cores.
The sum is a full \`pnpm bench\` run's time when every row comes from the same run (\`peers\`, run by \`--peers\` alone, is not in it).

| section | run on | load average at the start | wall time |
| --- | --- | --- | --- |
${rows.join('\n')}
| **sum** | | | **${total} s (${(total / 60).toFixed(1)} min)** |
`;
}

// `--peers` is `--only peers`: the side-by-side run with the other MCP servers.
const onlyArg = process.argv.includes('--peers') ? 'peers' : process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] ?? '' : undefined;
const selected = onlyArg === undefined ? SECTIONS.filter((s) => !s.optIn) : onlyArg.split(',').map((key) => SECTIONS.find((s) => s.key === key) ?? key);
const unknown = selected.filter((s) => typeof s === 'string');
if (unknown.length) throw new Error(`--only takes section keys separated by commas (${SECTIONS.map((s) => s.key).join(', ')}), not ${unknown.join(', ')}`);

const tmp = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-'));
const corpora = new Map();
const makers = { stdlib: pythonStdlib, effect: effectSources };
/** What the sections share: the temp dir, the corpora (each copied on first use), the cold/warm results. */
const ctx = {
  tmp,
  corpus: (name) => {
    if (!corpora.has(name)) corpora.set(name, makers[name](tmp));
    return corpora.get(name);
  },
  coldWarm: undefined,
  /** When the running section started and under what load, for the plots. */
  run: undefined,
};
try {
  if (onlyArg === undefined) writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), '# Benchmarks', header()));
  for (const section of selected) {
    const load = loadavg()[0];
    log(`— ${section.key}: load average ${load.toFixed(1)}…`);
    const started = performance.now();
    ctx.run = `${today()}, load ${load.toFixed(1)}`;
    const text = await section.run(ctx);
    const wallS = Math.round((performance.now() - started) / 1000);
    const record = { date: today(), load: Math.round(load * 10) / 10, wallS };
    const stamped = `${text.trimEnd()}\n\n_Section run on ${record.date}: load average ${load.toFixed(1)} at its start (${cpus().length} cores), ${wallS} s._\n`;
    updateBenchData({ sections: { ...readBenchData().sections, [section.key]: record } });
    let doc = replaceSection(readFileSync(DOC, 'utf8'), section.heading, stamped);
    doc = replaceSection(doc, WALL_HEADING, wallTimeSection(readBenchData().sections));
    writeFileSync(DOC, doc);
    process.stdout.write(`${stamped}\n`);
    log(`— ${section.key}: ${wallS} s`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
