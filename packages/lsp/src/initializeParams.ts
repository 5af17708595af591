import { AGENT_LSP_VERSION, pathToUri } from '@agent-lsp/protocol';
import { CLIENT_CAPABILITIES } from './clientCapabilities.js';
import type { ResolvedServer } from './serverProfile.js';
import { toWorkspaceFolders } from './serverRequests.js';

/** The `initialize` request agent-lsp sends a server (or a broker) for `rootDir` and its folders. */
export function initializeParams(options: { rootDir: string; resolved: ResolvedServer; clientName?: string | undefined }, folders: readonly string[]) {
  const { rootDir, resolved } = options;
  return {
    processId: process.pid,
    clientInfo: { name: options.clientName ?? 'agent-lsp', version: AGENT_LSP_VERSION },
    rootUri: pathToUri(rootDir),
    rootPath: rootDir,
    workspaceFolders: toWorkspaceFolders(folders, pathToUri),
    capabilities: CLIENT_CAPABILITIES,
    initializationOptions: resolved.initializationOptions ?? {},
    trace: 'off',
  };
}
