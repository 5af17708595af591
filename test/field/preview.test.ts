// preview_edit on real code nobody here wrote (issue 28, items 1 and 2): a breaking edit must never
// come out as a fix because dependents did not settle in time, and a file-scope answer must say
// which other files it did not check when the edit changes a declaration they name. On Go, the
// simulation sessions too: simulate_edit + evaluate_session and simulate_chain's steps against
// `gopls check` of the copy with the edits so far.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPath } from '../helpers/onPath.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { djangoUtilsAndImporters, ENCODING, expectNoFixFromUnexamined, FORCE_STR, naming, type Coverage, type PreviewDiag } from './previewChecks.js';

const django: Corpus | NotRun = prepareCorpus('django');

describe.skipIf(isNotRun(django))(`preview_edit on ${isNotRun(django) ? `Django: not run (${django.notRun})` : `${django.label}: django/utils and the modules naming force_str`}`, () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = djangoUtilsAndImporters(django as Corpus);
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('file scope: making force_str\'s encoding required says which files naming force_str it did not check, and is not high', async () => {
    const answer = await agent.call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR });
    const data = ok(answer);
    const truth = naming(root, 'force_str', '.py', ENCODING);
    expect(truth.length).toBeGreaterThan(10);
    expect(data['confidence'], answer.text).toBe('partial');
    expect(data['changed_declarations']).toEqual(['force_str (encoding.py)']);
    const coverage = data['dependents'] as Coverage;
    expect(coverage).toMatchObject({ found: truth.length, examined: 0, not_examined: truth.length });
    for (const file of coverage.not_examined_sample) expect(truth).toContain(file);
    expect(data['not_examined']).toBe(truth.length);
    expect(answer.text).toMatch(new RegExp(`named in ${truth.length} other file\\(s\\) that file scope did not check.*scope: "workspace"`));
    expect(answer.text).not.toMatch(/^net_delta 0: no new errors \(/m);
  });

  it('workspace scope with a short timeout: dependents that did not settle count for nothing, are listed, and the answer is never a fix', async () => {
    const answer = await agent.call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace', timeout_ms: 3000 });
    expectNoFixFromUnexamined(answer, root);
  });

  it('safe_apply_edit refuses the breaking edit at either scope, writes nothing, and never calls it a fix', async () => {
    const before = readFileSync(join(root, ENCODING), 'utf8');
    for (const args of [{}, { scope: 'workspace', timeout_ms: 3000 }]) {
      const answer = await agent.call('safe_apply_edit', { file_path: ENCODING, ...FORCE_STR, ...args });
      const data = ok(answer);
      expect(data['applied'], answer.text).toBe(false);
      expect(answer.text).toMatch(/^Refused, nothing written/);
      expect(answer.text).not.toMatch(/fix errors|break none/);
      expect(readFileSync(join(root, ENCODING), 'utf8')).toBe(before);
    }
  });
});

const goInstalled = onPath('gopls') && onPath('go');
const goStd: Corpus | NotRun = goInstalled ? prepareCorpus('go-std') : { notRun: 'gopls or go is not installed' };

// At file level, so the copies go even when a filter or a skip leaves a describe's hooks unrun.
afterAll(() => {
  for (const corpus of [django, goStd]) if (!isNotRun(corpus)) corpus.dispose();
});

describe.skipIf(isNotRun(goStd))(`preview_edit on ${isNotRun(goStd) ? `go/ast: not run (${goStd.notRun})` : goStd.label}`, () => {
  let agent: AgentLspClient;
  let root: string;
  let truth: string[];
  const WALK = 'go/ast/walk.go';
  const RENAME = { old_text: 'func Inspect(node Node, f func(Node) bool) {', new_text: 'func InspectX(node Node, f func(Node) bool) {' };

  beforeAll(async () => {
    root = (goStd as Corpus).root;
    truth = brokenByRename(); // before any server watches the files
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'go' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  /** The other files `go build` finds errors in once the rename is on disk (walk.go's text is put back after). */
  function brokenByRename(): string[] {
    const path = join(root, WALK);
    const before = readFileSync(path, 'utf8');
    writeFileSync(path, before.replace(RENAME.old_text, RENAME.new_text));
    try {
      execFileSync('go', ['build', './...'], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
      return [];
    } catch (err) {
      const output = String((err as { stderr?: string }).stderr ?? '');
      return [...new Set([...output.matchAll(/^(?:\.\/)?([\w/]+\.go):\d+:\d+:/gm)].map((m) => m[1] as string))].filter((f) => f !== WALK);
    } finally {
      writeFileSync(path, before);
    }
  }

  /**
   * `file:line` of the errors `edits` introduce (each a text replaced once in a file) in walk.go and
   * the files naming Inspect, by `gopls check` on the copy without and with them on disk (go build
   * stops at go/ast, the package that no longer compiles, and never checks its importers); the
   * files' texts are put back after.
   */
  function errorsIntroducedBy(edits: readonly { file: string; old_text: string; new_text: string }[]): string[] {
    const files = [WALK, ...naming(root, 'Inspect', '.go', WALK)];
    const check = () => {
      const r = spawnSync('gopls', ['check', ...files], { cwd: root, encoding: 'utf8' });
      return [...`${r.stdout}\n${r.stderr}`.matchAll(/^(\S+\.go):(\d+):\d+(?:-\d+)?: (.*)$/gm)].map((m) => `${relative(root, m[1]!)}:${m[2]}`);
    };
    const clean = check();
    const before = new Map(edits.map((e) => [e.file, readFileSync(join(root, e.file), 'utf8')]));
    for (const e of edits) writeFileSync(join(root, e.file), readFileSync(join(root, e.file), 'utf8').replace(e.old_text, e.new_text));
    try {
      return [...new Set(check())].filter((k) => !clean.includes(k)).sort();
    } finally {
      for (const [file, text] of before) writeFileSync(join(root, file), text);
    }
  }

  it('file scope: renaming ast.Inspect says the files that use it were not checked, and is not high', async () => {
    expect(truth.length, 'go build found no file broken by the rename').toBeGreaterThan(0);
    const answer = await agent.call('preview_edit', { language: 'go', file_path: WALK, ...RENAME });
    const data = ok(answer);
    expect(data['confidence'], answer.text).toBe('partial');
    const coverage = data['dependents'] as Coverage;
    expect(coverage.found).toBeGreaterThanOrEqual(truth.length);
    expect(coverage.found).toBe(naming(root, 'Inspect', '.go', WALK).length);
    if (coverage.found <= coverage.not_examined_sample.length) for (const file of truth) expect(coverage.not_examined_sample).toContain(file);
    expect(answer.text).toMatch(/scope: "workspace"/);
  });

  it('workspace scope: renaming ast.Inspect introduces exactly the errors `gopls check` finds in the edited copy', async () => {
    const truth = errorsIntroducedBy([{ file: WALK, ...RENAME }]);
    expect(truth.length, 'gopls check found no error the rename introduces').toBeGreaterThan(0);
    const answer = await agent.call('preview_edit', { language: 'go', file_path: WALK, ...RENAME, scope: 'workspace', timeout_ms: 120_000 });
    const data = ok(answer);
    expect(answer.text).not.toMatch(/fix errors|break none/);
    const complete = data['confidence'] !== 'partial' && (data['not_examined'] as number) === 0;
    const introduced = (data['errors_introduced'] as PreviewDiag[]).map((d) => `${d.file}:${d.line}`);
    judge({ tool: 'preview_edit (workspace scope)', corpus: 'go-std', case: 'ast.Inspect renamed: errors introduced', ...compareSets(introduced, truth, complete) });
    expect(complete, answer.text).toBe(true);
  }, 300_000);

  it('simulate_chain: renaming ast.Inspect, then mending one caller, introduces at each step exactly what `gopls check` finds with the steps so far', async () => {
    // A caller with one call of ast.Inspect: the second step mends it.
    const caller = naming(root, 'Inspect', '.go', WALK).find((f) => readFileSync(join(root, f), 'utf8').split('ast.Inspect(').length === 2);
    expect(caller, 'a file calls ast.Inspect once').toBeDefined();
    const steps = [{ file_path: WALK, ...RENAME }, { file_path: caller!, old_text: 'ast.Inspect(', new_text: 'ast.InspectX(' }];
    const truths = [errorsIntroducedBy([{ file: WALK, ...RENAME }]), errorsIntroducedBy(steps.map((e) => ({ file: e.file_path, old_text: e.old_text, new_text: e.new_text })))];
    expect(truths[1]!.length, 'the second step mends one error').toBe(truths[0]!.length - 1);
    const session = ok(await agent.call('create_simulation_session', { language: 'go' }))['session_id'] as string;
    try {
      const answer = await agent.call('simulate_chain', { session_id: session, edits: steps, scope: 'workspace', timeout_ms: 120_000 });
      const data = ok(answer);
      const outcomes = (data['steps'] as { step: number; errors_introduced: PreviewDiag[]; confidence: string; not_examined: number }[]).map((step, i) => {
        const introduced = step.errors_introduced.map((d) => `${d.file}:${d.line}`);
        const result = compareSets(introduced, truths[i]!, step.confidence !== 'partial' && step.not_examined === 0);
        judge({ tool: 'simulate_chain (workspace scope)', corpus: 'go-std', case: `ast.Inspect renamed, then one caller mended: step ${step.step}`, ...result });
        return result.outcome;
      });
      expect(outcomes, answer.text).toEqual(['exact', 'exact']);
    } finally {
      await agent.call('destroy_session', { session_id: session });
    }
  }, 400_000);

  it('simulate_edit then evaluate_session at workspace scope: the rename introduces exactly what `gopls check` finds', async () => {
    const truth = errorsIntroducedBy([{ file: WALK, ...RENAME }]);
    const session = ok(await agent.call('create_simulation_session', { language: 'go' }))['session_id'] as string;
    try {
      ok(await agent.call('simulate_edit', { session_id: session, file_path: WALK, ...RENAME }));
      const answer = await agent.call('evaluate_session', { session_id: session, scope: 'workspace', timeout_ms: 120_000 });
      const data = ok(answer);
      const introduced = (data['errors_introduced'] as PreviewDiag[]).map((d) => `${d.file}:${d.line}`);
      const complete = data['confidence'] !== 'partial' && (data['not_examined'] as number) === 0;
      judge({ tool: 'evaluate_session (workspace scope)', corpus: 'go-std', case: 'ast.Inspect renamed by simulate_edit: errors introduced', ...compareSets(introduced, truth, complete) });
      expect(complete, answer.text).toBe(true);
    } finally {
      await agent.call('destroy_session', { session_id: session });
    }
  }, 300_000);
});
