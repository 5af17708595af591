import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { allTargets, CLIENT_NAMES } from './clients/clientTargets.js';
import { uninstallClaudePlugin } from './clients/claudePluginInstall.js';
import { editClientConfig } from './clients/configFileEdit.js';
import { describeOutcome } from './initCommand.js';

export interface UninstallOptions {
  dryRun?: boolean;
  root?: string;
}

/**
 * The skills `agent-lsp skills install` wrote under ~/.claude/skills (its manifest says which,
 * and a SKILL.md the user changed since stays): removed, or in a dry run listed.
 */
async function removeOurSkills(dryRun: boolean, out: (l: string) => void): Promise<void> {
  const { builtinSkills, defaultSkillsDir, installedSkills, uninstallSkills } = await import('@agent-lsp/skills');
  const dir = defaultSkillsDir();
  if (!existsSync(dir)) return;
  if (dryRun) {
    for (const s of installedSkills(builtinSkills(), dir)) {
      if (s.state === 'absent') continue;
      out(s.state === 'modified' ? `(dry run) would keep ${s.path} (changed by you)` : `(dry run) would remove ${s.path}`);
    }
    return;
  }
  for (const r of uninstallSkills(builtinSkills(), dir)) {
    if (r.action === 'removed') out(`removed ${r.path}`);
    else if (r.action === 'kept') out(`kept ${r.path} (changed by you; \`agent-lsp skills uninstall --force\` removes it)`);
  }
}

/** The directories of state and caches we create: AGENT_LSP_HOME, else the XDG cache and state dirs. */
function ourDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  if (env['AGENT_LSP_HOME']) return [env['AGENT_LSP_HOME']];
  return [join(env['XDG_CACHE_HOME'] || join(home, '.cache'), 'agent-lsp'), join(env['XDG_STATE_HOME'] || join(home, '.local', 'state'), 'agent-lsp')];
}

/**
 * `agent-lsp uninstall`: stops our brokers, takes our entry out of every client config (user
 * scope, and project scope of --root or the current directory), removes the skills we installed
 * and our state and caches. Nothing else is touched. Returns the exit code.
 */
export async function runUninstall(opts: UninstallOptions, out: (l: string) => void, err: (l: string) => void): Promise<number> {
  const dryRun = opts.dryRun === true;
  const home = homedir();
  let failed = 0;
  if (dryRun) out('(dry run) would stop every agent-lsp broker daemon');
  else {
    const { runDaemonStop } = await import('./daemonCommands.js');
    if ((await runDaemonStop({ all: true }, out, err)) !== 0) failed++;
  }
  const plugin = uninstallClaudePlugin(dryRun);
  for (const line of plugin.lines) (plugin.failed ? err : out)(`${CLIENT_NAMES.claude}: ${line}`);
  if (plugin.failed) failed++;
  for (const target of allTargets(resolve(opts.root ?? process.cwd()), home)) {
    const outcome = editClientConfig(target, undefined, dryRun);
    if (outcome.action === 'absent') continue;
    (outcome.action === 'refused' ? err : out)(`${CLIENT_NAMES[target.client]}: ${describeOutcome(outcome)}`);
    if (outcome.action === 'refused') failed++;
  }
  await removeOurSkills(dryRun, out);
  for (const path of ourDirs(process.env, home).filter((d) => existsSync(d))) {
    if (dryRun) out(`(dry run) would remove ${path}`);
    else {
      try {
        rmSync(path, { recursive: true, force: true });
        out(`removed ${path}`);
      } catch (e) {
        err(`✗ could not remove ${path}: ${(e as Error).message}`);
        failed++;
      }
    }
  }
  return failed > 0 ? 1 : 0;
}
