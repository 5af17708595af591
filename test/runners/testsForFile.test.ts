import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { REPO_ROOT } from '../helpers/paths.js';

/** Kept out of test/fixtures: other tests count the languages and files there. */
const RUNNER_FIXTURES = join(REPO_ROOT, 'test', 'runners', 'fixtures');

const goplsInstalled = onPath('gopls') && onPath('go');
if (!goplsInstalled) console.warn('gopls or go is not installed: the Go get_tests_for_file test did not run (apt-get install gopls golang-go)');

describe('get_tests_for_file', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-tests-for-file-'));
    cpSync(RUNNER_FIXTURES, root, { recursive: true });
    agent = await startAgentLsp();
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('Python (pyright): test_ops.py by name and by the symbol it imports, test_usage.py by references only', async () => {
    ok(await agent.call('start_lsp', { root_dir: join(root, 'python') }));
    const answer = await agent.call('get_tests_for_file', { file_path: 'calc/ops.py' });
    const r = ok(answer);
    expect(r['is_test_file']).toBe(false);
    expect(r['tests']).toEqual([
      { file: 'tests/test_ops.py', found_by: ['naming', 'references'], symbols: ['add'] },
      { file: 'tests/test_usage.py', found_by: ['references'], symbols: ['scale'] },
    ]);
    expect(answer.text).toContain('- tests/test_usage.py [references] uses scale');
  });

  it('a file with no tests has none, and a test file says it is one', async () => {
    const none = ok(await agent.call('get_tests_for_file', { file_path: 'calc/__init__.py' }));
    expect(none['tests']).toEqual([]);
    const itself = ok(await agent.call('get_tests_for_file', { file_path: 'tests/test_ops.py' }));
    expect(itself['is_test_file']).toBe(true);
  });

  it.runIf(goplsInstalled)(goplsInstalled ? 'Go (gopls): calc_test.go by name and by its call of Add' : 'Go (gopls NOT INSTALLED — did not run)', async () => {
    ok(await agent.call('start_lsp', { root_dir: join(root, 'go') }));
    const r = ok(await agent.call('get_tests_for_file', { file_path: 'calc.go' }));
    expect(r['tests']).toEqual([{ file: 'calc_test.go', found_by: ['naming', 'references'], symbols: ['Add'] }]);
  });
});
