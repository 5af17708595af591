// Phase enforcement over MCP, as agents see it: two fronts, each its own MCP server and its own
// phase state, editing their own copies of the Python fixture with the real pyright.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const FILE = 'python-basic/app/routes.py';
const edit = { file_path: FILE, old_text: '    return total\n', new_text: '    return total  # summed\n' };

describe('skill phases', () => {
  let first: AgentLspClient;
  let second: AgentLspClient;
  let firstRoot: string;
  let secondRoot: string;
  let auditDir: string;

  beforeAll(async () => {
    auditDir = mkdtempSync(join(tmpdir(), 'agent-lsp-phase-audit-'));
    firstRoot = fixtureRoot('python-basic');
    secondRoot = fixtureRoot('python-basic');
    [first, second] = await Promise.all([startAgentLsp({ args: ['--audit-log', join(auditDir, 'audit.jsonl')] }), startAgentLsp()]);
    // Clients validate results against the listed output schemas once they have listed the tools.
    await Promise.all([first.client.listTools(), second.client.listTools()]);
    ok(await first.call('start_lsp', { root_dir: firstRoot, language_id: 'python' }));
    ok(await second.call('start_lsp', { root_dir: secondRoot, language_id: 'python' }));
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    rmSync(firstRoot, { recursive: true, force: true });
    rmSync(secondRoot, { recursive: true, force: true });
    rmSync(auditDir, { recursive: true, force: true });
  });

  it('block mode refuses apply_edit before preview_edit in lsp-safe-edit, writing nothing, and allows it after', async () => {
    const activated = ok(await first.call('activate_skill', { skill_name: 'safe-edit', mode: 'block' }));
    expect(activated).toMatchObject({ active: true, skill: 'lsp-safe-edit', mode: 'block', phase: 'understand', phase_index: 1, phases: ['understand', 'simulate', 'apply', 'verify'] });

    const refused = await first.call('apply_edit', edit);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('phase "understand"');
    expect(refused.text).toContain('apply_edit belongs to the later phase');
    expect(refused.text).toMatch(/Allowed now: .*inspect_symbol/);
    expect(refused.text).toContain('To advance to "simulate", call preview_edit or create_simulation_session');
    expect(readFileSync(join(firstRoot, FILE), 'utf8')).toContain('    return total\n');
    const audit = readFileSync(join(auditDir, 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; outcome: string; error?: string });
    expect(audit.at(-1)).toMatchObject({ tool: 'apply_edit', outcome: 'error', error: expect.stringContaining('Refused by skill lsp-safe-edit') });

    // Lifecycle tools are never out of order; reading is allowed in the first phase.
    ok(await first.call('list_symbols', { file_path: FILE }));
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ phase: 'understand', calls: 1 });

    const preview = ok(await first.call('preview_edit', { workspace_root: firstRoot, language: 'python', ...edit }));
    expect(preview['net_delta']).toBe(0);
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ phase: 'simulate', phase_index: 2, advance_on: expect.arrayContaining(['apply_edit(!dry_run)', 'commit_session(apply)', 'safe_apply_edit', 'replace_symbol_body']) });

    const applied = await first.call('apply_edit', edit);
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.data['phase_warning']).toBeUndefined();
    expect(readFileSync(join(firstRoot, FILE), 'utf8')).toContain('return total  # summed');
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ phase: 'apply' });

    ok(await first.call('get_diagnostics', { file_path: FILE }));
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ phase: 'verify', phase_index: 4 });
  });

  it('the other front has its own state: no skill active there, its calls run unchecked', async () => {
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ active: true, skill: 'lsp-safe-edit' });
    expect(ok(await second.call('get_skill_phase', {}))).toMatchObject({ ready: true, active: false });
    // The first front is in its last phase, where block mode refuses apply_edit; here it runs.
    const refusedThere = await first.call('apply_edit', { ...edit, dry_run: true });
    expect(refusedThere.text).toMatch(/^Refused by skill lsp-safe-edit \(mode block, phase_violation\): apply_edit is forbidden now: the skill is in phase "verify"/);
    const answer = await second.call('apply_edit', { ...edit, dry_run: true });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.text).not.toContain('phase');
    expect(answer.data).toMatchObject({ dry_run: true });
    expect(answer.data['phase_warning']).toBeUndefined();
  });

  it('warn mode lets an out-of-order call through with the warning in text and structured content', async () => {
    ok(await second.call('activate_skill', { skill_name: 'lsp-safe-edit' }));
    const answer = await second.call('apply_edit', edit);
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.text).toMatch(/^Skill lsp-safe-edit phase warning: the skill is in phase "understand"/);
    expect(String(answer.data['phase_warning'])).toContain('apply_edit belongs to the later phase');
    expect(answer.data['applied']).toBe(true);
    expect(readFileSync(join(secondRoot, FILE), 'utf8')).toContain('return total  # summed');
    // The tracker follows the agent: the write moved the skill on to the phase after it.
    expect(ok(await second.call('get_skill_phase', {}))).toMatchObject({ mode: 'warn', phase: 'apply', warnings: 1 });
    // The first front's block mode is untouched by the second's warn mode.
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ mode: 'block', phase: 'verify', warnings: 0 });
  });

  it('deactivate_skill ends enforcement; a skill without phases or an unknown one is refused clearly', async () => {
    const ended = ok(await first.call('deactivate_skill', {}));
    expect(ended).toMatchObject({ active: false, deactivated: true, skill: 'lsp-safe-edit', phase: 'verify' });
    expect(ok(await first.call('deactivate_skill', {}))).toMatchObject({ deactivated: false });
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ active: false, available: ['lsp-concurrency-audit', 'lsp-refactor', 'lsp-rename', 'lsp-safe-edit', 'lsp-verify'] });
    const free = await first.call('apply_edit', { file_path: FILE, old_text: '  # summed\n', new_text: '\n' });
    expect(free.isError, free.text).toBe(false);
    const noPhases = await first.call('activate_skill', { skill_name: 'lsp-explore' });
    expect(noPhases.isError).toBe(true);
    expect(noPhases.text).toMatch(/lsp-explore has no phases to enforce\. Skills with phases: .*lsp-rename/);
    const unknown = await first.call('activate_skill', { skill_name: 'lsp-nothing' });
    expect(unknown.text).toMatch(/No skill named lsp-nothing \(unknown skill\)/);
  });

  it('lsp-rename in block mode refuses the real rename before its dry run, and allows it after', async () => {
    const activated = ok(await first.call('activate_skill', { skill_name: 'lsp-rename', mode: 'block' }));
    expect(activated).toMatchObject({ activated: true, prerequisites: ['find_references'] });
    // Another skill does not silently replace the active one (the original's answer: already active).
    const other = await first.call('activate_skill', { skill_name: 'lsp-refactor' });
    expect(other.isError).toBe(true);
    expect(other.text).toContain('Skill lsp-rename is already active (phase "locate"); call deactivate_skill first');
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ skill: 'lsp-rename', mode: 'block' });
    const at = { file_path: FILE, position_pattern: 'def @@route_length(' };
    ok(await first.call('find_references', at));
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ phase: 'preview' });
    const early = await first.call('rename_symbol', { ...at, new_name: 'path_length' });
    expect(early.isError).toBe(true);
    expect(early.text).toContain('rename_symbol belongs to the later phase "apply"');
    expect(early.text).toContain('To advance to "apply", call rename_symbol with dry_run.');
    expect(readFileSync(join(firstRoot, FILE), 'utf8')).toContain('def route_length(');
    const preview = ok(await first.call('rename_symbol', { ...at, new_name: 'path_length', dry_run: true }));
    expect(preview['applied']).toBe(false);
    ok(await first.call('rename_symbol', { ...at, new_name: 'path_length' }));
    expect(readFileSync(join(firstRoot, FILE), 'utf8')).toContain('def path_length(');
    expect(ok(await first.call('deactivate_skill', {}))).toMatchObject({ skill: 'lsp-rename', phase: 'apply', warnings: 0 });
  });

  it('lsp-refactor in block mode refuses replace_symbol_body until the edit was previewed, then lets it write', async () => {
    ok(await first.call('activate_skill', { skill_name: 'lsp-refactor', mode: 'block' }));
    const body = { file_path: FILE, symbol_path: 'from_origin', new_body: 'return distance(p, origin)' };
    const refused = await first.call('replace_symbol_body', body);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('phase "understand"');
    expect(refused.text).toContain('replace_symbol_body belongs to the later phase "simulate"');
    // Measuring the impact does not make a write allowed either.
    ok(await first.call('find_references', { file_path: FILE, position_pattern: 'def @@from_origin(' }));
    const stillRefused = await first.call('replace_symbol_body', body);
    expect(stillRefused.text).toMatch(/^Refused by skill lsp-refactor \(mode block, phase_violation\): replace_symbol_body is forbidden now: the skill is in phase "impact"/);
    expect(readFileSync(join(firstRoot, FILE), 'utf8')).toContain('    return distance(origin, p)\n');

    const preview = ok(await first.call('preview_edit', { workspace_root: firstRoot, language: 'python', file_path: FILE, old_text: '    return distance(origin, p)\n', new_text: '    return distance(p, origin)\n' }));
    expect(preview['net_delta']).toBe(0);
    expect(ok(await first.call('get_skill_phase', {}))).toMatchObject({ phase: 'simulate' });
    const written = await first.call('replace_symbol_body', body);
    expect(written.isError, written.text).toBe(false);
    expect(written.data['applied']).toBe(true);
    expect(readFileSync(join(firstRoot, FILE), 'utf8')).toContain('    return distance(p, origin)\n');
    expect(ok(await first.call('deactivate_skill', {}))).toMatchObject({ skill: 'lsp-refactor', phase: 'apply', warnings: 0 });
  });
});
