// The get_daemon_status MCP tool gives an agent the same view as `agent-lsp daemon-status`.
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, EXPECTED_REFERENCES, PYTHON_DISTANCE, readyDaemon, referenceCount } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('get_daemon_status', () => {
  it('lists the broker this agent uses: language, root, readiness, clients, pids, memory', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const info = await readyDaemon(home, 'python');
    const answer = await front.call('get_daemon_status', {});
    const data = ok(answer);
    expect(data['daemons']).toEqual([
      expect.objectContaining({ language: 'python', root, state: 'ready', ready: true, clients: 1, broker_pid: info.broker.pid, server_pid: info.server.pid, rss_mib: expect.any(Number) }),
    ]);
    expect(data['stale']).toEqual([]);
    expect(answer.text).toContain(root);
  });
});
