import type { Command } from 'commander';
import type { ServersInstallOptions } from './installCommand.js';

/** `servers install`, `servers list`, `servers bin`: the language servers agent-lsp installs for itself. */
export function registerServersCommands(program: Command, out: (l: string) => void, err: (l: string) => void): void {
  const servers = program.command('servers').description('install language servers into agent-lsp\'s own directory, and list every language\'s servers');
  servers
    .command('install')
    .description('install each language\'s default server (or LANG:SERVER, or a server id) by npm, pip (a private venv), go, cargo, apt (as root) or rustup; idempotent')
    .argument('[names...]', 'languages (python, go, php…), LANG:SERVER (python:basedpyright) or server ids')
    .option('--jobs <n>', 'installs run at once (default 4)')
    .action(async (names: string[], opts: ServersInstallOptions) => {
      const { runServersInstall } = await import('./installCommand.js');
      process.exitCode = await runServersInstall(names, opts, out, err);
    });
  servers
    .command('list')
    .description('every language → its servers (default first): install route, and where each is found now')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { listServers, formatServerList } = await import('./serversList.js');
      const rows = listServers(process.cwd());
      out(opts.json ? JSON.stringify(rows, null, 2) : formatServerList(rows));
    });
  servers
    .command('bin')
    .description('print the directory of installed servers\' executables (for PATH: export PATH="$(agent-lsp servers bin):$PATH")')
    .action(async () => {
      const { installedBinDir } = await import('@agent-lsp/lsp');
      out(installedBinDir());
    });
}
