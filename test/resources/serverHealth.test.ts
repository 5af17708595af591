// Workspace ready and server health reach the agent as MCP logging messages, honouring logging/setLevel.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, fixtureRoot, killPid, readyDaemon } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isAlive } from '../helpers/processes.js';
import { AgentNews } from './agentNews.js';

const BROKEN = 'python-basic/app/broken.py';

async function serverPid(agent: AgentLspClient, root: string): Promise<number | undefined> {
  const data = ok(await agent.call('start_lsp', { root_dir: root }));
  return (data['servers'] as { pid?: number }[] | undefined)?.[0]?.pid;
}

/** Kills the server by pid and waits for crashed → restarting → recovered; returns the new pid. */
async function killAndWatchRecovery(news: AgentNews, pid: number, mode: string): Promise<number> {
  const from = news.messages.length;
  killPid(pid);
  const recovered = await news.message('server_recovered', from);
  const health = news.messages.slice(from).filter((m) => m.data.type.startsWith('server_'));
  expect(health.map((m) => m.data.type)).toEqual(['server_crashed', 'server_restarting', 'server_recovered']);
  expect(health.map((m) => m.level)).toEqual(['error', 'warning', 'info']);
  expect(health[0]?.data).toMatchObject({ server: 'pyright', mode, pid });
  const newPid = recovered.data['pid'] as number;
  expect(newPid).not.toBe(pid);
  expect(isAlive(newPid)).toBe(true);
  return newPid;
}

describe('server health and readiness notifications (direct mode)', () => {
  let agent: AgentLspClient | undefined;
  let root: string | undefined;
  afterEach(async () => {
    await agent?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('says when pyright is ready, then crashed → restarting → recovered after a kill; at level error only the crash', async () => {
    root = fixtureRoot('python-basic');
    agent = await startAgentLsp();
    const news = new AgentNews(agent);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const ready = await news.message('workspace_ready');
    expect(ready).toMatchObject({ level: 'info', data: { server: 'pyright', mode: 'direct', languages: ['python'] } });
    expect(ready.data['elapsed_ms']).toEqual(expect.any(Number));
    const first = await serverPid(agent, root);
    expect(first).toEqual(expect.any(Number));

    const second = await killAndWatchRecovery(news, first as number, 'direct');
    // The recovered server answers.
    expect(ok(await agent.call('get_diagnostics', { file_path: BROKEN }))['errors']).toBeGreaterThanOrEqual(1);

    await agent.client.setLoggingLevel('error');
    const from = news.messages.length;
    killPid(second);
    const crashed = await news.message('server_crashed', from);
    expect(crashed).toMatchObject({ level: 'error', data: { pid: second } });
    // Wait for the restart to be over, then ask the new server something: whatever it said before this answer has arrived.
    const deadline = Date.now() + 120_000;
    let third = await serverPid(agent, root);
    while (third === undefined || third === second) {
      if (Date.now() > deadline) throw new Error('the server was not restarted');
      await new Promise((r) => setTimeout(r, 200));
      third = await serverPid(agent, root);
    }
    ok(await agent.call('get_diagnostics', { file_path: BROKEN }));
    const after = news.messages.slice(from);
    expect(after.map((m) => m.data.type)).toEqual(['server_crashed']);
  });
});

describe('server health through a shared broker', () => {
  const scope = new BrokerTestScope();
  afterEach(async () => {
    await scope.cleanup();
  });

  it('a front hears that the broker’s server crashed, is restarting and recovered', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home);
    const news = new AgentNews(front);
    ok(await front.call('start_lsp', { root_dir: root, language_id: 'python' }));
    expect((await news.message('workspace_ready')).data).toMatchObject({ server: 'pyright', mode: 'broker' });
    const daemon = await readyDaemon(home, 'python');
    const pid = daemon.server.pid as number;
    expect(await serverPid(front, root)).toBe(pid);
    const recoveredPid = await killAndWatchRecovery(news, pid, 'broker');
    expect(ok(await front.call('get_diagnostics', { file_path: BROKEN }))['errors']).toBeGreaterThanOrEqual(1);

    // Another agent restarts the shared server: this one hears of it too.
    const other = await scope.front(home);
    ok(await other.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const from = news.messages.length;
    ok(await other.call('restart_lsp_server', { language_id: 'python' }));
    const recovered = await news.message('server_recovered', from);
    expect(news.types(from).filter((t) => t.startsWith('server_'))).toEqual(['server_restarting', 'server_recovered']);
    expect(news.messages.slice(from).find((m) => m.data.type === 'server_restarting')?.data['reason']).toMatch(/restart requested by client/);
    expect(recovered.data['pid']).not.toBe(recoveredPid);
  });
});
