import { resolve } from 'node:path';
import { loadCustomServers, parseLogLevel, ServerRegistry, type ServerDefinition, type TsServer } from '@agent-lsp/lsp';

// What every command reads the same way, in a module of its own: the broker's entry
// (brokerMain.ts) uses it without loading the rest of the CLI.

/** `--config`, else AGENT_LSP_CONFIG: the custom servers file, absolute (brokers get it passed on). */
export function configPathFrom(option: string | undefined): string | undefined {
  const path = option ?? process.env['AGENT_LSP_CONFIG'];
  return path ? resolve(path) : undefined;
}

export function registryFrom(configPath: string | undefined, first: readonly ServerDefinition[] = [], typescriptServer?: TsServer): ServerRegistry {
  return new ServerRegistry([...first, ...(configPath ? loadCustomServers(configPath) : [])], typescriptServer ? { typescriptServer } : {});
}

export function logLevel(fallback?: 'info') {
  const level = parseLogLevel(process.env['AGENT_LSP_LOG']) ?? fallback;
  return level ? { level } : {};
}
