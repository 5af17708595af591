import { describe, expect, it } from 'vitest';
import { SkillPhaseTracker } from './phaseTracker.js';
import { describeToolPattern, matchesToolCall, matchesToolName } from './toolPattern.js';
import type { Skill } from './skill.js';

const SKILL: Skill = {
  name: 'lsp-demo',
  title: 'Demo',
  description: 'Demo.',
  arguments: [],
  body: 'x',
  source: 'demo.md',
  phases: [
    { name: 'understand', allowed: ['go_to_*', 'list_symbols'], advance_on: ['preview_edit'] },
    { name: 'simulate', allowed: ['preview_edit', 'simulate_edit', 'apply_edit(dry_run)'], advance_on: ['apply_edit(!dry_run)'] },
    { name: 'verify', allowed: ['get_diagnostics', 'apply_edit'], advance_on: [] },
  ],
};

const exempt = { alwaysAllowed: (tool: string) => tool === 'start_lsp' || tool === 'find_references', untracked: (tool: string) => tool.endsWith('_skill') };

describe('SkillPhaseTracker', () => {
  it('lets everything run while no skill is active', () => {
    expect(new SkillPhaseTracker(exempt).check('apply_edit')).toEqual({ action: 'run' });
  });

  it('in block mode refuses a call of a later phase, naming the phase, what is allowed and how to advance', () => {
    const t = new SkillPhaseTracker(exempt);
    t.activate(SKILL, 'block');
    const verdict = t.check('apply_edit');
    expect(verdict.action).toBe('refuse');
    const message = verdict.action === 'refuse' ? verdict.message : '';
    expect(message).toContain('phase "understand" (1 of 3)');
    expect(message).toContain('apply_edit belongs to the later phase "simulate"');
    expect(message).toContain('Allowed now: go_to_*, list_symbols, preview_edit');
    expect(message).toContain('To advance to "simulate", call preview_edit');
    expect(t.check('go_to_definition')).toEqual({ action: 'run' });
    expect(t.check('start_lsp')).toEqual({ action: 'run' });
  });

  it('advances on a successful advancing call only', () => {
    const t = new SkillPhaseTracker(exempt);
    t.activate(SKILL, 'block');
    t.record('preview_edit', {}, false);
    expect(t.status()?.phase).toBe('understand');
    t.record('preview_edit', {}, true);
    expect(t.status()).toMatchObject({ phase: 'simulate', phase_index: 2, next_phase: 'verify', advance_on: ['apply_edit(!dry_run)'], calls: 2 });
    expect(t.check('apply_edit', { dry_run: true })).toEqual({ action: 'run' });
    expect(t.check('apply_edit')).toEqual({ action: 'run' });
    t.record('apply_edit', { dry_run: true }, true);
    expect(t.status()?.phase).toBe('simulate');
    t.record('apply_edit', {}, true);
    expect(t.status()).toMatchObject({ phase: 'verify', phase_index: 3 });
    expect(t.status()?.next_phase).toBeUndefined();
    const refused = t.check('simulate_edit');
    expect(refused.action === 'refuse' && refused.message).toContain('belongs to the earlier phase "simulate"');
    expect(refused.action === 'refuse' && refused.message).toContain('This is the last phase');
  });

  it('in warn mode lets the call through with the warning and follows the agent to the phase it jumped to', () => {
    const t = new SkillPhaseTracker(exempt);
    t.activate(SKILL, 'warn');
    const verdict = t.check('simulate_edit');
    expect(verdict.action).toBe('warn');
    expect(verdict.action === 'warn' && verdict.message).toContain('Skill lsp-demo phase warning');
    t.record('simulate_edit', {}, true);
    expect(t.status()).toMatchObject({ phase: 'simulate', warnings: 1 });
    expect(t.check('format_document').action).toBe('warn');
    expect(t.check('format_document').action === 'warn' && (t.check('format_document') as { message: string }).message).toContain('is not part of this skill');
  });

  it('never refuses a tool that only reads, lets it advance a phase, and leaves the skill tools out', () => {
    const t = new SkillPhaseTracker(exempt);
    const rename: Skill = {
      ...SKILL,
      phases: [
        { name: 'locate', allowed: ['list_symbols'], advance_on: ['find_references'] },
        { name: 'apply', allowed: ['apply_edit'], advance_on: [] },
      ],
    };
    t.activate(rename, 'block');
    t.record('get_skill_phase_skill', {}, true);
    expect(t.status()).toMatchObject({ phase: 'locate', calls: 0 });
    t.record('find_references', {}, true);
    expect(t.status()).toMatchObject({ phase: 'apply', calls: 1 });
    expect(t.check('find_references')).toEqual({ action: 'run' });
    expect(t.check('start_lsp')).toEqual({ action: 'run' });
    t.record('find_references', {}, true);
    expect(t.status()).toMatchObject({ phase: 'apply', calls: 2, warnings: 0 });
    const refused = t.check('list_symbols');
    expect(refused.action === 'refuse' && refused.message).toContain('Allowed now: apply_edit, and tools that only read.');
  });

  it('starts over when activated again, and forgets the skill when deactivated', () => {
    const t = new SkillPhaseTracker(exempt);
    t.activate(SKILL, 'block');
    t.record('preview_edit', {}, true);
    expect(t.activate(SKILL, 'warn')).toMatchObject({ phase: 'understand', mode: 'warn', calls: 0 });
    expect(t.deactivate()).toMatchObject({ skill: 'lsp-demo' });
    expect(t.status()).toBeUndefined();
    expect(t.deactivate()).toBeUndefined();
  });

  it('matches patterns exactly, by a trailing *, or by whether an argument is set', () => {
    expect(matchesToolName('go_to_definition', 'go_to_*')).toBe(true);
    expect(matchesToolName('go_to_definition', 'go_to_definition')).toBe(true);
    expect(matchesToolName('go_to_definitions', 'go_to_definition')).toBe(false);
    expect(matchesToolName('find_references', 'go_to_*')).toBe(false);
    expect(matchesToolCall({ tool: 'rename_symbol', args: { dry_run: true } }, 'rename_symbol(dry_run)')).toBe(true);
    expect(matchesToolCall({ tool: 'rename_symbol', args: {} }, 'rename_symbol(dry_run)')).toBe(false);
    expect(matchesToolCall({ tool: 'rename_symbol', args: { dry_run: false } }, 'rename_symbol(!dry_run)')).toBe(true);
    expect(matchesToolCall({ tool: 'rename_symbol', args: { dry_run: true } }, 'rename_symbol(!dry_run)')).toBe(false);
    expect(describeToolPattern('apply_edit(!dry_run)')).toBe('apply_edit without dry_run');
  });

  it('does not advance on a dry run of the advancing write, and names the call that advances when a phase is skipped', () => {
    const t = new SkillPhaseTracker(exempt);
    t.activate(SKILL, 'block');
    t.record('preview_edit', {}, true);
    expect(t.check('apply_edit', { dry_run: true })).toEqual({ action: 'run' });
    t.record('apply_edit', { dry_run: true }, true);
    const verdict = t.check('simulate_edit');
    expect(verdict).toEqual({ action: 'run' });
    expect(t.status()?.phase).toBe('simulate');
    const skipped = new SkillPhaseTracker(exempt);
    skipped.activate(SKILL, 'block');
    const refused = skipped.check('apply_edit', {});
    expect(refused.action === 'refuse' && refused.message).toContain('To advance to "simulate", call preview_edit.');
  });
});
