// Peers (issue 33): the same query — every reference to one symbol — through ours, the original
// agent-lsp (Go, npm), Serena (PyPI), cclsp and lsmcp (npm), each driven by the MCP SDK client over
// stdio with its own tool, on the same pyright and the same copies (a small project, Django), in one
// run. Cold (spawn → first answer, and → first complete answer), a warm call in the same session,
// a new session on what the first left (our broker, the original's daemon, caches), the memory of
// every process, and whether the answer was complete: its count against pyright asked directly.
// `pnpm bench --peers` (or `node test/bench/run.mjs --only peers`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';
import { resolvePositionPattern } from '@agent-lsp/protocol';
import { serverWarm } from './coldWarm.mjs';
import { djangoSources, smallPythonProject } from './corpora.mjs';
import { completeness, resultText } from './peerAnswers.mjs';
import { PEERS, queryTarget } from './peerDrivers.mjs';
import { killAll, tree } from './processTree.mjs';
import { processMemory } from './programFront.mjs';

export const PEERS_HEADING = '## Peers: the same query through other MCP servers';
const WARM_CALLS = 3;
/** How long a peer that answers "not ready" is asked again (every second) for its complete answer. */
const UNTIL_READY_MS = 600_000;
const LONG = { timeout: 900_000, resetTimeoutOnProgress: true, onprogress: () => undefined };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * One agent session of `peer`: spawn, handshake, its set-up calls, the query until its answer is
 * ready, then `warmCalls` more; the RSS of every process it runs or left (front tree, daemons).
 */
async function session(peer, handle, corpus, home, target, warmCalls) {
  const t0 = performance.now();
  const { command, args, env } = peer.launch(handle, corpus, home);
  const transport = new StdioClientTransport({ command, args, env, cwd: corpus.root, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  let pids = [];
  try {
    await client.connect(transport);
    for (const call of peer.setup(corpus)) await client.callTool(call, undefined, LONG);
    const ask = async () => {
      const r = await client.callTool(peer.query(target), undefined, LONG).catch((err) => ({ isError: true, content: [{ type: 'text', text: String(err.message ?? err) }] }));
      return { ...peer.read(r, target), text: resultText(r) };
    };
    const first = { ...(await ask()), ms: performance.now() - t0 };
    let ready = first.ready ? first : undefined;
    while (!ready && performance.now() - t0 < UNTIL_READY_MS) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const again = await ask();
      if (again.ready) ready = { ...again, ms: performance.now() - t0 };
    }
    const warm = [];
    let last;
    for (let i = 0; ready && i < warmCalls; i++) {
      const t = performance.now();
      last = await ask();
      warm.push(performance.now() - t);
    }
    pids = [...new Set([...tree(transport.pid), ...peer.daemons?.(home).flatMap(tree) ?? []])];
    const rss = pids.map(processMemory).reduce((sum, m) => sum + m.rss, 0);
    return { first, ready, warmMs: warm.length ? median(warm) : NaN, warmAnswer: last, rss, processes: pids.length };
  } finally {
    await client.close().catch(() => undefined);
    // what the session's own process tree left behind (a server a peer did not end); daemons stay
    const daemons = new Set(peer.daemons?.(home).flatMap(tree) ?? []);
    killAll(pids.filter((pid) => !daemons.has(pid) && pid !== process.pid).reverse());
  }
}

/** `peer` on `corpus`: a cold session, then a new one on what it left; `{ notRun }` if it cannot be had. */
export async function measurePeer(peer, corpus, target, tmp, log) {
  const handle = peer.install();
  if (handle.notRun) return { peer, notRun: handle.notRun };
  const home = mkdtempSync(join(tmp, `peer-${peer.key}-`));
  try {
    log(`peers: ${handle.label} on ${corpus.label}: cold…`);
    const cold = await session(peer, handle, corpus, home, target, WARM_CALLS);
    log(`  first answer ${Math.round(cold.first.ms)} ms (${cold.first.ready ? `${cold.first.references} refs` : 'not ready'}), complete ${cold.ready ? `${Math.round(cold.ready.ms)} ms, ${cold.ready.references} refs` : 'never'}; warm ${Math.round(cold.warmMs)} ms; ${Math.round(cold.rss / 1048576)} MiB; a new session…`);
    await peer.beforeNewSession?.(home);
    const next = await session(peer, handle, corpus, home, target, 0);
    log(`  new session ${Math.round(next.first.ms)} ms (${next.first.ready ? `${next.first.references} refs` : 'not ready'})`);
    return { peer, label: handle.label, tool: peer.query(target).name, cold, next };
  } catch (err) {
    return { peer, label: handle.label, notRun: `it failed: ${String(err.message ?? err).split('\n')[0].slice(0, 200)}` };
  } finally {
    if (peer.key === 'ours') await stopDaemons({ all: true, force: true }, { ...process.env, AGENT_LSP_HOME: join(home, 'state') });
    peer.stop?.(handle, home);
    killAll((peer.daemons?.(home) ?? []).flatMap(tree).reverse());
    rmSync(home, { recursive: true, force: true });
  }
}

const s = (ms) => (Number.isFinite(ms) ? (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`) : '–');

/** A table row for one peer on one corpus. */
export function peerRow(corpusLabel, r, truth) {
  const label = r.peer.name;
  if (r.notRun) return `| ${corpusLabel} | ${label} | not run (${r.notRun.replace(/\|/g, '\\|')}) | | | | | | |`;
  const { cold, next, peer } = r;
  const short = (a) => (completeness(a.references, truth, peer.includesDeclaration).complete ? '' : ' **incomplete**');
  const answer = (a) => (a.ready ? `${a.references}${short(a)}${a.others ? ` (+ ${a.others} other symbols' lists)` : ''}` : `not ready ("${a.text.slice(0, 60).replace(/\|/g, '\\|').replace(/\n/g, ' ')}…")`);
  const verdict = (a) => {
    if (!a) return 'no';
    const { expected, complete } = completeness(a.references, truth, peer.includesDeclaration);
    return complete ? `yes (${a.references} of ${expected})` : `**no** (${Number.isFinite(a.references) ? a.references : '?'} of ${expected})`;
  };
  return `| ${corpusLabel} | ${label} | \`${r.tool}\` | ${s(cold.first.ms)}: ${answer(cold.first)} | ${cold.ready ? s(cold.ready.ms) : 'never'} | ${verdict(cold.ready)} | ${s(cold.warmMs)}${cold.warmAnswer ? `: ${answer(cold.warmAnswer)}` : ''} | ${s(next.first.ms)}: ${answer(next.first)} | ${Math.round(cold.rss / 1048576)} MiB (${cold.processes}) |`;
}

export async function peersSection(tmp, log) {
  const corpora = [smallPythonProject(tmp), djangoSources(tmp)];
  const rows = [];
  const notes = [];
  const labels = new Set();
  for (const corpus of corpora) {
    if (corpus.notRun) {
      notes.push(`Django not run: ${corpus.notRun}.`);
      continue;
    }
    const text = readFileSync(join(corpus.root, corpus.file), 'utf8');
    const target = queryTarget(corpus, resolvePositionPattern(text, corpus.pattern, corpus.file));
    log(`peers: ${corpus.label}: pyright asked directly…`);
    const server = await serverWarm(corpus);
    const results = [];
    for (const peer of PEERS) results.push(await measurePeer(peer, corpus, target, tmp, log));
    for (const r of results) if (r.label) labels.add(r.label);
    rows.push(...results.map((r) => peerRow(`${corpus.label} (${corpus.files} files)`, r, server.total)));
    notes.push(`${corpus.label}: \`${corpus.pattern}\` in ${corpus.file}; pyright asked directly: ${server.total} references with the declaration, ${s(server.medianMs)} warm (median of 5).`);
  }
  return `${PEERS_HEADING}

The same query — every reference to one symbol — through each MCP server, driven as an agent's
client drives it (the MCP SDK client over stdio, the server's own tool and arguments), all on the
same pyright (agent-lsp's bundled pyright-langserver, given to each by absolute path) and the same copy
of each corpus, one after the other in one run. Each peer gets its own HOME (its caches, its daemons).
**First answer**: a fresh process with nothing warm, from spawn to its first answer to the query
(after \`start_lsp {root_dir, language_id}\` where the server has it); a server that answers "not
ready" is asked again every second, and **ready after** is spawn → its first answer that is not
"not ready" (complete or not: the next column says). **Complete?**: that answer's count against pyright asked directly (the declaration
counted where the server includes it). **Warm call**: the query again in the same session (median of
${WARM_CALLS}; the references of the last). **New session**: a second fresh process after the first has gone, on what it left
(our broker, the original's daemon, a peer's caches), spawn → first answer. **RSS**: every process of
the first session at its end (front, its children, daemons and their language servers), summed
(process count in brackets). The tool each peer answers with:
ours and the original \`find_references\` (file, 1-based line and column); Serena
\`find_referencing_symbols\` (name path and file; one entry per reference, the declaration left out);
cclsp \`find_references\` (file and symbol name); lsmcp \`find_references\` (file, line and symbol name).

| corpus | server | tool | first answer: time, references | ready after | complete? | warm call: time, references | new session: time, references | RSS (processes) |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${notes.map((n) => `- ${n}`).join('\n')}
- The servers: ${[...labels].join('; ')}. Serena in a venv and cclsp, lsmcp in npm prefixes of the bench's cache (~/.cache/agent-lsp-bench); lsmcp 0.9 and 0.10 need Node ≥ 22 (\`node:sqlite\`), so 0.8.3 on this Node ${process.version}.
- Load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} (1/5/15 min) at the end, ${cpus().length} cores. One run, not a median: the machine is shared.
`;
}
