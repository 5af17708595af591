import { resolve } from 'node:path';
import type { Command } from 'commander';

interface SkillsDirOptions {
  dir?: string;
  force?: boolean;
}

type Print = (line: string) => void;

const DIR_HELP = 'the skills directory (default: ~/.claude/skills)';

/**
 * `agent-lsp skills install|list|uninstall`: the skills as Claude Code skills, one `<name>/SKILL.md`
 * each. Install and uninstall never touch a file the user changed unless --force.
 */
export function registerSkillsCommand(program: Command, out: Print, err: Print): void {
  const skills = program.command('skills').description('the workflow skills (also served as MCP prompts): install them as Claude Code skills');
  skills
    .command('install')
    .description('write one <name>/SKILL.md per skill; idempotent; keeps files you changed unless --force')
    .option('--dir <dir>', DIR_HELP)
    .option('--force', 'overwrite skill files you changed')
    .action(async (opts: SkillsDirOptions) => {
      process.exitCode = await runInstall(opts, out, err);
    });
  skills
    .command('list')
    .description('list the skills, their arguments and phases, and whether each is installed')
    .option('--dir <dir>', DIR_HELP)
    .action(async (opts: SkillsDirOptions) => {
      const lib = await import('@agent-lsp/skills');
      const dir = skillsDir(opts, lib.defaultSkillsDir());
      const states = new Map(lib.installedSkills(lib.builtinSkills(), dir).map((s) => [s.skill, s.state]));
      out(`Skills (installed state in ${dir}):`);
      for (const s of lib.builtinSkills()) {
        const args = s.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
        const phases = s.phases.length ? `; phases: ${s.phases.map((p) => p.name).join(' → ')}` : '';
        out(`- ${s.name} (${args || 'no arguments'}) [${STATE_LABELS[states.get(s.name) ?? 'absent']}]: ${s.description}${phases}`);
      }
    });
  skills
    .command('uninstall')
    .description('remove the skill files agent-lsp installed; keeps files you changed unless --force')
    .option('--dir <dir>', DIR_HELP)
    .option('--force', 'remove skill files you changed too')
    .action(async (opts: SkillsDirOptions) => {
      process.exitCode = await runUninstall(opts, out, err);
    });
}

const STATE_LABELS = { current: 'installed', outdated: 'installed, older version', modified: 'changed by you', absent: 'not installed' } as const;

function skillsDir(opts: SkillsDirOptions, fallback: string): string {
  return opts.dir !== undefined && opts.dir !== '' ? resolve(opts.dir) : fallback;
}

async function runInstall(opts: SkillsDirOptions, out: Print, err: Print): Promise<number> {
  const lib = await import('@agent-lsp/skills');
  const dir = skillsDir(opts, lib.defaultSkillsDir());
  try {
    const report = lib.installSkills(lib.builtinSkills(), dir, { force: opts.force === true });
    const count = (action: string) => report.filter((r) => r.action === action).length;
    out(`Skills in ${dir}: ${count('installed')} installed, ${count('updated')} updated, ${count('overwritten')} overwritten, ${count('unchanged')} unchanged, ${count('kept')} kept.`);
    for (const r of report.filter((x) => x.action === 'kept')) err(`Kept ${r.path}: it differs from what agent-lsp wrote (changed by you?); --force overwrites it.`);
    return count('kept') > 0 ? 1 : 0;
  } catch (e) {
    err(`Could not install skills in ${dir}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

async function runUninstall(opts: SkillsDirOptions, out: Print, err: Print): Promise<number> {
  const lib = await import('@agent-lsp/skills');
  const dir = skillsDir(opts, lib.defaultSkillsDir());
  try {
    const report = lib.uninstallSkills(lib.builtinSkills(), dir, { force: opts.force === true });
    const removed = report.filter((r) => r.action === 'removed').length;
    const kept = report.filter((r) => r.action === 'kept');
    out(`Removed ${removed} skill(s) from ${dir}${kept.length ? `; kept ${kept.length} you changed` : ''}.`);
    for (const r of kept) err(`Kept ${r.path}: it differs from what agent-lsp wrote (changed by you?); --force removes it.`);
    return kept.length > 0 ? 1 : 0;
  } catch (e) {
    err(`Could not uninstall skills from ${dir}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
