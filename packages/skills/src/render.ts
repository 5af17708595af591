import { fillPlaceholders, type Skill } from './skill.js';

/** What was wrong with the arguments a prompt was asked with; the message says what to send. */
export class SkillArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkillArgumentError';
  }
}

function phaseNote(skill: Skill): string[] {
  if (skill.phases.length === 0) return [];
  const order = skill.phases.map((p) => p.name).join(' → ');
  return [
    `Phases: ${order}. To have agent-lsp hold you to this order, call \`activate_skill {skill_name: ${skill.name}}\` first ` +
      '(mode "block" refuses out-of-order calls, "warn" lets them through with a warning), `get_skill_phase` to see where you are, and `deactivate_skill` when done.',
    '',
  ];
}

/**
 * The prompt text of a skill with its arguments filled in (MCP prompts/get). Refuses missing
 * required arguments and arguments the skill does not take.
 */
export function renderPrompt(skill: Skill, args: Readonly<Record<string, string | undefined>>): string {
  const known = new Set(skill.arguments.map((a) => a.name));
  const signature = skill.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ') || 'no arguments';
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length) throw new SkillArgumentError(`${skill.name} does not take ${unknown.join(', ')}; its arguments are: ${signature}.`);
  const missing = skill.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length) throw new SkillArgumentError(`${skill.name} needs ${missing.join(', ')} (arguments: ${signature}).`);
  const body = fillPlaceholders(skill.body, (name) => {
    const value = args[name]?.trim();
    return value ? value : `(no ${name} given)`;
  });
  return [`# ${skill.title}`, '', ...phaseNote(skill), body.trimEnd(), ''].join('\n');
}

/**
 * The skill as a Claude Code SKILL.md: front matter with name and description, then the workflow
 * with `<argument>` where the prompt fills in values (Claude Code passes them as $ARGUMENTS).
 */
export function renderClaudeSkill(skill: Skill): string {
  const args = skill.arguments.map((a) => `- \`<${a.name}>\`${a.required ? '' : ' (optional)'}: ${a.description}`);
  return [
    '---',
    `name: ${skill.name}`,
    // A JSON string is a valid YAML scalar, whatever characters the description holds.
    `description: ${JSON.stringify(skill.description)}`,
    '---',
    '',
    `# ${skill.title}`,
    '',
    'The tools named below are the agent-lsp MCP server\'s (in Claude Code: `mcp__<server name>__<tool>`).',
    '',
    ...(args.length ? ['Arguments (from the request: $ARGUMENTS):', '', ...args, ''] : []),
    ...phaseNote(skill),
    fillPlaceholders(skill.body, (name) => `<${name}>`).trimEnd(),
    '',
  ].join('\n');
}
