// The derived-analysis tools on real code (issue 28, items 6-8): find_callers against gopls's own
// call hierarchy, type_hierarchy against the TypeScript compiler's heritage clauses, and
// detect_changes against edits made in a git repository of the corpus copy.
import { execFileSync } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { GoplsDirect, heritageSubtypes, type TruthCall } from './analysisTruth.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';

interface Call {
  level: number;
  name: string;
  file: string;
  line: number;
  via?: string;
  call_sites: { file: string; line: number; column: number }[];
}

interface TypeEntry {
  level: number;
  name: string;
  file: string;
}

/** Every copy made, removed when the file is done (a describe whose tests were all filtered out runs no afterAll of its own). */
const copies: Corpus[] = [];
afterAll(() => {
  for (const c of copies) c.dispose();
});

/** A corpus, or why its tests did not run (said in the describe title and on the console). */
function corpus(name: 'go-std' | 'rxjs', server?: string): { prepared: Corpus | NotRun; notRun?: string; title: string } {
  const prepared: Corpus | NotRun = server && !onPath(server) ? { notRun: `${server} is not on PATH` } : prepareCorpus(name);
  const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
  if (!isNotRun(prepared)) copies.push(prepared);
  if (notRun) console.warn(`field ${name}: not run (${notRun})`);
  return { prepared, ...(notRun ? { notRun } : {}), title: `field analysis, ${name}${notRun ? ` (NOT RUN: ${notRun})` : ''}` };
}

const goStd = corpus('go-std', 'gopls');

describe.skipIf(goStd.notRun !== undefined)(goStd.title, () => {
  const c = goStd.prepared as Corpus;
  let agent: AgentLspClient;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: c.root, language_id: 'go' }));
  }, 120_000);
  afterAll(async () => {
    await agent?.close();
  });

  it('find_callers on the recursive ast.Walk lists exactly gopls\'s incoming calls, Walk itself and its call sites included', async () => {
    const gopls = await GoplsDirect.start(c.root);
    const truth = await gopls.incomingCalls('go/ast/walk.go', 'func Walk(', 'func '.length).finally(() => gopls.dispose());
    const data = ok(await agent.call('find_callers', { file_path: 'go/ast/walk.go', position_pattern: 'func @@Walk(' }));
    const calls = data['calls'] as Call[];
    const ours: TruthCall[] = calls.map((e) => ({ name: e.name, file: e.file, sites: e.call_sites.map((s) => `${s.line}:${s.column}`).sort() }));
    const byKey = (l: TruthCall[]) => l.map((t) => `${t.name} ${t.file} ${t.sites.join(' ')}`).sort();
    expect(truth.some((t) => t.name === 'Walk')).toBe(true);
    judge({ tool: 'find_callers', corpus: 'go-std', case: 'ast.Walk (recursive), call sites', ...compareSets(byKey(ours), byKey(truth), data['complete'] === true) });
    expect(byKey(ours)).toEqual(byKey(truth));
    expect(data['complete']).toBe(true);
  });

  it('find_callers two levels out of Walk lists gopls\'s callers and their callers, each once at its level, through a true caller (requests sent together, answers read in order)', async () => {
    const gopls = await GoplsDirect.start(c.root);
    const truth = await gopls.callerLevels('go/ast/walk.go', 'func Walk(', 'func '.length, 2).finally(() => gopls.dispose());
    const data = ok(await agent.call('find_callers', { file_path: 'go/ast/walk.go', position_pattern: 'func @@Walk(', depth: 2, limit: 1000 }));
    const calls = data['calls'] as Call[];
    const entry = (e: { level: number; name: string; file: string; line: number }) => `${e.level} ${e.name} ${e.file}:${e.line}`;
    expect(truth.some((t) => t.level === 2)).toBe(true);
    judge({ tool: 'find_callers', corpus: 'go-std', case: 'ast.Walk, depth 2', ...compareSets(calls.map(entry), truth.map(entry), data['complete'] === true) });
    expect(calls.map(entry).sort()).toEqual(truth.map(entry).sort());
    // Walk calls itself: listed at level 1 as its own caller.
    expect(calls.some((e) => e.level === 1 && e.name === 'Walk' && e.file === 'go/ast/walk.go')).toBe(true);
    for (const e of calls.filter((x) => x.level === 2)) expect(truth.find((t) => entry(t) === entry(e))?.callers, entry(e)).toContain(e.via);
    expect(data['complete']).toBe(true);
  });

  it('find_callers four levels out of Walk ends, listing each function once, each deeper one through a listed caller', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'go/ast/walk.go', position_pattern: 'func @@Walk(', depth: 4 }));
    const calls = data['calls'] as Call[];
    expect(calls.filter((e) => e.level === 1).map((e) => e.name)).toContain('Walk');
    expect(new Set(calls.map((e) => `${e.name} ${e.file}:${e.line}`)).size).toBe(calls.length);
    for (const e of calls.filter((x) => x.level > 1)) expect(calls.some((x) => x.level === e.level - 1 && x.name === e.via)).toBe(true);
    expect(Math.max(...calls.map((e) => e.level))).toBeGreaterThan(1);
  });
});

interface ChangedSymbol {
  name: string;
  file: string;
  change: string;
  used_in: { file: string; uses: { line: number; column: number }[] }[];
}

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
}

/** "file:line:column" of every use a changed symbol lists. */
function usesOf(s: ChangedSymbol | undefined): string[] {
  return (s?.used_in ?? []).flatMap((f) => f.uses.map((u) => `${f.file}:${u.line}:${u.column}`)).sort();
}

const goStdChanges = corpus('go-std', 'gopls');

describe.skipIf(goStdChanges.notRun !== undefined)(`${goStdChanges.title}: detect_changes`, () => {
  const c = goStdChanges.prepared as Corpus;
  let agent: AgentLspClient;
  let symbols: ChangedSymbol[];
  let files: { file: string; status: string; from?: string }[];
  const truth = { inspectUses: [] as string[], foldSymbols: [] as string[], foldNameUses: [] as string[] };

  beforeAll(async () => {
    gitIn(c.root, 'init', '-q');
    gitIn(c.root, 'add', '-A');
    gitIn(c.root, 'commit', '-q', '-m', 'corpus');
    // The truth, before the edits: gopls asked directly who uses what is about to go.
    const gopls = await GoplsDirect.start(c.root);
    try {
      truth.inspectUses = await gopls.referencesFromOtherFiles('go/ast/walk.go', 'func Inspect(', 'func '.length);
      truth.foldSymbols = await gopls.topLevelSymbols('encoding/json/fold.go');
      truth.foldNameUses = await gopls.referencesFromOtherFiles('encoding/json/fold.go', 'func foldName(', 'func '.length);
    } finally {
      gopls.dispose();
    }
    // Inspect and its doc comment go (a pure deletion just below inspector.Visit); fold.go is deleted;
    // scanner's errors.go is renamed unchanged.
    const walk = join(c.root, 'go/ast/walk.go');
    const text = readFileSync(walk, 'utf8');
    const start = text.indexOf('// Inspect traverses an AST');
    const end = text.indexOf('\n}\n', text.indexOf('func Inspect(')) + 3;
    writeFileSync(walk, text.slice(0, start) + text.slice(end + 1));
    unlinkSync(join(c.root, 'encoding/json/fold.go'));
    gitIn(c.root, 'mv', 'go/scanner/errors.go', 'go/scanner/scanerrors.go');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: c.root, language_id: 'go' }));
    const data = ok(await agent.call('detect_changes', { limit: 100 }));
    symbols = data['symbols'] as ChangedSymbol[];
    files = data['changed_files'] as typeof files;
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
  });

  it('a removed exported function is removed, with exactly the uses gopls found before (and its unchanged neighbours are not flagged)', () => {
    expect(truth.inspectUses.length).toBeGreaterThan(0);
    const walk = symbols.filter((s) => s.file === 'go/ast/walk.go');
    expect(walk.map((s) => `${s.name} ${s.change}`)).toEqual(['Inspect removed']);
    judge({ tool: 'detect_changes', corpus: 'go-std', case: 'ast.Inspect removed: its uses elsewhere', ...compareSets(usesOf(walk[0]), truth.inspectUses, true) });
    expect(usesOf(walk[0])).toEqual(truth.inspectUses);
  });

  it('a deleted file\'s symbols are all removed, each with the uses gopls found before', () => {
    const fold = symbols.filter((s) => s.file === 'encoding/json/fold.go');
    expect(fold.map((s) => s.change)).toEqual(fold.map(() => 'removed'));
    judge({ tool: 'detect_changes', corpus: 'go-std', case: 'encoding/json/fold.go deleted: its symbols', ...compareSets(fold.map((s) => s.name), truth.foldSymbols, true) });
    expect(fold.map((s) => s.name).sort()).toEqual(truth.foldSymbols);
    expect(truth.foldNameUses.length).toBeGreaterThan(0);
    expect(usesOf(fold.find((s) => s.name === 'foldName'))).toEqual(truth.foldNameUses);
    expect(files).toContainEqual(expect.objectContaining({ file: 'encoding/json/fold.go', status: 'deleted' }));
  });

  it('a renamed file is read against its old path: nothing in it changed', () => {
    expect(files).toContainEqual(expect.objectContaining({ file: 'go/scanner/scanerrors.go', status: 'renamed', from: 'go/scanner/errors.go' }));
    expect(symbols.filter((s) => s.file.startsWith('go/scanner/'))).toEqual([]);
  });
});

const rxjs = corpus('rxjs');

describe.skipIf(rxjs.notRun !== undefined)(rxjs.title, () => {
  const c = rxjs.prepared as Corpus;
  let agent: AgentLspClient;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: c.root, language_id: 'typescript' }));
  }, 120_000);
  afterAll(async () => {
    await agent?.close();
  });

  it('type_hierarchy: Observable\'s subtypes are exactly the types whose heritage clauses name it (transitively), not its type-argument users', async () => {
    const truth = heritageSubtypes(c.root, 'src/internal/Observable.ts', 'Observable', 4);
    const data = ok(await agent.call('type_hierarchy', { file_path: 'src/internal/Observable.ts', position_pattern: 'export class @@Observable<', direction: 'subtypes' }));
    const ours = (data['subtypes'] as TypeEntry[]).map((t) => `${t.level} ${t.name} ${t.file}`).sort();
    expect(truth).toContain('1 Subject src/internal/Subject.ts');
    judge({ tool: 'type_hierarchy', corpus: 'rxjs', case: 'Observable subtypes, 4 levels', ...compareSets(ours, truth, data['complete'] !== false) });
    expect(ours).toEqual(truth);
    expect(ours.join('\n')).not.toMatch(/OperatorFunction/);
  }, 120_000);
});
