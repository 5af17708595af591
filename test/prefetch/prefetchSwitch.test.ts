// The switch: prefetch is on by default, off with --prefetch off or AGENT_LSP_PREFETCH=off (or 0,
// false, no; the option wins over the environment).
import { afterEach, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const started: AgentLspClient[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.close()));
});

async function enabled(options: { args?: string[]; env?: Record<string, string> }): Promise<unknown> {
  const agent = await startAgentLsp(options);
  started.push(agent);
  return ok(await agent.call('get_speculation_stats', {}))['enabled'];
}

describe('--prefetch', () => {
  it('is on by default, off by option or environment, and the option wins', async () => {
    expect(await enabled({ env: { AGENT_LSP_PREFETCH: '' } })).toBe(true);
    expect(await enabled({ env: { AGENT_LSP_PREFETCH: 'false' } })).toBe(false);
    expect(await enabled({})).toBe(true);
    expect(await enabled({ args: ['--prefetch', 'off'] })).toBe(false);
    expect(await enabled({ env: { AGENT_LSP_PREFETCH: 'off' } })).toBe(false);
    expect(await enabled({ args: ['--prefetch', 'on'], env: { AGENT_LSP_PREFETCH: 'off' } })).toBe(true);
  });

  it('refuses a value other than on or off', async () => {
    await expect(startAgentLsp({ args: ['--prefetch', 'maybe'] })).rejects.toThrow();
  });
});
