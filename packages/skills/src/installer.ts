import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { renderClaudeSkill } from './render.js';
import type { Skill } from './skill.js';

/**
 * Records, in the skills directory, what we wrote there (a hash per SKILL.md), so that a later
 * install or uninstall can tell our files from files the user changed, and never loses an edit.
 */
export const MANIFEST_FILE = '.agent-lsp-skills.json';

/**
 * - `current`: the file is exactly what this version writes.
 * - `outdated`: the file is what an earlier agent-lsp wrote, untouched since.
 * - `modified`: the file differs from what we wrote (the user edited it, or it is not ours).
 * - `absent`: no file.
 */
export type InstalledState = 'current' | 'outdated' | 'modified' | 'absent';

export interface SkillFileState {
  skill: string;
  path: string;
  state: InstalledState;
}

export type InstallAction = 'installed' | 'updated' | 'unchanged' | 'kept' | 'overwritten';
export type UninstallAction = 'removed' | 'kept' | 'absent';

interface Manifest {
  schema: 1;
  skills: Record<string, string>;
}

/** `~/.claude/skills`, where Claude Code looks for personal skills. */
export function defaultSkillsDir(): string {
  return join(homedir(), '.claude', 'skills');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function skillPath(dir: string, skill: string): string {
  return join(dir, skill, 'SKILL.md');
}

function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return { schema: 1, skills: {} };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
    const skills: Record<string, string> = {};
    for (const [name, hash] of Object.entries(parsed.skills ?? {})) if (typeof hash === 'string') skills[name] = hash;
    return { schema: 1, skills };
  } catch {
    // An unreadable manifest only means we cannot recognise older versions: files equal to this
    // version's rendering are still ours; anything else counts as the user's.
    return { schema: 1, skills: {} };
  }
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

function writeManifest(dir: string, manifest: Manifest): void {
  const path = join(dir, MANIFEST_FILE);
  if (Object.keys(manifest.skills).length === 0) {
    rmSync(path, { force: true });
    return;
  }
  const sorted = Object.fromEntries(Object.entries(manifest.skills).sort(([a], [b]) => a.localeCompare(b)));
  writeAtomically(path, JSON.stringify({ schema: 1, skills: sorted }, null, 2) + '\n');
}

/**
 * True when something that is not a directory holds a skill's directory name: a symlink to nowhere
 * or to a file, or a file. It is the user's: kept unless forced (mkdir stopped the install there).
 */
function skillDirBlocked(dir: string): boolean {
  try {
    lstatSync(dir);
  } catch {
    return false;
  }
  try {
    return !statSync(dir).isDirectory();
  } catch {
    return true;
  }
}

function stateOf(path: string, rendered: string, recorded: string | undefined): InstalledState {
  if (skillDirBlocked(dirname(path))) return 'modified';
  if (!existsSync(path)) return 'absent';
  const hash = sha256(readFileSync(path, 'utf8'));
  if (hash === sha256(rendered)) return 'current';
  return hash === recorded ? 'outdated' : 'modified';
}

/** How each skill stands in `dir`. */
export function installedSkills(skills: readonly Skill[], dir: string): SkillFileState[] {
  const manifest = readManifest(dir);
  return skills.map((s) => {
    const path = skillPath(dir, s.name);
    return { skill: s.name, path, state: stateOf(path, renderClaudeSkill(s), manifest.skills[s.name]) };
  });
}

/**
 * Writes `<dir>/<skill>/SKILL.md` for every skill. Idempotent; a file the user changed is kept
 * (`kept`) unless `force`.
 */
export function installSkills(skills: readonly Skill[], dir: string, options: { force?: boolean } = {}): { skill: string; path: string; action: InstallAction }[] {
  mkdirSync(dir, { recursive: true });
  const manifest = readManifest(dir);
  const report = skills.map((s) => {
    const path = skillPath(dir, s.name);
    const rendered = renderClaudeSkill(s);
    const state = stateOf(path, rendered, manifest.skills[s.name]);
    let action: InstallAction;
    if (state === 'current') action = 'unchanged';
    else if (state === 'modified' && !options.force) action = 'kept';
    else {
      // Forced past what blocks the directory: the entry goes (a symlink, not what it points to).
      if (skillDirBlocked(join(dir, s.name))) rmSync(join(dir, s.name), { force: true });
      mkdirSync(join(dir, s.name), { recursive: true });
      writeAtomically(path, rendered);
      action = state === 'absent' ? 'installed' : state === 'outdated' ? 'updated' : 'overwritten';
    }
    if (action !== 'kept') manifest.skills[s.name] = sha256(rendered);
    return { skill: s.name, path, action };
  });
  writeManifest(dir, manifest);
  return report;
}

/**
 * Removes the SKILL.md files we wrote (and their directories when nothing else is in them). A file
 * the user changed is kept (`kept`) unless `force`; files of other skills are never touched.
 */
export function uninstallSkills(skills: readonly Skill[], dir: string, options: { force?: boolean } = {}): { skill: string; path: string; action: UninstallAction }[] {
  const manifest = readManifest(dir);
  const report = skills.map((s) => {
    const path = skillPath(dir, s.name);
    const state = stateOf(path, renderClaudeSkill(s), manifest.skills[s.name]);
    let action: UninstallAction;
    if (state === 'absent') action = 'absent';
    // What blocks a skill's directory was never ours to remove, forced or not.
    else if (state === 'modified' && (!options.force || skillDirBlocked(join(dir, s.name)))) action = 'kept';
    else {
      rmSync(path);
      if (readdirSync(join(dir, s.name)).length === 0) rmdirSync(join(dir, s.name));
      action = 'removed';
    }
    if (action !== 'kept') delete manifest.skills[s.name];
    return { skill: s.name, path, action };
  });
  if (existsSync(dir)) writeManifest(dir, manifest);
  return report;
}
