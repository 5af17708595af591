import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinSkills } from '@agent-lsp/skills';
import { BIN } from '../helpers/paths.js';

const run = promisify(execFile);

/** Runs `agent-lsp skills ...`; resolves with the exit code instead of rejecting on failure. */
async function skills(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return skillsWithEnv({}, ...args);
}

async function skillsWithEnv(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'skills', ...args], { timeout: 60_000, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

describe('agent-lsp skills', () => {
  let scratch: string;
  let dir: string;
  const count = builtinSkills().length;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'agent-lsp-skills-cli-'));
    dir = join(scratch, 'claude', 'skills');
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('is listed in the help with its three subcommands', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--help']);
    expect(stdout).toMatch(/skills\s+the workflow skills/);
    const help = await skills('--help');
    for (const sub of ['install', 'list', 'uninstall']) expect(help.stdout).toContain(sub);
  });

  it('install writes one SKILL.md per skill, and a second install changes nothing', async () => {
    const first = await skills('install', '--dir', dir);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`${count} installed, 0 updated, 0 overwritten, 0 unchanged, 0 kept`);
    const names = readdirSync(dir).filter((n) => !n.startsWith('.')).sort();
    expect(names).toEqual(builtinSkills().map((s) => s.name).sort());
    const safeEdit = readFileSync(join(dir, 'lsp-safe-edit', 'SKILL.md'), 'utf8');
    expect(safeEdit).toMatch(/^---\nname: lsp-safe-edit\ndescription: ".+"\n---\n/);
    expect(safeEdit).toContain('`preview_edit {file_path: <file_path>, old_text, new_text}`');
    const before = names.map((n) => readFileSync(join(dir, n, 'SKILL.md'), 'utf8'));

    const second = await skills('install', '--dir', dir);
    expect(second).toMatchObject({ code: 0 });
    expect(second.stdout).toContain(`0 installed, 0 updated, 0 overwritten, ${count} unchanged, 0 kept`);
    expect(names.map((n) => readFileSync(join(dir, n, 'SKILL.md'), 'utf8'))).toEqual(before);
  });

  it('installs into ~/.claude/skills without --dir', async () => {
    const home = join(scratch, 'home');
    mkdirSync(home);
    const installed = await skillsWithEnv({ HOME: home }, 'install');
    expect(installed.stdout).toContain(`Skills in ${join(home, '.claude', 'skills')}: ${count} installed`);
    expect(existsSync(join(home, '.claude', 'skills', 'lsp-onboard', 'SKILL.md'))).toBe(true);
    const uninstalled = await skillsWithEnv({ HOME: home }, 'uninstall');
    expect(uninstalled.code).toBe(0);
    expect(readdirSync(join(home, '.claude', 'skills'))).toEqual([]);
  });

  it('install refuses to overwrite a SKILL.md the user edited, unless --force', async () => {
    await skills('install', '--dir', dir);
    const edited = join(dir, 'lsp-rename', 'SKILL.md');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('# Rename a symbol', '# Rename a symbol (my team\'s way)'));

    const refused = await skills('install', '--dir', dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Kept ${edited}: it differs from what agent-lsp wrote (changed by you?); --force overwrites it.`);
    expect(readFileSync(edited, 'utf8')).toContain('(my team\'s way)');

    const list = await skills('list', '--dir', dir);
    expect(list.stdout).toMatch(/- lsp-rename \(symbol, new_name, file_path\?\) \[changed by you\]/);
    expect(list.stdout).toMatch(/- lsp-safe-edit \(file_path, change\) \[installed\]: .*; phases: understand → simulate → apply → verify/);

    const forced = await skills('install', '--dir', dir, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('1 overwritten');
    expect(readFileSync(edited, 'utf8')).not.toContain('(my team\'s way)');
  });

  it('uninstall removes only what agent-lsp wrote and the user did not change', async () => {
    await skills('install', '--dir', dir);
    const edited = join(dir, 'lsp-verify', 'SKILL.md');
    writeFileSync(edited, 'my verify\n');
    const mine = join(dir, 'my-own-skill');
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, 'SKILL.md'), '---\nname: my-own-skill\ndescription: mine\n---\n');

    const removed = await skills('uninstall', '--dir', dir);
    expect(removed.code).toBe(1);
    expect(removed.stdout).toContain(`Removed ${count - 1} skill(s) from ${dir}; kept 1 you changed.`);
    expect(existsSync(join(dir, 'lsp-rename'))).toBe(false);
    expect(readFileSync(edited, 'utf8')).toBe('my verify\n');
    expect(existsSync(join(mine, 'SKILL.md'))).toBe(true);

    const forced = await skills('uninstall', '--dir', dir, '--force');
    expect(forced.code).toBe(0);
    expect(existsSync(edited)).toBe(false);
    expect(readdirSync(dir)).toEqual(['my-own-skill']);
  });
});
