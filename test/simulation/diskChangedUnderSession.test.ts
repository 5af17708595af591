// A file a session edited is written on disk afterwards (an editor, git, another agent). The
// session still evaluates its own copy (the old text plus its edits), which is what a session is;
// but that answer is no longer about the file as it is, and must say so rather than stand as sure.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

describe('a file written on disk after a session edited it', () => {
  let agent: AgentLspClient;
  let root: string;
  const routes = () => join(root, 'python-basic', 'app', 'routes.py');

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(root, '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('makes the evaluation partial with a note naming it, and the patch say it is against the old text', async () => {
    const id = ok(await agent.call('create_simulation_session', { workspace_root: root, language: 'python' }))['session_id'] as string;
    ok(await agent.call('simulate_edit', { session_id: id, file_path: 'python-basic/app/routes.py', old_text: 'total = 0.0', new_text: 'total = 0.5' }));
    const sure = ok(await agent.call('evaluate_session', { session_id: id }));
    expect(sure['confidence']).toBe('high');
    writeFileSync(routes(), `${readFileSync(routes(), 'utf8')}\n# edited outside\n`);
    const evaluation = ok(await agent.call('evaluate_session', { session_id: id }));
    expect(evaluation['confidence']).toBe('partial');
    expect((evaluation['notes'] as string[]).join('\n')).toMatch(/python-basic\/app\/routes\.py changed on disk since this session first touched it/);
    const commit = ok(await agent.call('commit_session', { session_id: id }));
    expect(commit['applied']).toBe(false);
    expect(commit['disk_changed']).toEqual(['python-basic/app/routes.py']);
  });
});
