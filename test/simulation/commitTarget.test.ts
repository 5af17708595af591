import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

describe('commit_session with a target directory', () => {
  let agent: AgentLspClient;
  let root: string;
  const original = () => readFileSync(join(root, 'python-basic', 'app', 'routes.py'), 'utf8');
  let before: string;

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    before = original();
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(root, '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes the edited files under the target and leaves the originals alone', async () => {
    const id = ok(await agent.call('create_simulation_session', { workspace_root: root, language: 'python' }))['session_id'] as string;
    ok(await agent.call('simulate_edit', { session_id: id, file_path: 'python-basic/app/routes.py', old_text: 'total = 0.0', new_text: 'total = 0.5' }));
    const data = ok(await agent.call('commit_session', { session_id: id, target: 'out' }));
    expect(data['written_to']).toEqual(['out/python-basic/app/routes.py']);
    expect(readFileSync(join(root, 'out', 'python-basic', 'app', 'routes.py'), 'utf8')).toBe(before.replace('total = 0.0', 'total = 0.5'));
    expect(original()).toBe(before);
  });

  it('refuses a target outside the workspace, writing nothing', async () => {
    const id = ok(await agent.call('create_simulation_session', { workspace_root: root, language: 'python' }))['session_id'] as string;
    ok(await agent.call('simulate_edit', { session_id: id, file_path: 'python-basic/app/routes.py', old_text: 'total = 0.0', new_text: 'total = 1.5' }));
    const answer = await agent.call('commit_session', { session_id: id, target: '../elsewhere' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/outside the workspace/);
    expect(existsSync(join(root, '..', 'elsewhere'))).toBe(false);
    expect(original()).toBe(before);
  });
});
