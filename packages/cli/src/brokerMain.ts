import { Command } from 'commander';
import { registerBrokerCommand } from './brokerCommand.js';

/**
 * The broker process's entry: `pnpm build` bundles it apart (dist/agent-lsp-broker.cjs, see
 * scripts/bundle.mjs), and the bundle's loader runs it for `agent-lsp daemon-broker`. A broker
 * then compiles and holds the broker, the LSP client and commander, not the MCP SDK, the tools
 * and their schemas, nor the other commands.
 */
export async function main(argv: string[]): Promise<void> {
  const program = new Command().name('agent-lsp');
  registerBrokerCommand(program);
  await program.parseAsync(argv);
}
