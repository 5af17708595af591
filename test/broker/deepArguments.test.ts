// An agent's deeply nested execute_command arguments are its own error: the front refuses them
// before sending, and its broker connection and the shared server live on.
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, EXPECTED_REFERENCES, PYTHON_DISTANCE, readyDaemon, referenceCount } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

/** Arrays nested `depth` levels (3,000 still serializes in the test's own MCP client). */
function deeplyNested(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('execute_command with arguments nested thousands deep', () => {
  it('answers with a clear error; the next call works on the same broker and server', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const before = await readyDaemon(home, 'python');

    const answer = await front.call('execute_command', { command: 'pyright.organizeimports', arguments: [deeplyNested(3000)], language_id: 'python' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/arguments nest deeper than 254 levels/);

    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const after = await readyDaemon(home, 'python');
    expect(after.broker.pid).toBe(before.broker.pid);
    expect(after.server.pid).toBe(before.server.pid);
    expect(after.restarts).toBe(0);
  });
});
