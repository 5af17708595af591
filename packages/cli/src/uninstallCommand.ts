import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { allTargets, CLIENT_NAMES } from './clients/clientTargets.js';
import { editClientConfig } from './clients/configFileEdit.js';
import { describeOutcome } from './initCommand.js';

export interface UninstallOptions {
  dryRun?: boolean;
  root?: string;
}

/**
 * The line an installed skill's SKILL.md carries to say agent-lsp put it there (`agent-lsp skills
 * install` writes it); a skill without it is the user's and stays.
 */
export const SKILL_MARKER = 'agent-lsp:managed-skill';

/** Skills we installed: directories under ~/.claude/skills whose SKILL.md carries the marker. */
function ourSkills(home: string): string[] {
  const dir = join(home, '.claude', 'skills');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => join(dir, n))
    .filter((d) => {
      try {
        return readFileSync(join(d, 'SKILL.md'), 'utf8').includes(SKILL_MARKER);
      } catch {
        return false;
      }
    });
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
  for (const target of allTargets(resolve(opts.root ?? process.cwd()), home)) {
    const outcome = editClientConfig(target, undefined, dryRun);
    if (outcome.action === 'absent') continue;
    (outcome.action === 'refused' ? err : out)(`${CLIENT_NAMES[target.client]}: ${describeOutcome(outcome)}`);
    if (outcome.action === 'refused') failed++;
  }
  for (const path of [...ourSkills(home), ...ourDirs(process.env, home).filter((d) => existsSync(d))]) {
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
