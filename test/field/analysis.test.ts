// The derived-analysis tools on real code (issue 28, items 6-8): find_callers against gopls's own
// call hierarchy, type_hierarchy against the TypeScript compiler's heritage clauses, and
// detect_changes against edits made in a git repository of the corpus copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { goplsIncomingCalls, heritageSubtypes, type TruthCall } from './analysisTruth.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';

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

/** A corpus, or why its tests did not run (said in the describe title and on the console). */
function corpus(name: 'go-std' | 'rxjs', server?: string): { prepared: Corpus | NotRun; notRun?: string; title: string } {
  const prepared: Corpus | NotRun = server && !onPath(server) ? { notRun: `${server} is not on PATH` } : prepareCorpus(name);
  const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
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
    c.dispose();
  });

  it('find_callers on the recursive ast.Walk lists exactly gopls\'s incoming calls, Walk itself and its call sites included', async () => {
    const truth = await goplsIncomingCalls(c.root, 'go/ast/walk.go', 'func Walk(', 'func '.length);
    const data = ok(await agent.call('find_callers', { file_path: 'go/ast/walk.go', position_pattern: 'func @@Walk(' }));
    const calls = data['calls'] as Call[];
    const ours: TruthCall[] = calls.map((e) => ({ name: e.name, file: e.file, sites: e.call_sites.map((s) => `${s.line}:${s.column}`).sort() }));
    const byKey = (l: TruthCall[]) => l.map((t) => `${t.name} ${t.file} ${t.sites.join(' ')}`).sort();
    expect(truth.some((t) => t.name === 'Walk')).toBe(true);
    expect(byKey(ours)).toEqual(byKey(truth));
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
    c.dispose();
  });

  it('type_hierarchy: Observable\'s subtypes are exactly the types whose heritage clauses name it (transitively), not its type-argument users', async () => {
    const truth = heritageSubtypes(c.root, 'src/internal/Observable.ts', 'Observable', 4);
    const data = ok(await agent.call('type_hierarchy', { file_path: 'src/internal/Observable.ts', position_pattern: 'export class @@Observable<', direction: 'subtypes' }));
    const ours = (data['subtypes'] as TypeEntry[]).map((t) => `${t.level} ${t.name} ${t.file}`).sort();
    expect(truth).toContain('1 Subject src/internal/Subject.ts');
    expect(ours).toEqual(truth);
    expect(ours.join('\n')).not.toMatch(/OperatorFunction/);
  }, 120_000);
});
