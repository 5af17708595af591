// A speculative evaluation whose broker lease runs out mid-way (its front stalled past the lease,
// so the renewal came too late): the broker restored the buffers and let others in, so the
// evaluation must fail with a clear error, never answer as if nothing happened.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';

const FILE = 'python-basic/app/geometry.py';
const EDIT = { file_path: FILE, start_line: 13, start_column: 1, end_line: 14, end_column: 1, new_text: '    return "wrong"\n' };

describe('an evaluation that loses its broker lease', () => {
  const scope = new BrokerTestScope();
  afterEach(async () => {
    await scope.cleanup();
  });

  it('fails with lease_lost and leaves the others on the disk text', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const other = await scope.front(home);
    ok(await other.call('start_lsp', { root_dir: root, language_id: 'python' }));
    ok(await other.call('get_diagnostics', { file_path: FILE }));
    // Leases of 1.5 s renewed every 0.5 s; the evaluation stalls its front for 4 s with the overlay pushed.
    const agent = await startAgentLsp({
      args: ['--daemon', 'auto'],
      env: { AGENT_LSP_HOME: home },
      hooks: { lease: { maxLeaseMs: 1500, renewEveryMs: 500 }, stallSectionMs: 4000 },
    });
    scope.fronts.push(agent);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const disk = readFileSync(join(root, FILE), 'utf8');
    const session = ok(await agent.call('create_simulation_session', { language: 'python' }))['session_id'] as string;
    ok(await agent.call('simulate_edit', { session_id: session, ...EDIT }));

    const evaluated = await agent.call('evaluate_session', { session_id: session, timeout_ms: 30_000 });
    expect(evaluated.isError, evaluated.text).toBe(true);
    expect(evaluated.text).toMatch(/exclusive section was lost mid-evaluation \(.*(expired|renewing it failed|releasing it failed).*\); nothing was applied; call evaluate again/i);

    expect(readFileSync(join(root, FILE), 'utf8')).toBe(disk);
    expect(ok(await other.call('get_diagnostics', { file_path: FILE }))).toMatchObject({ errors: 0 });
  });
});
