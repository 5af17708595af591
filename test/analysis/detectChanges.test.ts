import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
