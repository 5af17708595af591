// A killed broker is survived: the front's next call starts a new broker and answers.
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, EXPECTED_REFERENCES, PYTHON_DISTANCE, readyDaemon, referenceCount } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('when the broker is killed', () => {
  it('the next front call spawns a new broker and answers completely', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    // Without the query cache: an identical query may otherwise be answered from it (rightly: the
    // disk did not change) before the front notices the broker is gone, and no broker would start.
    const front = await scope.front(home, ['--prefetch', 'off']);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const first = await readyDaemon(home, 'python');
    process.kill(first.broker.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(first.broker.pid), 10_000, 'the broker to die');
    // Its pyright loses its parent; end it too so only the front can bring the service back.
    if (first.server.pid !== undefined && isAlive(first.server.pid)) process.kill(first.server.pid, 'SIGKILL');

    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const second = await readyDaemon(home, 'python');
    expect(second.broker.pid).not.toBe(first.broker.pid);
  });
});
