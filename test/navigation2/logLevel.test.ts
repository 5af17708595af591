// set_log_level and MCP logging/setLevel: agent-lsp's own log reaches the MCP client as
// notifications/message, from the chosen level up, and nothing before a level is chosen.
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

describe('log notifications', () => {
  let agent: AgentLspClient;
  const received: LoggingMessageNotification['params'][] = [];
  const take = () => received.splice(0, received.length);

  beforeAll(async () => {
    agent = await startAgentLsp();
    agent.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      received.push(n.params);
    });
  });
  afterAll(async () => {
    await agent.close();
  });

  it('sends none until the client chooses a level', async () => {
    ok(await agent.call('list_workspace_folders', {}));
    expect(take()).toEqual([]);
  });

  it('after logging/setLevel debug: the debug entry of each tool call arrives (before its answer)', async () => {
    await agent.client.setLoggingLevel('debug');
    ok(await agent.call('list_workspace_folders', {}));
    expect(take()).toContainEqual({ level: 'debug', logger: 'front/list_workspace_folders', data: 'called' });
  });

  // The same calls log 'called' at debug (the tests before and after show it).
  it('after set_log_level error: no debug or info entries arrive', async () => {
    const answer = ok(await agent.call('set_log_level', { level: 'error' }));
    expect(answer).toEqual({ level: 'error' });
    take();
    ok(await agent.call('list_workspace_folders', {}));
    ok(await agent.call('list_workspace_folders', {}));
    expect(take().filter((n) => n.level !== 'error')).toEqual([]);
  });

  it('set_log_level debug turns them on again; an unknown level is refused', async () => {
    ok(await agent.call('set_log_level', { level: 'debug' }));
    ok(await agent.call('list_workspace_folders', {}));
    expect(take()).toContainEqual({ level: 'debug', logger: 'front/list_workspace_folders', data: 'called' });
    const bad = await agent.call('set_log_level', { level: 'verbose' });
    expect(bad.isError).toBe(true);
  });
});
