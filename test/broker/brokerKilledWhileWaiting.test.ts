// A broker killed while a query waits for its readiness: the query is answered by a new broker
// (the file is opened again there), never told that the file — still on disk — was removed.
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, daemonsByLanguage, EXPECTED_REFERENCES, PYRIGHT, PYTHON_DISTANCE, readyDaemon, serverPids } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
}

describe('when the broker is killed during the readiness wait of a query', () => {
  it('the query is answered completely by a new broker', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home);
    // The root only: the server starts with the first query, which then waits for its indexing.
    ok(await front.call('start_lsp', { root_dir: root }));

    const killed: number[] = [];
    // The front reports progress only while it waits for readiness: the broker dies right then.
    const onProgress = () => {
      if (killed.length > 0) return;
      const broker = daemonsByLanguage(home).get('python')?.broker.pid;
      if (broker === undefined) return;
      killed.push(broker, ...serverPids(home, PYRIGHT));
      for (const pid of killed) killQuietly(pid);
    };
    const answer = await front.call('find_references', { ...PYTHON_DISTANCE, ready_timeout_seconds: 60 }, { onProgress });
    expect(killed.length, 'the query waited for readiness and the broker was killed meanwhile').toBeGreaterThan(0);
    expect(answer.text).not.toMatch(/removed/);
    const data = ok(answer);
    expect(data['complete']).toBe(true);
    expect(data['total']).toBe(EXPECTED_REFERENCES);

    await waitUntil(() => killed.every((pid) => !isAlive(pid)), 10_000, 'the killed processes to exit');
    const second = await readyDaemon(home, 'python');
    expect(second.broker.pid).not.toBe(killed[0]);
  });
});
