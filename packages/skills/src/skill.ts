import { z } from 'zod';
import { FrontMatterError, splitFrontMatter } from './frontMatter.js';
import { TOOL_PATTERN } from './toolPattern.js';

const NAME = /^[a-z][a-z0-9-]*$/;
const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
const PLACEHOLDER = /\{\{([^}]*)\}\}/g;

const argumentSchema = z.strictObject({
  name: z.string().regex(IDENTIFIER, 'argument names are snake_case identifiers'),
  description: z.string().min(1),
  required: z.boolean(),
});

const phaseSchema = z.strictObject({
  name: z.string().regex(NAME, 'phase names are lowercase words joined by hyphens'),
  /** What may be called while the skill is in this phase (see toolPattern.ts). */
  allowed: z.array(z.string().regex(TOOL_PATTERN)).min(1),
  /** Tools whose successful call completes this phase and makes the next one current. */
  advance_on: z.array(z.string().regex(TOOL_PATTERN)),
});

const frontMatterSchema = z.strictObject({
  name: z.string().regex(NAME, 'skill names are lowercase words joined by hyphens'),
  title: z.string().min(1),
  description: z.string().min(1).max(300),
  arguments: z.array(argumentSchema).optional(),
  phases: z.array(phaseSchema).min(2).optional(),
});

export type SkillArgument = z.infer<typeof argumentSchema>;
export type SkillPhase = z.infer<typeof phaseSchema>;

/** One workflow: an MCP prompt, a Claude Code skill, and (with phases) an enforceable order of tool calls. */
export interface Skill {
  name: string;
  title: string;
  description: string;
  arguments: SkillArgument[];
  phases: SkillPhase[];
  /** Markdown with `{{argument}}` placeholders. */
  body: string;
  /** Where it was read from, for error messages. */
  source: string;
}

/** Parses and checks one skill file; throws a FrontMatterError naming the file and what is wrong. */
export function parseSkill(text: string, source: string): Skill {
  const { frontMatter, body } = splitFrontMatter(text, source);
  const parsed = frontMatterSchema.safeParse(frontMatter);
  if (!parsed.success) throw new FrontMatterError(`${source}: ${z.prettifyError(parsed.error)}`);
  const fm = parsed.data;
  const args = fm.arguments ?? [];
  const argNames = new Set<string>();
  for (const arg of args) {
    if (argNames.has(arg.name)) throw new FrontMatterError(`${source}: argument '${arg.name}' is declared twice`);
    argNames.add(arg.name);
  }
  const phaseNames = new Set<string>();
  for (const phase of fm.phases ?? []) {
    if (phaseNames.has(phase.name)) throw new FrontMatterError(`${source}: phase '${phase.name}' is declared twice`);
    phaseNames.add(phase.name);
  }
  for (const name of placeholders(body)) {
    if (!argNames.has(name)) throw new FrontMatterError(`${source}: the text uses {{${name}}}, which is not a declared argument (${[...argNames].join(', ') || 'none declared'})`);
  }
  if (body.trim() === '') throw new FrontMatterError(`${source}: the skill has no text after its front matter`);
  return { name: fm.name, title: fm.title, description: fm.description, arguments: args, phases: fm.phases ?? [], body, source };
}

/** The argument names a text refers to as `{{name}}`. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => (m[1] ?? '').trim());
}

/** Replaces every `{{name}}` by `value(name)`. */
export function fillPlaceholders(text: string, value: (name: string) => string): string {
  return text.replace(PLACEHOLDER, (_, name: string) => value(name.trim()));
}
