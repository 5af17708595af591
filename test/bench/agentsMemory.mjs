// Four agents on one warm daemon, ours and the original agent-lsp's, every process counted (fronts,
// broker or daemon, the language server with its children), on Django: each front answers
// start_lsp {root_dir, language_id} and a find_references, then stays up while /proc is read.
// Beside them, an idle node for scale. `node test/bench/run.mjs --only memory`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';
import { resolvePositionPattern } from '@agent-lsp/protocol';
import { djangoSources } from './corpora.mjs';
import { originalArgs, originalBinary, peerEnv } from './originalBinary.mjs';
import { BIN, ensureSnapshot, processMemory } from './programFront.mjs';
import { originalDaemonPids, ourBrokerPids, stopOriginalDaemons, tree } from './processTree.mjs';

/** What holds a front's and the broker's memory (written by hand, dated). */
const MEMORY_FINDINGS = `What holds it (2026-11-27, Django, after one find_references; /proc/<pid>/smaps, V8's heap
statistics and heap snapshots): a front's 72 MiB RSS are the node binary's own file pages (34.6 MiB,
shared by every node process: an idle node maps 30.8 of its 40), V8's heap (18.5 MiB, 16.5 used: the
bundle's source 1.5 MB, the MCP SDK's and the tools' zod schemas and modules, as loaded),
the start-up snapshot's blob, which Node reads into memory and keeps for the process's life (~9.5 MiB:
private memory 34 MiB from the snapshot, 27.7 MiB started without it), and allocator rest. A front of
≤ 30 MiB RSS is out of reach for any Node process here: the node binary's pages alone are ~31 MiB.
--max-semi-space-size=1 changed nothing (71.6 MiB). The broker (90–113 MiB RSS, 48–53 MiB private): its JS
heap is 31.8 MiB, most of it the workspace watcher (chokidar), which scales with the tree — on Django
5897 fs.watch handles (one per directory and one per file: 2369 directories, 3526 files), 3528
fs.Stats with their 14114 Dates, and the maps that hold them (chokidar alone on the same tree in a bare
node: 20 MiB of live heap, +64 MiB RSS). chokidar has no option against its per-file watches and kept
Stats, and ignoring files by the predicate still leaves +39 MiB RSS (its scan's garbage). A watcher of
one fs.watch per directory, tried on 2026-11-28 (load 10, Django after one find_references), took the
broker from 90.0 MiB RSS / 48.0 private to 59.7 / 17.9; it is not in agent-lsp, because DESIGN.md names
chokidar for the watcher. ≤ 40 MiB RSS is below an idle node's 39 MiB either way. A front after
tools/list alone (2026-11-28, load 10): 63.8 MiB RSS / 31.4 private from the snapshot, 66.9 / 26.0
without it, an idle node 39.4 / 6.2; its live heap then is 14.2 MiB (bytecode 3.7, the bundle's source
1.5, object properties 2.0), all of it in the snapshot's heap, which node deserializes whole: loading
tools' modules on first use would shrink only fronts started without the snapshot (not tried).`;

export const AGENTS_MEMORY_HEADING = '## Four agents on one daemon, side by side with the original: memory';
const AGENTS = 4;
const LONG = { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined };
const mib = (b) => `${(b / 1048576).toFixed(0)}`;

const sum = (pids) => pids.map(processMemory).reduce((a, m) => ({ rss: a.rss + m.rss, uss: a.uss + m.uss, pss: a.pss + m.pss }), { rss: 0, uss: 0, pss: 0 });
const cell = (m) => `${mib(m.rss)} / ${mib(m.uss)} / ${mib(m.pss)}`;

async function front(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** Asks until the answer is complete (the daemon may still index); returns the answer's text. */
async function answerComplete(f, args, ours) {
  for (let i = 0; i < 120; i++) {
    const r = await f.client.callTool({ name: 'find_references', arguments: args }, undefined, LONG).catch((e) => ({ isError: true, content: [{ text: e.message }] }));
    const text = r.content?.map((c) => c.text ?? '').join('\n') ?? '';
    if (!r.isError && (ours ? r.structuredContent?.complete : !/still being indexed|indexing/i.test(text))) return text;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  throw new Error('no complete answer');
}

async function agents(kind, corpus, env, bin, position) {
  const fronts = [];
  try {
    // Our fronts start from the start-up snapshot, as users' do once the first one has built it (a build under way would count as a front's child).
    if (kind === 'ours') await ensureSnapshot(env);
    for (let i = 0; i < AGENTS; i++) {
      const f = kind === 'ours' ? await front(BIN, ['serve', '--daemon', 'always'], env) : await front(bin, originalArgs('python'), env);
      fronts.push(f);
      await f.client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: 'python' } }, undefined, LONG);
      await answerComplete(f, kind === 'ours' ? { file_path: corpus.file, position_pattern: corpus.pattern, limit: 100_000 } : { file_path: join(corpus.root, corpus.file), ...position }, kind === 'ours');
    }
    const daemonPid = (kind === 'ours' ? ourBrokerPids(env.AGENT_LSP_HOME) : originalDaemonPids(env.HOME))[0];
    const daemonTree = tree(daemonPid);
    // The front that spawned the daemon is its parent until it exits: the daemon counts once, as the daemon.
    const inDaemon = new Set(daemonTree);
    const frontPids = fronts.flatMap((f) => tree(f.pid)).filter((pid) => !inDaemon.has(pid));
    const server = sum(daemonTree.slice(1));
    return { fronts: sum(frontPids), perFront: sum(frontPids).rss / AGENTS, daemon: processMemory(daemonPid), server, total: sum([...frontPids, ...daemonTree]) };
  } finally {
    for (const f of fronts) await f.client.close().catch(() => undefined);
  }
}

function idleNode() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    setTimeout(() => {
      const m = processMemory(child.pid);
      child.kill();
      resolve(m);
    }, 1500);
  });
}

export async function agentsMemorySection(tmp, log) {
  const corpus = djangoSources(join(tmp, 'memory'));
  if (corpus.notRun) return `${AGENTS_MEMORY_HEADING}\n\nNot run: ${corpus.notRun}.\n`;
  const original = originalBinary();
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-memory-'));
  const ours = { ...process.env, AGENT_LSP_HOME: join(home, 'ours'), AGENT_LSP_SNAPSHOT_DIR: join(home, 'snapshot') };
  const theirs = peerEnv(join(home, 'original'));
  const at = resolvePositionPattern(readFileSync(join(corpus.root, corpus.file), 'utf8'), corpus.pattern, corpus.file);
  const rows = [];
  try {
    log(`memory: ${AGENTS} of our fronts on Django…`);
    rows.push(['ours', await agents('ours', corpus, ours, undefined, undefined)]);
    if (!original.notRun) {
      log(`memory: ${AGENTS} of the original's fronts on Django…`);
      rows.push([original.label, await agents('original', corpus, theirs, original.bin, { line: at.line, column: at.column })]);
    }
  } finally {
    await stopDaemons({ all: true, force: true }, ours);
    if (!original.notRun) stopOriginalDaemons(original.bin, theirs, theirs.HOME);
    rmSync(home, { recursive: true, force: true });
  }
  const idle = await idleNode();
  return `${AGENTS_MEMORY_HEADING}

${AGENTS} agents at once on one warm daemon (Django, pyright), each after \`start_lsp {root_dir, language_id}\` and
one complete \`find_references\`; MiB as RSS / private (USS) / PSS (processMemory in
test/bench/programFront.mjs), every process counted: the fronts with their children, the broker (ours)
or daemon (the original's), the language server with its children. Our fronts start as users' do
(bin/agent-lsp as a program). Load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores.

| | ${AGENTS} fronts | a front (RSS) | broker / daemon | language server | total |
| --- | --- | --- | --- | --- | --- |
${rows.map(([label, r]) => `| ${label} | ${cell(r.fronts)} | ${mib(r.perFront)} | ${cell(r.daemon)} | ${cell(r.server)} | ${cell(r.total)} |`).join('\n')}

For scale, an idle node here (\`node -e 'setTimeout(…)'\`): ${cell(idle)}.

${MEMORY_FINDINGS}
`;
}
