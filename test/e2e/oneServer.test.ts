// Tools that ask "which server?" (get_server_capabilities, execute_command) use the only one there
// can be — the one running, else the one server of the workspace's languages — as the original
// agent-lsp does, and name the candidates when there are several.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { EXAMPLE_WORKSPACE, FIXTURES } from '../helpers/paths.js';

describe('one server: inferred when a call names none', () => {
  let agent: AgentLspClient | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it('a Python-only workspace: get_server_capabilities and execute_command go to pyright, started for them', async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: join(FIXTURES, 'python-basic') }));
    const caps = ok(await agent.call('get_server_capabilities', {}));
    expect(caps['server']).toMatch(/pyright/i);
    expect(caps['supported_requests']).toEqual(expect.arrayContaining(['hoverProvider', 'referencesProvider']));
    const organized = await agent.call('execute_command', { command: 'pyright.organizeimports', arguments: [] });
    expect(organized.isError, organized.text).toBe(false);
  });

  it('two languages and nothing running: the error names them; once one runs, it is the one', async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: EXAMPLE_WORKSPACE }));
    const which = await agent.call('get_server_capabilities', {});
    expect(which.isError).toBe(true);
    expect(which.text).toMatch(/No language server is running yet and the workspace has files of \d+ \(.*pyright.*\): pass file_path or language_id to say which\./);
    expect(which.text).toMatch(/typescript/);
    ok(await agent.call('get_diagnostics', { file_path: 'py/shop/pricing.py' }));
    expect(ok(await agent.call('get_server_capabilities', {}))['server']).toMatch(/pyright/i);
    ok(await agent.call('get_diagnostics', { file_path: 'ts/src/cart.ts' }));
    const two = await agent.call('get_server_capabilities', {});
    expect(two.text).toMatch(/^2 language servers are running \(.*\): pass file_path or language_id to say which\./);
  });
});
