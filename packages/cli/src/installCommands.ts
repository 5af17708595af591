import type { Command } from 'commander';
import type { InitOptions } from './initCommand.js';
import type { UninstallOptions } from './uninstallCommand.js';

/** `init` and `uninstall`: wiring agent-lsp into MCP clients, and taking it all out again. */
export function registerInstallCommands(program: Command, out: (l: string) => void, err: (l: string) => void): void {
  program
    .command('init')
    .description('add agent-lsp to MCP clients\' configs: claude, cursor, vscode, windsurf, gemini, codex (asks when run in a terminal)')
    .option('--client <name...>', 'the clients to wire (claude, cursor, vscode, windsurf, gemini, codex)')
    .option('--scope <scope>', 'user (home directory configs) or project (configs in --root)', 'user')
    .option('--root <dir>', 'the project directory for --scope project (default: the current one)')
    .option('--dry-run', 'say what would change, write nothing')
    .action(async (opts: InitOptions) => {
      const { runInit } = await import('./initCommand.js');
      process.exitCode = await runInit(opts, out, err);
    });

  program
    .command('uninstall')
    .description('stop our brokers; remove our client config entries, installed skills, caches and state')
    .option('--root <dir>', 'also the project configs here (default: the current directory)')
    .option('--dry-run', 'say what would be removed, remove nothing')
    .action(async (opts: UninstallOptions) => {
      const { runUninstall } = await import('./uninstallCommand.js');
      process.exitCode = await runUninstall(opts, out, err);
    });
}
