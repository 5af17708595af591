import type { Command } from 'commander';
import { tsServerOfServerId } from '@agent-lsp/lsp';
import { configPathFrom, logLevel, registryFrom } from './commandOptions.js';
import type { BrokerCommandOptions } from './daemonCommands.js';

/** `agent-lsp daemon-broker`, in the full CLI (main.ts) and in the broker's own entry (brokerMain.ts). */
export function registerBrokerCommand(program: Command): void {
  program
    .command('daemon-broker')
    .description('(internal) run a broker daemon; fronts start these by themselves')
    .requiredOption('--root <dir>', 'workspace root')
    .requiredOption('--language <id>', 'server id or language')
    .requiredOption('--key <key>', 'broker key (checked against root and profile)')
    .option('--idle-timeout <ms>', 'stop after this long without clients', String(30 * 60_000))
    .option('--max-in-flight <n>', 'requests in flight at the server at once, taken round-robin between clients (0: unbounded)')
    .option('--config <file>', 'JSON file with custom language servers (or AGENT_LSP_CONFIG)')
    .option('--scope <json>', 'directories to index, a JSON array (start_lsp scope)')
    .action(async (opts: BrokerCommandOptions & { config?: string }) => {
      const { runBrokerCommand } = await import('./daemonCommands.js');
      // The server id it was spawned for decides which TypeScript server it runs, not its environment.
      process.exitCode = await runBrokerCommand(registryFrom(configPathFrom(opts.config), [], tsServerOfServerId(opts.language)), opts, logLevel('info'));
      process.exit();
    });
}
