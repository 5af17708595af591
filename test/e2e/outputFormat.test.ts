import { describe, expect, it } from 'vitest';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';

describe('the output format (AGENT_LSP_OUTPUT_FORMAT, --output-format), as the original agent-lsp has it', () => {
  it('json: a result\'s text is its structured content as JSON; an error keeps its message', async () => {
    const agent = await startAgentLsp({ env: { AGENT_LSP_OUTPUT_FORMAT: 'json' } });
    try {
      const answer = await agent.call('get_skill_phase', {});
      expect(JSON.parse(answer.text)).toEqual(ok(answer));
      const refused = await agent.call('activate_skill', { skill_name: 'lsp-nothing' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^No skill named lsp-nothing/);
    } finally {
      await agent.close();
    }
  });

  it('text (the default, and --output-format text over the environment): the compact text form', async () => {
    const agent = await startAgentLsp({ args: ['--output-format', 'text'], env: { AGENT_LSP_OUTPUT_FORMAT: 'json' } });
    try {
      const answer = await agent.call('get_skill_phase', {});
      expect(answer.text).toMatch(/^No skill is active\. Skills with phases: .*lsp-refactor, lsp-rename/);
    } finally {
      await agent.close();
    }
  });
});
