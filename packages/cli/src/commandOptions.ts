import { resolve } from 'node:path';
import { loadCustomServers, parseLogLevel, pythonServerFirst, ServerRegistry, type PythonServer, type ServerDefinition, type TsServer } from '@agent-lsp/lsp';

// What every command reads the same way, in a module of its own: the broker's entry
// (brokerMain.ts) uses it without loading the rest of the CLI.

/** `--config`, else AGENT_LSP_CONFIG: the custom servers file, absolute (brokers get it passed on). */
export function configPathFrom(option: string | undefined): string | undefined {
  const path = option ?? process.env['AGENT_LSP_CONFIG'];
  return path ? resolve(path) : undefined;
}

/** The registry a command routes files by; the chosen Python server goes before the built-in profiles (a config's servers still come first). */
export function registryFrom(configPath: string | undefined, first: readonly ServerDefinition[] = [], typescriptServer?: TsServer, pythonServer?: PythonServer): ServerRegistry {
  const custom = [...first, ...(configPath ? loadCustomServers(configPath) : []), ...(pythonServer ? pythonServerFirst(pythonServer) : [])];
  return new ServerRegistry(custom, typescriptServer ? { typescriptServer } : {});
}

export function logLevel(fallback?: 'info') {
  const level = parseLogLevel(process.env['AGENT_LSP_LOG']) ?? fallback;
  return level ? { level } : {};
}
