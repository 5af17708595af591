import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * detect_changes on a temporary git repository (a copy of a call-graph fixture, committed), after
 * changing a signature (load_rows: used by service only, no test), a body (summarize: used by
 * cli and by a test) and a body nobody outside its file uses (describe).
 */

interface Changed {
  name: string;
  file: string;
  line: number;
  found_by?: string;
  change: string;
  risk: string;
  test_references: number;
  non_test_references: number;
  used_in: { file: string; test: boolean }[];
}

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
}

function edit(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} not in ${path}`);
  writeFileSync(path, text.replace(from, to));
}

const LANGUAGES = [
  {
    language: 'python',
    fixture: 'py-graph',
    store: 'graph/store.py',
    service: 'graph/service.py',
    cli: 'graph/cli.py',
    test: 'tests/test_service.py',
    names: { loadRows: 'load_rows', summarize: 'summarize', describe: 'describe' },
    signature: ['def load_rows(path: str) -> list[str]:', 'def load_rows(path: str, sep: str = ",") -> list[str]:'],
    body: ['        total += 1', '        total += 2'],
    otherBody: ['return "rows: "', 'return "count: "'],
  },
  {
    language: 'typescript',
    fixture: 'ts-graph',
    store: 'src/store.ts',
    service: 'src/service.ts',
    cli: 'src/cli.ts',
    test: 'tests/service.test.ts',
    names: { loadRows: 'loadRows', summarize: 'summarize', describe: 'describe' },
    signature: ['export function loadRows(path: string): string[] {', "export function loadRows(path: string, sep = ','): string[] {"],
    body: ['  return rows.length;', '  return rows.length + 0;'],
    otherBody: ["return 'rows: '", "return 'count: '"],
  },
];

describe.each(LANGUAGES)('detect_changes with $language', (fx) => {
  let agent: AgentLspClient;
  let repo: string;
  let plain: string;
  const n = fx.names;

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'agent-lsp-changes-'));
    cpSync(join(FIXTURES, fx.fixture), repo, { recursive: true });
    gitIn(repo, 'init', '-q');
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', 'fixture');
    edit(join(repo, fx.store), fx.signature[0] as string, fx.signature[1] as string);
    edit(join(repo, fx.service), fx.body[0] as string, fx.body[1] as string);
    edit(join(repo, fx.service), fx.otherBody[0] as string, fx.otherBody[1] as string);
    gitIn(repo, 'add', fx.store);
    plain = mkdtempSync(join(tmpdir(), 'agent-lsp-nogit-'));
    cpSync(join(FIXTURES, fx.fixture), plain, { recursive: true });
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: repo, language_id: fx.language }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(repo, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  });

  it('finds the changed symbols, who uses them, and rates the risk by the stated rule', async () => {
    const data = ok(await agent.call('detect_changes', {}));
    expect(data['risk_rule']).toMatch(/^high: used by non-test code/);
    const symbols = data['symbols'] as Changed[];
    expect(symbols.map((s) => `${s.name} ${s.change} ${s.risk} ${s.non_test_references} ${s.test_references}`)).toEqual([
      // The signature changed and service uses it (import and call); no test does.
      `${n.loadRows} signature high 2 0`,
      // Only the body changed; cli and a test use it (import and call each).
      `${n.summarize} body medium 2 2`,
      `${n.describe} body low 0 0`,
    ]);
    expect(symbols[1]?.used_in.map((f) => `${f.file} ${f.test}`)).toEqual([`${fx.cli} false`, `${fx.test} true`]);
    expect((data['changed_files'] as { file: string }[]).map((f) => f.file).sort()).toEqual([fx.service, fx.store].sort());
  });

  it('with staged: true sees only what was staged', async () => {
    const data = ok(await agent.call('detect_changes', { staged: true }));
    expect((data['symbols'] as Changed[]).map((s) => s.name)).toEqual([n.loadRows]);
  });

  it('refuses an unknown ref, naming it', async () => {
    const answer = await agent.call('detect_changes', { base: 'no-such-branch' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/Unknown git ref "no-such-branch"/);
  });

  it('refuses a workspace outside any git repository', async () => {
    ok(await agent.call('start_lsp', { root_dir: plain, language_id: fx.language }));
    const answer = await agent.call('detect_changes', {});
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/is not inside a git repository/);
    ok(await agent.call('start_lsp', { root_dir: repo, language_id: fx.language }));
  });
});

/**
 * Both sides of the diff: a function removed (its importer keeps using it), the unchanged function
 * beside it, a file deleted, and a file renamed with git mv.
 */
const DELETIONS = [
  {
    language: 'python',
    fixture: 'py-graph',
    store: 'graph/store.py',
    service: 'graph/service.py',
    tree: 'graph/tree.py',
    renamed: ['graph/cli.py', 'graph/app.py'],
    moved: ['graph/shapes.py', 'graph/geometry.py', 'graph/shape_uses.py'],
    removed: ['\n\ndef normalize(rows: list[str]) -> list[str]:\n    return [row.strip() for row in rows]\n', '\n'],
    names: { loadRows: 'load_rows', normalize: 'normalize', tree: ['TreeNode', 'deepest', 'depth', 'is_even', 'is_odd'] },
  },
  {
    language: 'typescript',
    fixture: 'ts-graph',
    store: 'src/store.ts',
    service: 'src/service.ts',
    tree: 'src/tree.ts',
    renamed: ['src/cli.ts', 'src/app.ts'],
    moved: ['src/shapes.ts', 'src/geometry.ts', 'src/shapeUses.ts'],
    removed: ['\nexport function normalize(rows: string[]): string[] {\n  return rows.map((row) => row.trim());\n}\n', ''],
    names: { loadRows: 'loadRows', normalize: 'normalize', tree: ['TreeNode', 'deepest', 'depth', 'isEven', 'isOdd'] },
  },
];

describe.each(DELETIONS)('detect_changes reads what was removed, with $language', (fx) => {
  let agent: AgentLspClient;
  let repo: string;
  let answer: Changed[];
  let files: { file: string; status: string; from?: string }[];

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'agent-lsp-removed-'));
    cpSync(join(FIXTURES, fx.fixture), repo, { recursive: true });
    gitIn(repo, 'init', '-q');
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', 'fixture');
    edit(join(repo, fx.store), fx.removed[0] as string, fx.removed[1] as string);
    unlinkSync(join(repo, fx.tree));
    gitIn(repo, 'mv', fx.renamed[0] as string, fx.renamed[1] as string);
    gitIn(repo, 'mv', fx.moved[0] as string, fx.moved[1] as string);
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: repo, language_id: fx.language }));
    const data = ok(await agent.call('detect_changes', {}));
    answer = data['symbols'] as Changed[];
    files = data['changed_files'] as typeof files;
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('reports a removed function as removed, with the file that still uses it, and not its unchanged neighbour', () => {
    const normalize = answer.find((s) => s.name === fx.names.normalize);
    expect(normalize).toMatchObject({ change: 'removed', file: fx.store, risk: 'high', found_by: 'unresolved_name' });
    expect(normalize?.used_in.map((f) => f.file)).toEqual([fx.service]);
    expect(normalize?.non_test_references).toBeGreaterThanOrEqual(1);
    expect(answer.map((s) => s.name)).not.toContain(fx.names.loadRows);
  });

  it('counts every symbol of a deleted file as removed', () => {
    const removed = answer.filter((s) => s.file === fx.tree);
    expect(removed.map((s) => `${s.name} ${s.change}`).sort()).toEqual(fx.names.tree.map((n) => `${n} removed`).sort());
    expect(files).toContainEqual(expect.objectContaining({ file: fx.tree, status: 'deleted' }));
  });

  it('a renamed module: the symbol an importer still imports from the old path is moved, with that importer; the others are not', () => {
    const moved = answer.filter((s) => s.file === fx.moved[1] || s.file === fx.moved[0]);
    expect(moved.map((s) => `${s.name} ${s.change} ${s.file}`)).toEqual([`Shape moved ${fx.moved[1]}`]);
    expect(moved[0]?.used_in.map((f) => f.file)).toEqual([fx.moved[2]]);
  });

  it('reads a renamed file against its old path: the same symbols, nothing changed', () => {
    expect(files).toContainEqual(expect.objectContaining({ file: fx.renamed[1], status: 'renamed', from: fx.renamed[0] }));
    expect(answer.filter((s) => s.file === fx.renamed[1] || s.file === fx.renamed[0])).toEqual([]);
  });
});
