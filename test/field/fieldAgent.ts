// The agent a field test file asks: bin/agent-lsp over stdio with its home beside the corpus copy
// (removed with it), started on the copy with one language's server before the describe's tests
// and closed after them.
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

/**
 * Call inside a describe, after any beforeAll that must run before a server watches the files
 * (hooks run in the order they were registered). `root` is read when the hook runs.
 */
export function fieldAgent(root: () => string, language: string): () => AgentLspClient {
  let agent: AgentLspClient | undefined;
  beforeAll(async () => {
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root()), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root(), language_id: language }));
  }, 600_000);
  afterAll(async () => {
    await agent?.close();
  });
  return () => {
    if (!agent) throw new Error('the agent did not start');
    return agent;
  };
}
