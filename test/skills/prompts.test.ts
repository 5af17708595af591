import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinSkills } from '@agent-lsp/skills';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

describe('skills as MCP prompts', () => {
  let agent: AgentLspClient;
  beforeAll(async () => {
    agent = await startAgentLsp();
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('declares prompts and lists every skill with its arguments', async () => {
    expect(agent.client.getServerCapabilities()?.prompts).toBeDefined();
    const { prompts } = await agent.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(builtinSkills().map((s) => s.name).sort());
    expect(prompts.length).toBeGreaterThanOrEqual(20);
    expect(prompts.find((p) => p.name === 'lsp-rename')).toMatchObject({
      title: 'Rename a symbol',
      arguments: [
        { name: 'symbol', required: true },
        { name: 'new_name', required: true },
        { name: 'file_path', required: false },
      ],
    });
    for (const p of prompts) expect(p.description?.length).toBeGreaterThan(20);
  });

  it('renders a skill with its arguments filled in', async () => {
    const result = await agent.client.getPrompt({ name: 'lsp-rename', arguments: { symbol: 'route_length', new_name: 'path_length' } });
    const [message] = result.messages;
    expect(message?.role).toBe('user');
    const text = message?.content.type === 'text' ? message.content.text : '';
    expect(text).toContain('# Rename a symbol');
    expect(text).toContain('Rename route_length to path_length (hint: (no file_path given))');
    expect(text).toContain('`rename_symbol {file_path, position_pattern, new_name: path_length, dry_run: true}`');
    expect(text).toContain('activate_skill {skill_name: lsp-rename}');
    expect(text).not.toContain('{{');
  });

  it('refuses a missing required argument, an unknown argument and an unknown prompt with a clear error', async () => {
    await expect(agent.client.getPrompt({ name: 'lsp-rename', arguments: { symbol: 'route_length' } })).rejects.toThrow(/lsp-rename needs new_name \(arguments: symbol, new_name, file_path\?\)/);
    await expect(agent.client.getPrompt({ name: 'lsp-rename', arguments: { symbol: 'a', new_name: 'b', colour: 'red' } })).rejects.toThrow(/does not take colour/);
    await expect(agent.client.getPrompt({ name: 'lsp-nothing' })).rejects.toThrow(/No prompt named lsp-nothing\. Prompts: .*lsp-safe-edit/);
  });
});
