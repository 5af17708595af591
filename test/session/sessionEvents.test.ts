// The speculative sessions' lifecycle as MCP log messages (seed 001, Observability; the original
// agent-lsp's session.* events): logger `session`, debug for the lifecycle, sent only to a client
// that chose a level that lets them through.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

describe('session.* log events', () => {
  let agent: AgentLspClient;
  let root: string;
  const events: Record<string, unknown>[] = [];

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-session-events-')));
    cpSync(join(FIXTURES, 'python-basic'), root, { recursive: true });
    agent = await startAgentLsp();
    agent.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'session') events.push({ level: n.params.level, ...(n.params.data as Record<string, unknown>) });
    });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  const session = async () => ok(await agent.call('create_simulation_session', { workspace_root: root, language: 'python' }))['session_id'] as string;

  it('says nothing to a client that chose no level', async () => {
    const id = await session();
    ok(await agent.call('destroy_session', { session_id: id }));
    expect(events).toEqual([]);
  });

  it('at debug: created, edit_applied, evaluation_start and _complete, discarded, destroyed, in order, with their fields', async () => {
    await agent.client.setLoggingLevel('debug');
    const id = await session();
    const line = readFileSync(join(root, 'app', 'geometry.py'), 'utf8').split('\n')[12] as string;
    ok(await agent.call('simulate_edit', { session_id: id, file_path: 'app/geometry.py', start_line: 13, start_column: 1, end_line: 13, end_column: line.length + 1, new_text: '    return undefined_name' }));
    const evaluated = ok(await agent.call('evaluate_session', { session_id: id }));
    ok(await agent.call('discard_session', { session_id: id }));
    ok(await agent.call('destroy_session', { session_id: id }));
    const mine = events.filter((e) => e['session_id'] === id);
    expect(mine.map((e) => e['event'])).toEqual(['session.created', 'session.edit_applied', 'session.evaluation_start', 'session.evaluation_complete', 'session.discarded', 'session.destroyed']);
    expect(mine.every((e) => e['level'] === 'debug')).toBe(true);
    expect(mine[0]).toMatchObject({ workspace_root: root, language: 'python' });
    expect(mine[1]).toMatchObject({ file: 'app/geometry.py', range: { start_line: 13, start_column: 1, end_line: 13, end_column: line.length + 1 }, version_after: 1 });
    expect(mine[2]).toMatchObject({ edit_count: 1, scope: 'file' });
    expect(mine[3]).toMatchObject({ net_delta: evaluated['net_delta'], confidence: evaluated['confidence'] });
    expect(mine[3]?.['duration_ms']).toBeGreaterThanOrEqual(0);
    expect(mine[4]).toMatchObject({ edit_count: 1 });
    expect(mine[5]).toMatchObject({ reason: 'destroyed' });
  });

  it('a commit says how many files it wrote (none for a patch)', async () => {
    const id = await session();
    ok(await agent.call('simulate_edit', { session_id: id, file_path: 'app/routes.py', start_line: 1, start_column: 1, end_line: 1, end_column: 1, new_text: '# note\n' }));
    ok(await agent.call('commit_session', { session_id: id }));
    expect(events.filter((e) => e['session_id'] === id && e['event'] === 'session.committed')).toEqual([expect.objectContaining({ files_written: 0, level: 'debug' })]);
    ok(await agent.call('destroy_session', { session_id: id }));
  });
});
