// Long work is never silent (issue 33): a call whose server takes long sends progress at least
// every couple of seconds to a client that gave a progressToken, saying what it waits on. The
// fault server never answers textDocument/definition: the call waits until the client cancels it.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FAULT_SERVER } from '../helpers/faultServer.js';

describe('progress of a long call', () => {
  let dir: string;
  let agent: AgentLspClient;
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-heartbeat-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    writeFileSync(join(dir, 'calm.fault'), 'calm words\n');
    agent = await startAgentLsp({ args: ['--config', config], env: { AGENT_LSP_DAEMON: 'never' } });
    ok(await agent.call('start_lsp', { root_dir: dir }));
  });
  afterAll(async () => {
    await agent?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says what it waits on, again and again, until the client cancels it', async () => {
    const messages: string[] = [];
    const cancel = new AbortController();
    const call = agent.client.callTool({ name: 'go_to_definition', arguments: { file_path: 'calm.fault', line: 1, column: 2 } }, undefined, {
      signal: cancel.signal,
      timeout: 20_000,
      onprogress: (p) => {
        messages.push(p.message ?? '');
        if (messages.filter((m) => m.includes('waiting for')).length >= 3) cancel.abort();
      },
    });
    await expect(call).rejects.toThrow();
    const waits = messages.filter((m) => m.includes('waiting for'));
    expect(waits.length).toBeGreaterThanOrEqual(3);
    for (const m of waits) expect(m).toMatch(/^go_to_definition: waiting for .+ to answer textDocument\/definition \(\d+ s\); \d+ s so far$/);
  });
});
