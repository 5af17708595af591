// Skill phase state belongs to one MCP session: two agents on one `serve --http` process never
// share it, although they share the process, the broker and the language server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { startHttpFront, type HttpFront, type HttpSession } from './httpFront.js';

const FILE = 'python-basic/app/routes.py';
const EDIT = { file_path: FILE, old_text: '    return total\n', new_text: '    return total  # summed\n' };

describe('serve --http: skill phases per session', () => {
  const scope = new BrokerTestScope();
  const fronts: HttpFront[] = [];
  const sessions: HttpSession[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close().catch(() => undefined)));
    for (const f of fronts.splice(0)) await f.stop();
    await scope.cleanup();
  });

  it('a skill activated in one session is not active in another; each session is held to its own phases', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await startHttpFront(home);
    fronts.push(front);
    const a = await front.session();
    sessions.push(a);
    const b = await front.session();
    sessions.push(b);
    expect(b.transport.sessionId).not.toBe(a.transport.sessionId);
    // Clients validate results against the listed output schemas once they have listed the tools.
    await Promise.all([a.client.listTools(), b.client.listTools()]);
    ok(await a.call('start_lsp', { root_dir: root, language_id: 'python' }));
    ok(await b.call('start_lsp', { root_dir: root, language_id: 'python' }));

    expect(ok(await a.call('activate_skill', { skill_name: 'lsp-safe-edit', mode: 'block' }))).toMatchObject({ active: true, skill: 'lsp-safe-edit', phase: 'understand' });
    expect(ok(await b.call('get_skill_phase', {}))).toMatchObject({ ready: true, active: false });

    // A is refused a write in its first phase; the same call in B is not checked at all.
    const refused = await a.call('apply_edit', { ...EDIT, dry_run: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Refused by skill lsp-safe-edit \(mode block, phase_violation\): apply_edit is forbidden now: the skill is in phase "understand"/);
    const free = await b.call('apply_edit', { ...EDIT, dry_run: true });
    expect(free.isError, free.text).toBe(false);
    expect(free.data).toMatchObject({ dry_run: true, applied: false });
    expect(free.data['phase_warning']).toBeUndefined();

    // B's own skill and its progress leave A's untouched, and the other way round.
    ok(await b.call('activate_skill', { skill_name: 'lsp-rename', mode: 'warn' }));
    ok(await b.call('find_references', { file_path: FILE, position_pattern: 'def @@route_length(' }));
    expect(ok(await b.call('get_skill_phase', {}))).toMatchObject({ active: true, skill: 'lsp-rename', phase: 'preview', calls: 1 });
    expect(ok(await a.call('get_skill_phase', {}))).toMatchObject({ active: true, skill: 'lsp-safe-edit', mode: 'block', phase: 'understand', calls: 0 });
    ok(await a.call('preview_edit', { workspace_root: root, language: 'python', ...EDIT }));
    expect(ok(await a.call('get_skill_phase', {}))).toMatchObject({ skill: 'lsp-safe-edit', phase: 'simulate' });
    expect(ok(await b.call('get_skill_phase', {}))).toMatchObject({ skill: 'lsp-rename', phase: 'preview', calls: 1 });

    // Ending B's skill does not end A's; a new session starts with none.
    expect(ok(await b.call('deactivate_skill', {}))).toMatchObject({ active: false, skill: 'lsp-rename' });
    expect(ok(await a.call('get_skill_phase', {}))).toMatchObject({ active: true, skill: 'lsp-safe-edit' });
    const c = await front.session();
    sessions.push(c);
    await c.client.listTools();
    expect(ok(await c.call('get_skill_phase', {}))).toMatchObject({ ready: true, active: false });
    expect(readFileSync(join(root, FILE), 'utf8')).toContain('    return total\n');
  });
});
