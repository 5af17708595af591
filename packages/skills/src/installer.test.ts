import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installedSkills, installSkills, MANIFEST_FILE, uninstallSkills } from './installer.js';
import { builtinSkills } from './registry.js';
import { parseSkill, type Skill } from './skill.js';

describe('skills install', () => {
  let dir: string;
  const skills = builtinSkills();
  const actions = (r: { action: string }[]) => [...new Set(r.map((x) => x.action))];
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'agent-lsp-skills-')), 'skills');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('writes one SKILL.md per skill in Claude Code format, and again changes nothing', () => {
    expect(actions(installSkills(skills, dir))).toEqual(['installed']);
    for (const s of skills) {
      const text = readFileSync(join(dir, s.name, 'SKILL.md'), 'utf8');
      expect(text.startsWith(`---\nname: ${s.name}\ndescription: ${JSON.stringify(s.description)}\n---\n`)).toBe(true);
      expect(text).not.toContain('{{');
    }
    const manifest = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
    expect(actions(installSkills(skills, dir))).toEqual(['unchanged']);
    expect(readFileSync(join(dir, MANIFEST_FILE), 'utf8')).toBe(manifest);
    expect(actions(installedSkills(skills, dir).map((s) => ({ action: s.state })))).toEqual(['current']);
  });

  it('goes on past a skill whose directory is a symlink to nowhere or a file: kept unless forced, the others installed', () => {
    mkdirSync(dir, { recursive: true });
    const [first, second, ...rest] = skills;
    symlinkSync(join(dir, '..', 'nowhere'), join(dir, first!.name));
    writeFileSync(join(dir, second!.name), 'a file of mine\n');
    const report = installSkills(skills, dir);
    expect(report.filter((r) => r.action === 'kept').map((r) => r.skill)).toEqual([first!.name, second!.name]);
    expect(uninstallSkills(skills, dir, { force: true }).slice(0, 2).map((r) => r.action)).toEqual(['kept', 'kept']);
    expect(readFileSync(join(dir, second!.name), 'utf8')).toBe('a file of mine\n');
    expect(actions(report.filter((r) => rest.some((s) => s.name === r.skill)))).toEqual(['installed']);
    expect(readFileSync(join(dir, second!.name), 'utf8')).toBe('a file of mine\n');
    expect(actions(installSkills(skills, dir, { force: true }).slice(0, 2))).toEqual(['overwritten']);
    expect(existsSync(join(dir, first!.name, 'SKILL.md'))).toBe(true);
    expect(existsSync(join(dir, '..', 'nowhere'))).toBe(false);
  });

  it('keeps a file the user changed unless forced, and updates one of an older version', () => {
    installSkills(skills, dir);
    const edited = join(dir, 'lsp-rename', 'SKILL.md');
    writeFileSync(edited, readFileSync(edited, 'utf8') + '\nMy own note.\n');
    const again = installSkills(skills, dir);
    expect(again.find((r) => r.skill === 'lsp-rename')?.action).toBe('kept');
    expect(readFileSync(edited, 'utf8')).toContain('My own note.');
    expect(installSkills(skills, dir, { force: true }).find((r) => r.skill === 'lsp-rename')?.action).toBe('overwritten');
    expect(readFileSync(edited, 'utf8')).not.toContain('My own note.');

    // A new agent-lsp version renders the skill differently: an untouched old file is updated.
    const rename = skills.find((s) => s.name === 'lsp-rename') as Skill;
    const newer: Skill = { ...parseSkill(readFileSync(rename.source, 'utf8'), rename.source), description: 'A newer description.' };
    const mixed = skills.map((s) => (s.name === 'lsp-rename' ? newer : s));
    expect(installSkills(mixed, dir).find((r) => r.skill === 'lsp-rename')?.action).toBe('updated');
    expect(readFileSync(edited, 'utf8')).toContain('A newer description.');
  });

  it('uninstall removes only ours, keeps changed files unless forced, and leaves other skills alone', () => {
    installSkills(skills, dir);
    const other = join(dir, 'my-skill', 'SKILL.md');
    mkdirSync(join(dir, 'my-skill'));
    writeFileSync(other, '---\nname: my-skill\ndescription: mine\n---\n');
    const edited = join(dir, 'lsp-verify', 'SKILL.md');
    writeFileSync(edited, 'changed\n');
    const report = uninstallSkills(skills, dir);
    expect(report.find((r) => r.skill === 'lsp-verify')?.action).toBe('kept');
    expect(report.filter((r) => r.action === 'removed')).toHaveLength(skills.length - 1);
    expect(existsSync(join(dir, 'lsp-rename'))).toBe(false);
    expect(existsSync(edited)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(uninstallSkills(skills, dir, { force: true }).find((r) => r.skill === 'lsp-verify')?.action).toBe('removed');
    expect(existsSync(join(dir, 'lsp-verify'))).toBe(false);
    expect(existsSync(join(dir, MANIFEST_FILE))).toBe(false);
    expect(existsSync(other)).toBe(true);
  });
});
