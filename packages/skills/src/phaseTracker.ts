import type { Skill, SkillPhase } from './skill.js';
import { describeToolPattern, matchesToolCall, type ToolCallShape } from './toolPattern.js';

export type EnforcementMode = 'warn' | 'block';

/** What to do with one tool call while a skill is active. */
export type PhaseVerdict = { action: 'run' } | { action: 'warn'; message: string } | { action: 'refuse'; message: string };

export interface PhaseStatus {
  skill: string;
  mode: EnforcementMode;
  phase: string;
  /** 1-based. */
  phase_index: number;
  phase_count: number;
  allowed: string[];
  advance_on: string[];
  next_phase?: string;
  /** Calls that went through while the skill was active. */
  calls: number;
  /** Calls let through with a warning (warn mode). */
  warnings: number;
}

function permits(phase: SkillPhase, call: ToolCallShape): boolean {
  return [...phase.allowed, ...phase.advance_on].some((p) => matchesToolCall(call, p));
}

function advances(phase: SkillPhase, call: ToolCallShape): boolean {
  return phase.advance_on.some((p) => matchesToolCall(call, p));
}

const inWords = (patterns: readonly string[]) => patterns.map(describeToolPattern);

/** Which calls the phases do not govern. */
export interface PhaseRules {
  /** Never out of order (tools that only read, managing servers); still recorded, so they can advance a phase. */
  alwaysAllowed(tool: string): boolean;
  /** Neither checked nor recorded: the skill tools themselves. */
  untracked(tool: string): boolean;
}

interface ActiveSkill {
  skill: Skill;
  mode: EnforcementMode;
  index: number;
  calls: number;
  warnings: number;
}

/**
 * Holds one agent to the phase order of the skill it activated. One per MCP server instance, so
 * two agents never share it. Calls are checked before they run and recorded after they succeed;
 * a successful call to one of the current phase's `advance_on` tools makes the next phase current.
 */
export class SkillPhaseTracker {
  private active: ActiveSkill | undefined;

  constructor(private readonly rules: PhaseRules) {}

  activate(skill: Skill, mode: EnforcementMode): PhaseStatus {
    if (skill.phases.length === 0) throw new Error(`${skill.name} has no phases`);
    this.active = { skill, mode, index: 0, calls: 0, warnings: 0 };
    return this.statusOf(this.active);
  }

  /** Ends the active skill; its last status, or undefined when none was active. */
  deactivate(): PhaseStatus | undefined {
    const last = this.status();
    this.active = undefined;
    return last;
  }

  status(): PhaseStatus | undefined {
    return this.active ? this.statusOf(this.active) : undefined;
  }

  check(tool: string, args: Readonly<Record<string, unknown>> = {}): PhaseVerdict {
    const a = this.active;
    if (!a || this.rules.untracked(tool) || this.rules.alwaysAllowed(tool)) return { action: 'run' };
    const phase = this.phaseOf(a);
    if (permits(phase, { tool, args })) return { action: 'run' };
    const message = this.explain(a, { tool, args });
    // phase_violation and forbidden: the original agent-lsp's words, which its users' scripts match.
    if (a.mode === 'block') return { action: 'refuse', message: `Refused by skill ${a.skill.name} (mode block, phase_violation): ${tool} is forbidden now: ${message}` };
    return { action: 'warn', message: `Skill ${a.skill.name} phase warning: ${message}` };
  }

  /**
   * Records a call that went through. Successful calls advance the phase; in warn mode a call that
   * belongs to a later phase moves the skill there, so the tracker follows what the agent did.
   */
  record(tool: string, args: Readonly<Record<string, unknown>>, succeeded: boolean): void {
    const a = this.active;
    if (!a || this.rules.untracked(tool)) return;
    const call = { tool, args };
    a.calls++;
    const phases = a.skill.phases;
    if (!permits(this.phaseOf(a), call) && !this.rules.alwaysAllowed(tool)) {
      a.warnings++;
      const later = phases.findIndex((p, i) => i > a.index && permits(p, call));
      if (succeeded && later > 0) a.index = later;
    }
    if (succeeded && a.index < phases.length - 1 && advances(this.phaseOf(a), call)) a.index++;
  }

  private phaseOf(a: ActiveSkill): SkillPhase {
    const phase = a.skill.phases[a.index];
    if (!phase) throw new Error(`phase ${a.index} of ${a.skill.name} does not exist`);
    return phase;
  }

  private statusOf(a: ActiveSkill): PhaseStatus {
    const phase = this.phaseOf(a);
    const next = a.skill.phases[a.index + 1];
    return {
      skill: a.skill.name,
      mode: a.mode,
      phase: phase.name,
      phase_index: a.index + 1,
      phase_count: a.skill.phases.length,
      allowed: [...phase.allowed],
      advance_on: [...phase.advance_on],
      ...(next ? { next_phase: next.name } : {}),
      calls: a.calls,
      warnings: a.warnings,
    };
  }

  private explain(a: ActiveSkill, call: ToolCallShape): string {
    const phases = a.skill.phases;
    const phase = this.phaseOf(a);
    const tool = call.tool;
    const owner = phases.findIndex((p) => permits(p, call));
    const where =
      owner < 0
        ? `${tool} is not part of this skill`
        : owner > a.index
          ? `${tool} belongs to the later phase "${phases[owner]?.name}"`
          : `${tool} belongs to the earlier phase "${phases[owner]?.name}"`;
    const next = phases[a.index + 1];
    const advance =
      next && phase.advance_on.length
        ? ` To advance to "${next.name}", call ${inWords(phase.advance_on).join(' or ')}.`
        : next
          ? ''
          : ' This is the last phase; activate_skill again to start over, or deactivate_skill to work freely.';
    return (
      `the skill is in phase "${phase.name}" (${a.index + 1} of ${phases.length}) and ${where}. ` +
      `Allowed now: ${inWords([...phase.allowed, ...phase.advance_on]).join(', ')}, and tools that only read.${advance}`
    );
  }
}
