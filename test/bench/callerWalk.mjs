// find_callers depth 2 on Django's reverse() (issue 33, target 5): ours through a warm daemon beside
// pyright's own walk of the same call hierarchy, asked directly one request at a time, the first
// time (pyright checks the files each caller's name appears in) and again. Our calls report their
// progress: the longest silence a client heard is tabled too. `node test/bench/run.mjs --only callers`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stopDaemons } from '@agent-lsp/broker';
import { createLogger, ServerRegistry, startDirectConnection } from '@agent-lsp/lsp';
import { djangoSources, openQueryTarget } from './corpora.mjs';
import { programFront } from './programFront.mjs';
import { summarize } from './stats.mjs';

export const CALLER_WALK_HEADING = '## find_callers depth 2: ours beside pyright\'s own walk';

const DEPTH = 2;
const LONG = { timeout: 900_000, resetTimeoutOnProgress: true };
const median = (xs) => summarize(xs).p50;

/** The call graph's entries as find_callers lists them: each caller once, at the level it is first met. */
function graphSize(levels) {
  const seen = new Set();
  for (const calls of levels) for (const c of calls) seen.add(`${c.from.uri}#${c.from.selectionRange.start.line}:${c.from.selectionRange.start.character}`);
  return seen.size;
}

/** pyright asked directly: prepare, then each level's incomingCalls one at a time, and each caller's file's outline. */
async function serverWalk(corpus) {
  const conn = await startDirectConnection({ server: new ServerRegistry().forLanguage('python'), rootDir: corpus.root, workspaceFolders: [corpus.root], logger: createLogger({ level: 'error' }) });
  try {
    const { uri, position } = await openQueryTarget(conn, corpus);
    const ask = (method, params) => conn.request(method, params, { timeoutMs: 900_000 });
    // Warm as the daemon is: the first find_references has been answered.
    await ask('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } });
    const walk = async () => {
      const t = performance.now();
      let frontier = await ask('textDocument/prepareCallHierarchy', { textDocument: { uri }, position });
      const levels = [];
      const expanded = new Set();
      for (let level = 1; level <= DEPTH; level++) {
        const calls = [];
        for (const item of frontier) calls.push(...((await ask('callHierarchy/incomingCalls', { item })) ?? []));
        for (const file of new Set(calls.map((c) => c.from.uri))) await ask('textDocument/documentSymbol', { textDocument: { uri: file } });
        levels.push(calls);
        frontier = calls.map((c) => c.from).filter((f) => {
          const k = `${f.uri}#${f.selectionRange.start.line}:${f.selectionRange.start.character}`;
          return !expanded.has(k) && expanded.add(k);
        });
      }
      return { ms: performance.now() - t, entries: graphSize(levels) };
    };
    return { first: await walk(), again: await walk() };
  } finally {
    await conn.shutdown();
  }
}

/** One fresh front's find_callers: its time, its answer's size and completeness, the longest silence between progress notifications. */
async function ourCall(env, corpus) {
  const { client } = await programFront(env, ['serve', '--daemon', 'always']);
  try {
    await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: 'python' } }, undefined, LONG);
    const t = performance.now();
    let last = t;
    let silence = 0;
    let notifications = 0;
    const onprogress = () => {
      const now = performance.now();
      silence = Math.max(silence, now - last);
      last = now;
      notifications++;
    };
    const r = await client.callTool({ name: 'find_callers', arguments: { file_path: corpus.file, position_pattern: corpus.pattern, depth: DEPTH, limit: 1000 } }, undefined, { ...LONG, onprogress });
    const end = performance.now();
    if (r.isError) throw new Error(r.content[0].text);
    return { ms: end - t, entries: r.structuredContent.total, complete: r.structuredContent.complete, notifications, silence: Math.max(silence, end - last) };
  } finally {
    await client.close();
  }
}

/** A daemon warm for references (a first front's complete find_references), then two fresh fronts' find_callers. */
async function ourWalk(corpus) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-callers-'));
  // No prefetch: the first call is the one an agent makes first, not one prefetch answered ahead.
  const env = { ...process.env, AGENT_LSP_HOME: home, AGENT_LSP_PREFETCH: 'off' };
  try {
    const { client } = await programFront(env, ['serve', '--daemon', 'always']);
    try {
      await client.callTool({ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: 'python' } }, undefined, LONG);
      const r = await client.callTool({ name: 'find_references', arguments: { file_path: corpus.file, position_pattern: corpus.pattern, ready_timeout_seconds: 900 } }, undefined, LONG);
      if (r.isError || !r.structuredContent?.complete) throw new Error(`the warm-up find_references: ${JSON.stringify(r.content).slice(0, 300)}`);
    } finally {
      await client.close();
    }
    return { first: await ourCall(env, corpus), again: await ourCall(env, corpus) };
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(home, { recursive: true, force: true });
  }
}

export async function callerWalkSection(tmp, log, runs = 3) {
  const corpus = djangoSources(tmp);
  if (corpus.notRun) return `${CALLER_WALK_HEADING}\n\nNot run: ${corpus.notRun}.\n`;
  const ours = [];
  const server = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await ourWalk(corpus));
    server.push(await serverWalk(corpus));
    log(`  ${i + 1}/${runs}: ours ${Math.round(ours[i].first.ms)} then ${Math.round(ours[i].again.ms)} ms; pyright ${Math.round(server[i].first.ms)} then ${Math.round(server[i].again.ms)} ms`);
  }
  const cell = (xs, pick) => `${Math.round(median(xs.map(pick)))} ms`;
  const entries = (xs, pick) => [...new Set(xs.map((x) => pick(x).entries))].join(' / ');
  const row = (label, cells) => `| ${label} | ${cells.join(' | ')} |`;
  return `${CALLER_WALK_HEADING}

\`find_callers\` depth ${DEPTH} at \`${corpus.pattern}\` in ${corpus.file} (${corpus.name}): **ours**, a fresh front on a daemon
whose pyright has answered one find_references (prefetch off), from the call to its answer; **pyright
alone**, a direct connection as warm, asked what find_callers asks (prepareCallHierarchy, each
level's callHierarchy/incomingCalls, the outline of each caller's file) one request at a time, as
pyright answers them. **First**: the first depth-${DEPTH} walk on that pyright (it checks the files each
caller's name appears in); **again**: the same walk once more. Median of ${runs}, each on its own
daemon and connection; the longest silence is the longest a client went without a progress
notification (a heartbeat naming the request pyright is answering).

${row('', ['first', 'again', 'callers listed', 'complete', 'longest silence (first)'])}
${row('---', ['---', '---', '---', '---', '---'])}
${row('ours (agent-lsp find_callers)', [cell(ours, (o) => o.first.ms), cell(ours, (o) => o.again.ms), entries(ours, (o) => o.first), ours.every((o) => o.first.complete && o.again.complete) ? 'yes' : 'no', cell(ours, (o) => o.first.silence)])}
${row('pyright alone, one request at a time', [cell(server, (s) => s.first.ms), cell(server, (s) => s.again.ms), entries(server, (s) => s.first), '', ''])}

Target (issue 33): depth 2 on Django's reverse() ≤ 5 s warm, or progress at least every 2 s.
pyright answers one request at a time, so sending a level's requests together (8 at once) saves
nothing here: the walk's time is pyright's own.
`;
}
