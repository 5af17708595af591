import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePythonProject, type GeneratedProject } from '../helpers/generateFixtures.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

/** 160 modules, every 4th uses compute_total: 40 dependent files, more than any fixed cap had. */
const SHAPE = { modules: 160, perPackage: 20, usersEvery: 4 };
const OLD_SIGNATURE = 'def compute_total(prices: list[float], discount: float = 0.0) -> float:';
/** A third parameter without default: every call of compute_total is now an error. */
const NEW_SIGNATURE = 'def compute_total(prices: list[float], discount: float, extra: int) -> float:';

interface Coverage {
  found: number;
  examined: number;
  not_examined: number;
  not_examined_sample: string[];
  problems: string[];
}

/** Calls of compute_total the generator wrote, in the user files and in the defining file. */
function expectedCalls(project: GeneratedProject): { calls: number; userFiles: number } {
  let calls = 0;
  for (const rel of Object.keys(project.expectedByFile)) {
    const text = readFileSync(join(project.root, rel), 'utf8');
    calls += [...text.matchAll(/(?<!def )\bcompute_total\(/g)].length;
  }
  return { calls, userFiles: project.userFiles };
}

describe('workspace-scope evaluation with many dependents (pyright)', () => {
  let agent: AgentLspClient;
  let project: GeneratedProject;
  const file = 'ledger/core/totals.py';
  const preview = (timeout_ms: number) => agent.call('preview_edit', { language: 'python', file_path: file, old_text: OLD_SIGNATURE, new_text: NEW_SIGNATURE, scope: 'workspace', timeout_ms });

  beforeAll(async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-dependents-')));
    project = generatePythonProject(root, SHAPE);
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(root, '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent?.close();
    if (project) rmSync(project.root, { recursive: true, force: true });
  });

  it('past a tiny time budget says partial and how many dependent files it did not examine', async () => {
    const answer = await preview(50);
    const data = ok(answer);
    const coverage = data['dependents'] as Coverage;
    expect(data['confidence']).toBe('partial');
    expect(coverage.not_examined + coverage.problems.length, answer.text).toBeGreaterThan(0);
    if (coverage.not_examined > 0) {
      expect(coverage.not_examined_sample.length).toBeGreaterThan(0);
      // The headline counts every file not examined (past the budget, or not settled in time);
      // the notes say which were past the budget and which did not settle.
      const count = (re: RegExp) => Number(re.exec(answer.text)?.[1] ?? 0);
      const inNotes = count(/(\d+) file\(s\) were not examined/) + count(/(\d+) of \d+ dependent files were not examined within/);
      expect(inNotes, answer.text).toBe(data['not_examined']);
    }
  });

  it('examines every dependent within the budget and counts every error they get', async () => {
    const { calls, userFiles } = expectedCalls(project);
    expect(userFiles).toBe(40);
    const answer = await preview(30_000);
    const data = ok(answer);
    const coverage = data['dependents'] as Coverage;
    expect(coverage, answer.text).toMatchObject({ not_examined: 0, problems: [] });
    expect(coverage.examined).toBeGreaterThanOrEqual(userFiles);
    const introduced = data['errors_introduced'] as { file: string }[];
    expect(new Set(introduced.map((d) => d.file)).size, answer.text).toBe(userFiles + 1);
    expect(introduced.length).toBe(calls);
    expect(data['net_delta']).toBe(calls);
    expect(data['confidence']).toBe('high');
  });

  it('after a failed simulate_edit, evaluates nothing and says so', async () => {
    const session = ok(await agent.call('create_simulation_session', { language: 'python' }))['session_id'] as string;
    const failed = await agent.call('simulate_edit', { session_id: session, file_path: file, old_text: 'no such text', new_text: 'x' });
    expect(failed.isError).toBe(true);
    const answer = await agent.call('evaluate_session', { session_id: session, scope: 'workspace' });
    const data = ok(answer);
    expect(data).toMatchObject({ net_delta: 0, files: [] });
    expect(data['dependents']).toBeUndefined();
    expect(answer.text).toMatch(/Nothing to evaluate/);
  });
});
