import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinSkills, matchesToolName, parseToolPattern, renderSkillsDoc, SkillPhaseTracker, skillMentions } from '@agent-lsp/skills';
import { skillPhaseRules, TOOL_CATALOG } from '@agent-lsp/tools';
import { REPO_ROOT } from '../helpers/paths.js';

// A tool is named by its name or an alias (get_change_impact, the original's, is blast_radius).
const tools = new Map(TOOL_CATALOG.flatMap((t) => [t.name, ...(t.aliases ?? [])].map((name) => [name, t] as const)));

/** The field names in a zod schema, nested ones too (the fields of a result's list items). */
function fieldNamesIn(schema: unknown, out: Set<string>): void {
  const s = schema as { shape?: Record<string, unknown>; _zod?: { def?: { innerType?: unknown; element?: unknown; options?: unknown[] } } };
  if (s.shape) {
    for (const [name, field] of Object.entries(s.shape)) {
      out.add(name);
      fieldNamesIn(field, out);
    }
  }
  const def = s._zod?.def;
  for (const inner of [def?.innerType, def?.element, ...(def?.options ?? [])]) if (inner) fieldNamesIn(inner, out);
}

/** Backticked words a skill may use besides tool names: argument and result field names. */
const fieldNames = new Set<string>();
for (const t of TOOL_CATALOG) for (const shape of [t.input, t.output]) fieldNamesIn({ shape }, fieldNames);
const skills = builtinSkills();

describe('the skills', () => {
  it('are at least 20, and rename, refactor, safe-edit and verify have phases', () => {
    expect(skills.length).toBeGreaterThanOrEqual(20);
    for (const name of ['lsp-rename', 'lsp-refactor', 'lsp-safe-edit', 'lsp-verify']) {
      expect(skills.find((s) => s.name === name)?.phases.length, name).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(skills.map((s) => [s.name, s] as const))('%s names only tools and arguments that exist', (_, skill) => {
    const { calls, words } = skillMentions(skill.body);
    expect(calls.length, 'a skill says which tools to call, as `tool {args}`').toBeGreaterThan(2);
    const problems: string[] = [];
    for (const call of calls) {
      const tool = tools.get(call.tool);
      if (!tool) problems.push(`no tool ${call.tool}`);
      else for (const arg of call.args) if (!(arg in tool.input)) problems.push(`${call.tool} has no argument ${arg}`);
    }
    for (const word of words) if (!tools.has(word) && !fieldNames.has(word)) problems.push(`\`${word}\` is neither a tool nor an argument or result field`);
    for (const phase of skill.phases) {
      for (const pattern of [...phase.allowed, ...phase.advance_on]) {
        const matching = TOOL_CATALOG.filter((t) => matchesToolName(t.name, pattern));
        if (matching.length === 0) problems.push(`phase ${phase.name}: ${pattern} matches no tool`);
        const condition = parseToolPattern(pattern).condition;
        if (condition && !matching.every((t) => condition.arg in t.input)) problems.push(`phase ${phase.name}: ${pattern} names an argument the tool does not take`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(skills.filter((s) => s.phases.length > 0).map((s) => [s.name, s] as const))('%s: its own workflow, call by call, passes its phases in block mode', (_, skill) => {
    const tracker = new SkillPhaseTracker(skillPhaseRules(TOOL_CATALOG));
    tracker.activate(skill, 'block');
    const refused: string[] = [];
    for (const call of skillMentions(skill.body).calls) {
      // A name alone stands for a value the agent fills in; `false` is written out when meant.
      const args = Object.fromEntries(call.args.map((a) => [a, call.values[a] === 'false' ? false : (call.values[a] ?? 'value')]));
      const verdict = tracker.check(call.tool, args);
      if (verdict.action !== 'run') refused.push(`${call.tool}: ${verdict.message}`);
      tracker.record(call.tool, args, true);
    }
    expect(refused).toEqual([]);
    expect(tracker.status()?.phase_index, 'the workflow reaches the last phase').toBe(skill.phases.length);
  });

  it('phases govern every tool that writes files or runs project code, and never one that only reads', () => {
    const rules = skillPhaseRules(TOOL_CATALOG);
    const governed = TOOL_CATALOG.filter((t) => t.annotations.destructiveHint || t.annotations.openWorldHint);
    expect(governed.map((t) => t.name)).toEqual(expect.arrayContaining(['apply_edit', 'apply_fix', 'safe_apply_edit', 'replace_symbol_body', 'insert_before_symbol', 'insert_after_symbol', 'safe_delete_symbol', 'run_build', 'run_tests']));
    for (const t of governed) expect(rules.alwaysAllowed(t.name), t.name).toBe(false);
    for (const t of TOOL_CATALOG.filter((t) => t.annotations.readOnlyHint)) expect(rules.alwaysAllowed(t.name), t.name).toBe(true);
    for (const name of ['open_document', 'set_log_level', 'did_change_watched_files']) expect(rules.alwaysAllowed(name), name).toBe(true);
    // Every write has its place in the refactoring workflow, so block mode never strands it.
    const refactor = skills.find((s) => s.name === 'lsp-refactor');
    const inRefactor = (tool: string) => refactor?.phases.some((p) => [...p.allowed, ...p.advance_on].some((pattern) => matchesToolName(tool, pattern)));
    for (const t of TOOL_CATALOG.filter((t) => t.annotations.destructiveHint)) expect(inRefactor(t.name), t.name).toBe(true);
  });

  it.each(['lsp-safe-edit', 'lsp-refactor'])('%s in block mode refuses every write before its simulate phase', (name) => {
    const skill = skills.find((s) => s.name === name);
    if (!skill) throw new Error(`no skill ${name}`);
    const simulate = skill.phases.findIndex((p) => p.name === 'simulate');
    expect(simulate).toBeGreaterThan(0);
    const writes = TOOL_CATALOG.filter((t) => t.annotations.destructiveHint).map((t) => t.name);
    const tracker = new SkillPhaseTracker(skillPhaseRules(TOOL_CATALOG));
    tracker.activate(skill, 'block');
    for (let i = 0; i < simulate; i++) {
      expect(tracker.status()?.phase_index).toBe(i + 1);
      for (const tool of writes) expect(tracker.check(tool, {}).action, `${tool} in phase ${skill.phases[i]?.name}`).toBe('refuse');
      const advance = skill.phases[i]?.advance_on[0] ?? '';
      tracker.record(parseToolPattern(advance).name, {}, true);
    }
    expect(tracker.status()?.phase).toBe('simulate');
  });

  it('the check catches a tool or argument that does not exist', () => {
    const { calls, words } = skillMentions('Call `find_callees {file_path}` then `find_references {file_path, depth: 2}` and read `caller_count`.');
    expect(calls).toEqual([
      { tool: 'find_callees', args: ['file_path'], values: { file_path: undefined } },
      { tool: 'find_references', args: ['file_path', 'depth'], values: { file_path: undefined, depth: '2' } },
    ]);
    expect(tools.has('find_callees')).toBe(false);
    expect('depth' in (tools.get('find_references')?.input ?? {})).toBe(false);
    expect(words).toEqual(['caller_count']);
    expect(fieldNames.has('caller_count')).toBe(false);
  });

  it('docs/skills.md is what scripts/gen-skills-doc.mjs writes from the skill files', () => {
    const committed = readFileSync(join(REPO_ROOT, 'docs', 'skills.md'), 'utf8');
    expect(committed, 'docs/skills.md is stale: run `npx tsc -b && node scripts/gen-skills-doc.mjs` and commit the result.').toBe(renderSkillsDoc(skills));
    for (const s of skills) expect(committed).toContain(`## ${s.name}\n`);
  });
});
