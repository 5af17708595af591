import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import { builtinSkills, describeToolPattern, findSkill, type PhaseRules, type PhaseStatus, type SkillPhaseTracker } from '@agent-lsp/skills';
import { readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, STATEFUL, type AnyToolDefinition, type ToolContext } from '../catalog/toolDefinition.js';

const statusOutput = {
  ...readyOutput,
  active: z.boolean().describe('Whether a skill is active.'),
  skill: z.string().optional(),
  mode: z.enum(['warn', 'block']).optional(),
  phase: z.string().optional().describe('The current phase.'),
  phase_index: z.number().optional().describe('1-based.'),
  phase_count: z.number().optional(),
  allowed: z.array(z.string()).optional().describe('Tools allowed now: name, prefix*, tool(arg) with arg set, tool(!arg) without.'),
  advance_on: z.array(z.string()).optional().describe('Calling one of these moves to next_phase.'),
  next_phase: z.string().optional(),
  phases: z.array(z.string()).optional().describe('Every phase of the skill, in order.'),
  calls: z.number().optional(),
  warnings: z.number().optional().describe('Out-of-order calls let through (warn mode).'),
  activated: z.boolean().optional().describe('activate_skill: the skill is now active.'),
  prerequisites: z.array(z.string()).optional().describe('activate_skill: the calls that open the next phase (advance_on of the first).'),
  deactivated: z.boolean().optional().describe('deactivate_skill: whether a skill was active and is no longer.'),
  available: z.array(z.string()).optional().describe('When no skill is active: the skills with phases, for activate_skill.'),
};
type StatusOut = z.infer<z.ZodObject<typeof statusOutput>>;

function tracker(ctx: ToolContext): SkillPhaseTracker {
  if (!ctx.skillPhases) throw new UserError('not_supported', 'Skill phases are tracked per MCP server; this call did not come through one.');
  return ctx.skillPhases;
}

function phasedSkillNames(): string {
  return phasedSkills().join(', ');
}

function phasedSkills(): string[] {
  return builtinSkills()
    .filter((s) => s.phases.length > 0)
    .map((s) => s.name);
}

function statusOut(status: PhaseStatus | undefined, phases?: string[]): StatusOut {
  if (!status) return { ready: true, active: false, available: phasedSkills() };
  return { ready: true, active: true, ...status, ...(phases ? { phases } : {}) };
}

function statusText(r: StatusOut): string {
  if (!r.active || !r.skill) return `No skill is active. Skills with phases: ${(r.available ?? phasedSkills()).join(', ')}.`;
  const advance = r.next_phase && r.advance_on?.length ? `\nTo advance to "${r.next_phase}": call ${r.advance_on.map(describeToolPattern).join(' or ')}.` : r.next_phase ? '' : '\nThis is the last phase.';
  return (
    `Skill ${r.skill} (${r.mode}): phase "${r.phase}" (${r.phase_index} of ${r.phase_count})` +
    (r.phases ? `; phases: ${r.phases.join(' → ')}` : '') +
    `\nAllowed now: ${[...(r.allowed ?? []), ...(r.advance_on ?? [])].map(describeToolPattern).join(', ')}${advance}`
  );
}

export const activateSkill = defineTool({
  name: 'activate_skill',
  title: 'Activate a skill',
  description: 'Holds your next tool calls to a skill\'s phase order (e.g. no write before a simulation): block refuses, warn warns.',
  group: 'skills',
  input: () => ({
    skill_name: z.string().min(1).describe('A skill (prompt) name with phases, e.g. lsp-safe-edit.'),
    mode: z.enum(['warn', 'block']).default('warn').describe('block refuses out-of-order calls; warn warns.'),
  }),
  output: () => statusOutput,
  annotations: STATEFUL,
  handler(args, ctx) {
    const phases = tracker(ctx);
    const skill = findSkill(builtinSkills(), args.skill_name);
    if (!skill) throw new UserError('invalid_argument', `No skill named ${args.skill_name} (unknown skill). Skills with phases: ${phasedSkillNames()}.`);
    if (skill.phases.length === 0) throw new UserError('invalid_argument', `${skill.name} has no phases to enforce. Skills with phases: ${phasedSkillNames()}.`);
    // Another skill's phase order is not silently dropped: ending it is the agent's explicit step.
    // Activating the active skill again starts it over.
    const current = phases.status();
    if (current && current.skill !== skill.name) {
      throw new UserError('invalid_argument', `Skill ${current.skill} is already active (phase "${current.phase}"); call deactivate_skill first, then activate_skill ${skill.name}.`);
    }
    const status = phases.activate(skill, args.mode);
    return Promise.resolve({ ...statusOut(status, skill.phases.map((p) => p.name)), activated: true, prerequisites: [...status.advance_on] });
  },
  text: (r) => `Activated. ${statusText(r)}`,
});

export const deactivateSkill = defineTool({
  name: 'deactivate_skill',
  title: 'Deactivate the skill',
  description: 'Ends phase enforcement of the active skill.',
  group: 'skills',
  input: () => ({}),
  output: () => statusOutput,
  annotations: STATEFUL,
  handler(_args, ctx) {
    const last = tracker(ctx).deactivate();
    return Promise.resolve({ ...statusOut(last), active: false, deactivated: last !== undefined });
  },
  text: (r) => (r.skill ? `Deactivated ${r.skill} in phase "${r.phase}" after ${r.calls} call(s), ${r.warnings} warning(s).` : 'No skill was active.'),
});

export const getSkillPhase = defineTool({
  name: 'get_skill_phase',
  title: 'Current skill phase',
  description: 'The active skill, its current phase, what is allowed now and what advances it.',
  group: 'skills',
  input: () => ({}),
  output: () => statusOutput,
  annotations: READ_ONLY,
  handler(_args, ctx) {
    return Promise.resolve(statusOut(tracker(ctx).status()));
  },
  text: statusText,
});

export const skillPhaseTools = [activateSkill, deactivateSkill, getSkillPhase];

/**
 * What skill phases govern: the order of simulations, writes and runs of project code. Tools that
 * only read, managing the language servers, and workspace bookkeeping that writes no file (open
 * documents, folders, log level) are never out of order, so tools added later need no skill edits
 * to be usable while a skill is active; a new tool that writes or runs code is governed from the
 * start. The skill tools are not part of any phase.
 */
export function skillPhaseRules(catalog: readonly AnyToolDefinition[]): PhaseRules {
  const bookkeeping = (t: AnyToolDefinition) => t.group === 'workspace' && !t.annotations.destructiveHint && !t.annotations.openWorldHint;
  const free = new Set(catalog.filter((t) => t.group === 'lifecycle' || t.annotations.readOnlyHint || bookkeeping(t)).map((t) => t.name));
  const own = new Set(catalog.filter((t) => t.group === 'skills').map((t) => t.name));
  return { alwaysAllowed: (tool) => free.has(tool), untracked: (tool) => own.has(tool) };
}
