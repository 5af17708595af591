// A symbol path whose last name is common (`run`, `save`, `__init__`): more files declare it than
// symbol-path tools examine. The one the path's container names must still be found, whatever the
// index's order, and a search that left files unexamined must say so rather than call its
// answer the only one (or call the path unknown).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const PLAIN = 130;

describe(`a Python workspace where ${PLAIN + 2} files declare run`, () => {
  let root: string;
  let agent: AgentLspClient;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-common-names-')));
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'pkg', '__init__.py'), '');
    for (let i = 0; i < PLAIN; i++) writeFileSync(join(root, 'pkg', `m${String(i).padStart(3, '0')}.py`), `def run():\n    return ${i}\n`);
    // Last in every order the index may use.
    writeFileSync(join(root, 'pkg', 'zz_job.py'), 'class Job:\n    def run(self):\n        return "job"\n');
    writeFileSync(join(root, 'pkg', 'zz_other.py'), 'class Other:\n    def run(self):\n        return "other"\n');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('go_to_symbol finds Class.method in the last file, complete and unambiguous', async () => {
    const data = ok(await agent.call('go_to_symbol', { symbol_path: 'Job.run' }));
    expect(data['ambiguous']).toBe(false);
    expect(data['complete']).toBe(true);
    expect((data['definitions'] as { file: string; qualified_name: string }[]).map((d) => `${d.file}:${d.qualified_name}`)).toEqual(['pkg/zz_job.py:Job.run']);
  });

  it('get_symbol_source reads it', async () => {
    const answer = await agent.call('get_symbol_source', { symbol_path: 'Job.run' });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('return "job"');
  });

  it('a module path (m007.run) finds that module\'s function', async () => {
    const data = ok(await agent.call('go_to_symbol', { symbol_path: 'm007.run' }));
    expect((data['definitions'] as { file: string }[]).map((d) => d.file)).toEqual(['pkg/m007.py']);
  });

  it('the bare name says how many files it did not examine and calls itself incomplete', async () => {
    const data = ok(await agent.call('go_to_symbol', { symbol_path: 'run' }));
    expect(data['ambiguous']).toBe(true);
    expect(data['complete']).toBe(false);
    const examined = (data['definitions'] as unknown[]).length;
    expect(examined + (data['unexamined_files'] as number)).toBe(PLAIN + 2);
    const answer = await agent.call('get_symbol_source', { symbol_path: 'run' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/ambiguous: at least \d+ symbols match[\s\S]*\d+ more file\(s\) declare "run" and were not examined/);
  });
});
