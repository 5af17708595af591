import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FrontMatterError } from './frontMatter.js';
import { parseSkill, type Skill } from './skill.js';

/**
 * Where the skill files live: `skills/` beside `src/` and `dist/` in this package, so the same
 * relative path works from the sources (tests), the build, and a packed npm tarball.
 */
export const SKILLS_DIR = fileURLToPath(new URL('../skills/', import.meta.url));

/** Reads and checks every `<name>.md` in a directory, sorted by name. */
export function readSkillsDir(dir: string): Skill[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const skills = files.map((file) => {
    const source = join(dir, file);
    const skill = parseSkill(readFileSync(source, 'utf8'), source);
    if (basename(file, '.md') !== skill.name) throw new FrontMatterError(`${source}: the file must be named after its skill, ${skill.name}.md`);
    return skill;
  });
  if (skills.length === 0) throw new FrontMatterError(`${dir}: no skill files (*.md) found`);
  return skills;
}

let builtin: readonly Skill[] | undefined;

/** The skills that ship with agent-lsp (read once per process). */
export function builtinSkills(): readonly Skill[] {
  builtin ??= readSkillsDir(SKILLS_DIR);
  return builtin;
}

/** A skill by its name; `safe-edit` finds `lsp-safe-edit` too. */
export function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
  const wanted = name.trim().toLowerCase();
  return skills.find((s) => s.name === wanted) ?? skills.find((s) => s.name === `lsp-${wanted}`);
}
