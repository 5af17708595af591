import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FAULT_SERVER } from '../helpers/faultServer.js';

// rust-analyzer answers ContentModified while it reloads a workspace (CI saw it on the matrix's
// hover right after start): the agent gets the answer once the server has one, or an error that
// says what happened, never the server's bookkeeping as if it were a failure of the tool.
describe('a server that answers "content modified"', () => {
  let dir: string;
  let agent: AgentLspClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-modified-'));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    writeFileSync(join(dir, 'reloading.fault'), 'MODIFIED 3\n');
    writeFileSync(join(dir, 'forever.fault'), 'MODIFIED 1000\n');
    agent = await startAgentLsp({ args: ['--config', config] });
    ok(await agent.call('start_lsp', { root_dir: dir }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is asked again until it answers', async () => {
    const answer = ok(await agent.call('inspect_symbol', { file_path: 'reloading.fault', line: 1, column: 1 }));
    expect(answer['contents']).toBe('fault-server hover');
  });

  it('still saying so after ~5 s: the call fails saying what it means and to call again', async () => {
    const answer = await agent.call('inspect_symbol', { file_path: 'forever.fault', line: 1, column: 1 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/answered textDocument\/hover 9 times in a row with "content modified".*call again in a few seconds/);
  });
});
