import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { waitUntil } from '../helpers/processes.js';

interface Diag {
  file: string;
  line: number;
  message: string;
}

const FILE = 'python-basic/app/geometry.py';
/** Agent A breaks the return type on line 13; agent B adds a bad assignment on line 17. */
const EDIT_A = { file_path: FILE, start_line: 13, start_column: 1, end_line: 14, end_column: 1, new_text: '    return "wrong"\n' };
const EDIT_B = { file_path: FILE, start_line: 16, start_column: 1, end_line: 16, end_column: 1, new_text: 'mistake: int = "b"\n' };

/**
 * Two agents (two front processes) sharing one pyright broker simulate different edits of the same
 * file at the same time. Agent A's front holds its exclusive section for a while (a test hook, read
 * only by the evaluator, that also marks when it holds it), so B's evaluation and a third agent's
 * get_diagnostics are certainly sent while A's edit is in the server.
 */
describe('speculative sessions of two agents on one broker', () => {
  const scope = new BrokerTestScope();
  afterEach(async () => {
    await scope.cleanup();
  });

  it('never see each other\'s edits, and a third agent sees only the disk', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const marker = join(home, 'a-holds-its-section');
    // C starts the broker. A front that connects while pyright has not yet registered pull
    // diagnostics never learns of the registration (reported to the broker's owner), so A and B
    // connect once C has seen diagnostics settle.
    const c = await scope.front(home);
    ok(await c.call('start_lsp', { root_dir: root, language_id: 'python' }));
    ok(await c.call('get_diagnostics', { file_path: FILE }));
    const a: AgentLspClient = await startAgentLsp({
      args: ['--daemon', 'auto'],
      env: { AGENT_LSP_HOME: home },
      hooks: { holdSectionMs: 3000, sectionMarker: marker },
    });
    scope.fronts.push(a);
    const b = await scope.front(home);
    for (const agent of [a, b]) ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const disk = readFileSync(join(root, FILE), 'utf8');

    const sessionA = ok(await a.call('create_simulation_session', { language: 'python' }))['session_id'] as string;
    const sessionB = ok(await b.call('create_simulation_session', { language: 'python' }))['session_id'] as string;
    ok(await a.call('simulate_edit', { session_id: sessionA, ...EDIT_A }));
    ok(await b.call('simulate_edit', { session_id: sessionB, ...EDIT_B }));
    expect(existsSync(marker)).toBe(false);

    const evalA = a.call('evaluate_session', { session_id: sessionA, timeout_ms: 30_000 });
    // Should A's evaluation end without ever holding its section, say how instead of timing out.
    let held = false;
    const endedEarly = evalA.then((r) => {
      if (!held) throw new Error(`agent A's evaluation ended before it held its section: ${r.text}`);
    });
    await Promise.race([waitUntil(() => existsSync(marker), 60_000, 'agent A to hold its exclusive section').then(() => (held = true)), endedEarly]);
    const evalB = b.call('evaluate_session', { session_id: sessionB, timeout_ms: 30_000 });
    const diagsC = c.call('get_diagnostics', { file_path: FILE });
    const [resultA, resultB, resultC] = await Promise.all([evalA, evalB, diagsC]);

    const introducedA = ok(resultA)['errors_introduced'] as Diag[];
    const introducedB = ok(resultB)['errors_introduced'] as Diag[];
    expect(introducedA.map((d) => d.line), `agent A: ${resultA.text}`).toEqual([13]);
    expect(introducedA[0]?.message).toMatch(/"float"/);
    expect(introducedB.map((d) => d.line), `agent B: ${resultB.text}`).toEqual([16]);
    expect(introducedB[0]?.message).toMatch(/"int"/);
    expect(ok(resultA)).toMatchObject({ net_delta: 1, settled_by: 'pull', confidence: 'high' });
    expect(ok(resultB)).toMatchObject({ net_delta: 1, settled_by: 'pull', confidence: 'high' });
    expect(ok(resultC)).toMatchObject({ errors: 0, total: 0 });
    expect(readFileSync(join(root, FILE), 'utf8')).toBe(disk);

    // After both sections, every agent still sees the disk state.
    for (const agent of [a, b, c]) expect(ok(await agent.call('get_diagnostics', { file_path: FILE }))).toMatchObject({ errors: 0 });
  });
});
