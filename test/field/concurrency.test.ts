// The Go concurrency checks (the original agent-lsp's lsp-concurrency-audit skill) on real code:
// Go's go/token (FileSet and File hold mutexes) and net/rpc (real go statements: a client's
// reader, a request served, a connection accepted; no errgroup anywhere, so no .Go(func literal)
// case), copied into the go-std corpus. The truth is computed without agent-lsp: which call runs in
// another goroutine, which type holds a sync primitive, which symbol other modules can use — read
// by go/ast (test/field/goTruth/main.go, run with `go run`); who calls whom — gopls asked directly
// (prepareCallHierarchy + incomingCalls, level by level).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { positionOf } from '../helpers/text.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { RawServer } from './rawServer.js';

const TRUTH_PROGRAM = join(dirname(fileURLToPath(import.meta.url)), 'goTruth', 'main.go');
const RPC = 'net/rpc';

interface GoTruth {
  concurrent: { file: string; line: number; column: number; pattern: string }[];
  files: Record<string, { guarded: string[]; exported: string[] }>;
}
interface CallItem {
  name: string;
  uri: string;
  selectionRange: { start: { line: number; character: number } };
}
interface IncomingCall {
  from: CallItem;
  fromRanges: { start: { line: number; character: number }; end: { line: number; character: number } }[];
}

const goInstalled = onPath('gopls') && onPath('go');
const corpus: Corpus | NotRun = goInstalled ? prepareCorpus('go-std') : { notRun: 'gopls or go is not installed' };
afterAll(() => {
  if (!isNotRun(corpus)) corpus.dispose();
});

/** Go's own net/rpc (no tests) copied into the corpus: its imports are the standard library's. */
function addNetRpc(root: string): void {
  const from = join(execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim(), 'src', RPC);
  mkdirSync(join(root, RPC), { recursive: true });
  for (const f of readdirSync(from)) if (f.endsWith('.go') && !f.endsWith('_test.go')) copyFileSync(join(from, f), join(root, RPC, f));
}

/** go/ast's byte column as the character column agent-lsp answers. */
function characterColumn(root: string, file: string, line: number, byteColumn: number): number {
  const text = readFileSync(join(root, file), 'utf8').split('\n')[line - 1] ?? '';
  return [...Buffer.from(text).subarray(0, byteColumn - 1).toString('utf8')].length + 1;
}

describe.skipIf(isNotRun(corpus))(`Go concurrency checks on ${isNotRun(corpus) ? `Go's standard library: not run (${corpus.notRun})` : `${corpus.label} and net/rpc`}`, () => {
  let root: string;
  let agent: AgentLspClient;
  let raw: RawServer;
  let truth: GoTruth;

  beforeAll(async () => {
    root = (corpus as Corpus).root;
    addNetRpc(root);
    truth = JSON.parse(execFileSync('go', ['run', TRUTH_PROGRAM, root], { encoding: 'utf8', timeout: 120_000 })) as GoTruth;
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'go' }));
    raw = await RawServer.start('gopls', root);
  }, 240_000);
  afterAll(async () => {
    await agent?.close();
    await raw?.stop();
  });

  /** gopls's call sites of the callers of the function at `needle`, `depth` levels up (each function followed once). */
  async function trueCallSites(file: string, at: { line: number; column: number }, depth: number): Promise<string[]> {
    await raw.open(file, 'go');
    const prepared = (await raw.request<CallItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri: raw.uri(file) }, position: { line: at.line - 1, character: at.column - 1 } })) ?? [];
    expect(prepared, `gopls prepares a call hierarchy at ${file}:${at.line}:${at.column}`).toHaveLength(1);
    const seen = new Set<string>();
    const sites = new Set<string>();
    let frontier = prepared;
    for (let level = 1; level <= depth; level++) {
      const next: CallItem[] = [];
      for (const item of frontier) {
        const key = `${item.uri}#${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
        if (seen.has(key)) continue;
        seen.add(key);
        for (const call of (await raw.request<IncomingCall[] | null>('callHierarchy/incomingCalls', { item })) ?? []) {
          for (const r of call.fromRanges) {
            const l = raw.location(call.from.uri, r);
            sites.add(`${l.file}:${l.line}:${l.column}`);
          }
          next.push(call.from);
        }
      }
      frontier = next;
    }
    return [...sites];
  }

  it.each([
    { file: `${RPC}/server.go`, needle: 'func (s *service) call(', at: 18, depth: 3 },
    { file: `${RPC}/server.go`, needle: 'func (server *Server) ServeConn(', at: 22, depth: 1 },
    { file: `${RPC}/client.go`, needle: 'func (client *Client) input(', at: 22, depth: 1 },
  ])('find_callers cross_concurrent at $file "$needle" depth $depth lists the calls go/ast says run in another goroutine, among those gopls finds', async ({ file, needle, at: offset, depth }) => {
    const concurrent = new Map(truth.concurrent.map((s) => [`${s.file}:${s.line}:${characterColumn(root, s.file, s.line, s.column)}`, s.pattern]));
    const at = positionOf(join(root, file), needle);
    at.column += offset;
    const sites = await trueCallSites(file, at, depth);
    const expected = sites.filter((s) => concurrent.has(s)).map((s) => `${s} ${concurrent.get(s)}`);
    expect(expected.length, `a caller of ${needle} runs it in a goroutine: ${JSON.stringify(sites)}`).toBeGreaterThan(0);
    const data = ok(await agent.call('find_callers', { file_path: file, line: at.line, column: at.column, depth, cross_concurrent: true, limit: 1000 }));
    const ours = ((data['concurrent_callers'] as { call_site: { file: string; line: number; column: number }; pattern: string }[] | undefined) ?? []).map(
      (c) => `${c.call_site.file}:${c.call_site.line}:${c.call_site.column} ${c.pattern}`,
    );
    judge({ tool: 'find_callers cross_concurrent', corpus: 'go-std', case: `${file} ${needle} depth ${depth}`, ...compareSets(ours, expected, data['complete'] !== false) });
  });

  it.each([`${RPC}/server.go`, `${RPC}/client.go`, 'go/token/position.go'])(
    'blast_radius of %s: sync_guarded is true for exactly the types go/ast finds holding a sync primitive and their methods; scope exported keeps exactly the symbols other modules can use',
    async (file) => {
      const facts = truth.files[file]!;
      const all = ok(await agent.call('blast_radius', { changed_files: [file], scope: 'all', limit: 1000 }));
      const symbols = all['symbols'] as { name: string; file: string; sync_guarded?: boolean }[];
      const guarded = symbols.filter((s) => s.file === file && s.sync_guarded === true).map((s) => s.name);
      expect(facts.guarded.length, `go/ast finds a guarded type in ${file}`).toBeGreaterThan(0);
      judge({ tool: 'blast_radius sync_guarded', corpus: 'go-std', case: file, ...compareSets(guarded, facts.guarded, all['complete'] !== false) });
      const exported = ok(await agent.call('blast_radius', { changed_files: [file], scope: 'exported', limit: 1000 }));
      const names = (exported['symbols'] as { name: string; file: string }[]).filter((s) => s.file === file).map((s) => s.name);
      judge({ tool: 'blast_radius scope exported', corpus: 'go-std', case: file, ...compareSets(names, facts.exported, exported['complete'] !== false) });
    },
  );
});
