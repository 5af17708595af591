import { afterEach, describe, expect, it } from 'vitest';
import type { BrokerStats } from '@agent-lsp/protocol';
import { BrokerTestScope, readyDaemon } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { rawClient } from '../helpers/rawBroker.js';

/**
 * A standalone preview_edit takes one exclusive section on the broker: its baseline is settled
 * inside the evaluation's section, not in a section of its own (which waited for other agents to
 * drain a second time and opened and closed the file twice). The front evaluates in one section
 * (the reference a stepped evaluation is compared with): in steps, how many it takes depends on how
 * long the server needs (test/simulation/steppedEvaluation.test.ts counts those).
 */
describe('a standalone preview_edit through a broker', () => {
  const scope = new BrokerTestScope();
  afterEach(async () => {
    await scope.cleanup();
  });

  it('takes exactly one lease, also on a file whose baseline is not cached yet', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home, [], { hooks: { evaluationStepMs: null } });
    ok(await front.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const daemon = await readyDaemon(home, 'python');
    const observer = await rawClient(daemon.socket, { canPull: true });
    try {
      const leases = async () => (await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null)).leasesGranted;
      for (const [file, line] of [['python-basic/app/geometry.py', 1], ['python-basic/app/routes.py', 1]] as const) {
        const before = await leases();
        const data = ok(
          await front.call('preview_edit', { language: 'python', file_path: file, start_line: line, start_column: 1, end_line: line, end_column: 1, new_text: 'mistake: int = "b"\n', timeout_ms: 30_000 }),
        );
        expect(data).toMatchObject({ net_delta: 1, confidence: 'high' });
        expect(await leases(), `leases taken by one preview_edit of ${file}`).toBe(before + 1);
      }
    } finally {
      observer.close();
    }
  });
});
