import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveGroupMembers } from '../../packages/tools/src/runners/processGroup.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

/** Kept out of test/fixtures: other tests count the languages and files there. */
const RUNNER_FIXTURES = join(REPO_ROOT, 'test', 'runners', 'fixtures');

/** A private copy of the runner fixtures: runners run the project's code there. */
function fixtureCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-runners-'));
  cpSync(RUNNER_FIXTURES, root, { recursive: true });
  return root;
}

interface Failure {
  test_id?: string;
  file?: string;
  line?: number;
  message: string;
}

const cInstalled = onPath('make') && onPath('cc');
if (!cInstalled) console.warn('make or cc is not installed: the C run_build test did not run (apt-get install make gcc)');
const goInstalled = onPath('go');
if (!goInstalled) console.warn('go is not installed: the go test/go build runner tests did not run (apt-get install golang-go)');
const goTitle = (what: string) => (goInstalled ? what : `${what} (go NOT INSTALLED — did not run)`);

describe('run_tests and run_build on fixture projects', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = fixtureCopy();
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('Python: the failing test comes back with its file and line (pytest when importable, else unittest)', async () => {
    const r = ok(await agent.call('run_tests', { path: 'python/tests' }));
    expect(['pytest', 'unittest']).toContain(r['runner']);
    expect(r['cwd']).toBe('python');
    expect(r['passed']).toBe(false);
    const failures = r['failures'] as Failure[];
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ file: 'python/tests/test_ops.py', line: 11 });
    expect(failures[0]?.test_id).toMatch(/test_add_wrong/);
    expect(failures[0]?.message).toMatch(/4 != 5/);
  });

  it('Python: test_name runs only the tests it names', async () => {
    const r = ok(await agent.call('run_tests', { workspace_dir: 'python', test_name: 'test_scale' }));
    expect(r['passed']).toBe(true);
    expect(r['failures']).toEqual([]);
  });

  it('node:test through the package.json test script (npm, no lockfile): the failing assertion\'s line', async () => {
    const progress: (string | undefined)[] = [];
    const answer = await agent.call('run_tests', { workspace_dir: 'node' }, { onProgress: (m) => progress.push(m) });
    const r = ok(answer);
    expect(r['runner']).toBe('npm run test');
    expect(r['command']).toEqual([expect.stringMatching(/npm$/), 'run', 'test']);
    expect(r['failures']).toEqual([{ test_id: 'adds wrongly', file: 'node/src/calc.test.mjs', line: 10, column: 10, message: expect.stringContaining('4 !== 5') }]);
    expect(answer.text).toContain('adds wrongly at node/src/calc.test.mjs:10:10');
    expect(progress.some((m) => m?.startsWith('npm run test: '))).toBe(true);
  });

  it.runIf(goInstalled)(goTitle('go test: the failing test with its file and line'), async () => {
    const r = ok(await agent.call('run_tests', { path: 'go' }));
    expect(r['runner']).toBe('go test');
    expect(r['failures']).toEqual([{ test_id: 'TestAddWrong', file: 'go/calc_test.go', line: 13, message: 'Add(2, 2) = 4, want 5' }]);
    const only = ok(await agent.call('run_tests', { path: 'go', test_name: 'TestAdd$' }));
    expect(only['passed']).toBe(true);
  });

  it('run_build type-checks a TypeScript project without a build script and returns the error as a location', async () => {
    const answer = await agent.call('run_build', { workspace_dir: 'ts-error' });
    const r = ok(answer);
    expect(r['runner']).toBe('tsc');
    expect(r['passed']).toBe(false);
    expect(r['failures']).toEqual([
      { file: 'ts-error/src/total.ts', line: 5, column: 14, severity: 'error', message: "TS2322: Type 'number' is not assignable to type 'string'." },
    ]);
    expect(answer.text).toContain('ts-error/src/total.ts:5:14');
  });

  it.runIf(goInstalled)(goTitle('go build passes on a project that compiles'), async () => {
    const r = ok(await agent.call('run_build', { workspace_dir: 'go' }));
    expect(r).toMatchObject({ runner: 'go build', passed: true, exit_code: 0, failures: [] });
  });

  it.runIf(cInstalled)(cInstalled ? 'C: make runs the compiler and its error comes back as a location' : 'C (make or cc NOT INSTALLED — did not run)', async () => {
    const r = ok(await agent.call('run_build', { path: 'c/main.c' }));
    expect(r).toMatchObject({ language: 'cpp', runner: 'make', cwd: 'c', passed: false });
    expect(r['failures']).toEqual([expect.objectContaining({ file: 'c/main.c', line: 6, column: 12, severity: 'error', message: expect.stringMatching(/undeclared.*missing_value|missing_value.*undeclared/) })]);
  });

  it('caps a long output to its head and tail, and still finds the failure', async () => {
    const r = ok(await agent.call('run_tests', { workspace_dir: 'noisy' }));
    expect(r['output_truncated']).toBe(true);
    const output = r['output'] as string;
    expect(output.length).toBeLessThan(20_000);
    expect(output).toMatch(/\n… \d+ characters omitted …\n/);
    expect(output).toContain('progress line 0 of a chatty test');
    expect(r['failures']).toEqual([{ test_id: 'talks a lot, then fails', file: 'noisy/noisy.test.mjs', line: 7, column: 10, message: expect.stringContaining('2 !== 3') }]);
  });

  it('a hanging test is killed at the timeout, with everything it started', async () => {
    const r = ok(await agent.call('run_tests', { workspace_dir: 'hang', timeout_seconds: 5 }));
    expect(r['timed_out']).toBe(true);
    expect(r['passed']).toBe(false);
    const group = r['pid'] as number;
    expect(liveGroupMembers(group)).toEqual([]);
    // The test process and the child it spawned wrote their pids before hanging.
    const pids = readFileSync(join(root, 'hang', 'pids.txt'), 'utf8').trim().split('\n').map(Number);
    expect(pids).toHaveLength(2);
    await waitUntil(() => pids.every((p) => !isAlive(p)), 10_000, 'the hanging test and its child to be gone');
  });

  it('a cancelled call kills the runner\'s process group', async () => {
    const pidsFile = join(root, 'hang', 'pids.txt');
    rmSync(pidsFile, { force: true });
    const abort = new AbortController();
    const call = agent.client.callTool({ name: 'run_tests', arguments: { workspace_dir: 'hang' } }, undefined, { signal: abort.signal, timeout: 300_000 });
    call.catch(() => undefined);
    await waitUntil(() => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length === 2, 60_000, 'the hanging test to start');
    const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number);
    expect(pids.every((p) => isAlive(p))).toBe(true);
    abort.abort();
    await expect(call).rejects.toThrow();
    await waitUntil(() => pids.every((p) => !isAlive(p)), 15_000, 'the cancelled test and its child to be gone');
  });

  it('refuses a workspace_dir outside the roots, and says where it may run', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'agent-lsp-runners-outside-'));
    try {
      const answer = await agent.call('run_tests', { workspace_dir: outside });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/workspace_dir .* is outside the workspace; the workspace roots are: .*add_workspace_folder or start_lsp/);
      const escape = await agent.call('run_build', { workspace_dir: '../..' });
      expect(escape.isError).toBe(true);
      expect(escape.text).toMatch(/outside the workspace/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('says what is missing when a project has no test script', async () => {
    const answer = await agent.call('run_tests', { workspace_dir: 'ts-error' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/has no test script .*add one .*runners\.typescript\.test/);
  });
});

describe('runners from the config file', () => {
  let agent: AgentLspClient;
  let root: string;
  let config: string;

  beforeAll(async () => {
    root = fixtureCopy();
    config = join(root, 'agent-lsp.json');
    writeFileSync(
      config,
      JSON.stringify({
        runners: {
          python: { test: ['python3', '-m', 'unittest'], test_name_flag: '-k' },
          go: { test: ['definitely-not-an-installed-runner', 'test'] },
        },
      }),
    );
    agent = await startAgentLsp({ args: ['--config', config] });
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs the configured command instead of the detected one, and still parses its failures', async () => {
    const r = ok(await agent.call('run_tests', { workspace_dir: 'python' }));
    expect(r['runner']).toBe('configured');
    expect(r['command']).toEqual([expect.stringMatching(/python3$/), '-m', 'unittest']);
    expect(r['failures']).toEqual([
      { test_id: 'tests.test_ops.TestOps.test_add_wrong', file: 'python/tests/test_ops.py', line: 11, message: 'AssertionError: 4 != 5' },
    ]);
    expect(existsSync(join(root, 'python', 'tests', '__pycache__'))).toBe(false);
  });

  it('names a runner that is not installed and says how to fix it', async () => {
    const answer = await agent.call('run_tests', { workspace_dir: 'go' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/definitely-not-an-installed-runner is not installed \(not found on PATH\)\. .*runners\.go\.test/);
  });
});

describe('a runner that is not installed', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = fixtureCopy();
    // Nothing on PATH: no go, no npm, no python3.
    agent = await startAgentLsp({ env: { PATH: join(root, 'no-such-bin') } });
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('is named, with how to install it', async () => {
    const go = await agent.call('run_tests', { workspace_dir: 'go' });
    expect(go.isError).toBe(true);
    expect(go.text).toMatch(/go is not installed \(not found on PATH\)\. Install Go \(https:\/\/go\.dev\/dl\/, or apt-get install golang-go\)/);
    const npm = await agent.call('run_tests', { workspace_dir: 'node' });
    expect(npm.text).toMatch(/npm is not installed \(not found on PATH\)\. Install Node\.js with npm/);
    const python = await agent.call('run_tests', { workspace_dir: 'python' });
    expect(python.text).toMatch(/python3 is not installed \(not found on PATH\)\. Install Python 3/);
  });
});

describe('Python without pytest in the workspace\'s interpreter', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = fixtureCopy();
    // The workspace's interpreter (.venv/bin/python comes first) without site-packages: no pytest,
    // whatever the system Python has.
    const bin = join(root, 'python', '.venv', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'python'), '#!/bin/sh\nexec python3 -S "$@"\n', { mode: 0o755 });
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('falls back to unittest, with the same failure', async () => {
    const r = ok(await agent.call('run_tests', { path: 'python/tests' }));
    expect(r['runner']).toBe('unittest');
    expect(r['command']).toEqual([join(realpathSync(root), 'python', '.venv', 'bin', 'python'), '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.']);
    expect(r['failures']).toEqual([
      { test_id: 'tests.test_ops.TestOps.test_add_wrong', file: 'python/tests/test_ops.py', line: 11, message: 'AssertionError: 4 != 5' },
    ]);
  });
});
