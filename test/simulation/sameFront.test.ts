// One front, two calls at once: a query during a speculative evaluation neither sees the overlay
// nor puts the disk text back under it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { waitUntil } from '../helpers/processes.js';

describe('a query of the same front during a speculative evaluation', () => {
  let agent: AgentLspClient;
  let root: string;
  let scratch: string;
  let marker: string;

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    scratch = mkdtempSync(join(tmpdir(), 'agent-lsp-same-front-'));
    marker = join(scratch, 'in-section');
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(scratch, 'home') }, hooks: { holdSectionMs: 1500, sectionMarker: marker } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
    // Take the baseline first, so the held section below is the evaluation itself.
    ok(await agent.call('get_diagnostics', { file_path: 'python-basic/app/routes.py' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('waits for the evaluation, answers for the disk text, and leaves the evaluation intact', async () => {
    const preview = agent.call('preview_edit', {
      workspace_root: root,
      language: 'python',
      file_path: 'python-basic/app/routes.py',
      old_text: 'return total',
      new_text: 'return "total"',
    });
    await waitUntil(() => existsSync(marker), 60_000, 'the evaluation to hold its section');
    const diagnostics = await agent.call('get_diagnostics', { file_path: 'python-basic/app/routes.py' });
    const evaluated = ok(await preview);
    expect(evaluated['net_delta']).toBe(1);
    expect(ok(diagnostics)).toMatchObject({ errors: 0 });
    expect(existsSync(marker)).toBe(false);
  });
});
