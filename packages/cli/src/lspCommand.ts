import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { brokerKey, connectToBroker, daemonDir, EditorMessages, initializeRoot, readDaemonFile, relayEditor } from '@agent-lsp/broker';
import type { Logger, ServerDefinition, ServerRegistry } from '@agent-lsp/lsp';

export interface LspCommandOptions {
  /** Default: the root the editor's initialize names (rootUri, else its first workspace folder). */
  root?: string;
  language?: string;
  idleTimeout?: string;
  /** The resolved memory budget of all brokers (main.ts resolves --max-broker-memory and its fallbacks). */
  maxBrokerMemoryBytes?: number;
}

/** The clientInfo name of the short connection that finds or starts the broker (listed as an editor). */
const LOCATOR_NAME = 'agent-lsp lsp (locating the broker)';

/**
 * `agent-lsp lsp --root DIR [--language L]`: a stdio LSP server for editors that finds (or starts)
 * the broker agents use for that root and language — exactly as a front does — and relays LSP to
 * it unchanged. Returns the exit code.
 */
export async function runLspCommand(opts: LspCommandOptions, registry: ServerRegistry, logger: Logger, configPath: string | undefined, err: (line: string) => void): Promise<number> {
  // Read from the start: without --root, the editor's initialize says which root (and broker) it is.
  const fromEditor = new EditorMessages(process.stdin);
  const asked = opts.root ?? initializeRoot(await fromEditor.first());
  if (asked === undefined) {
    err('agent-lsp lsp: no --root, and the editor\'s initialize named no root (rootUri or workspaceFolders)');
    return 2;
  }
  let root: string;
  try {
    root = realpathSync(resolve(asked));
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    err(`agent-lsp lsp: the root ${asked} is not a directory`);
    return 2;
  }
  const idleTimeoutMs = opts.idleTimeout !== undefined ? Number(opts.idleTimeout) : undefined;
  if (idleTimeoutMs !== undefined && !(idleTimeoutMs > 0)) {
    err('agent-lsp lsp: --idle-timeout must be a positive number of milliseconds');
    return 2;
  }
  let server: ServerDefinition;
  try {
    server = opts.language ? registry.forLanguage(opts.language) : await mainLanguage(root, registry);
  } catch (e) {
    err(`agent-lsp lsp: ${(e as Error).message}`);
    return 2;
  }
  const resolved = server.resolve(root);
  if (!resolved) {
    err(`agent-lsp lsp: ${server.displayName} was not found. ${server.installHint}`);
    return 1;
  }
  // The front's own discovery finds or spawns the broker (spawn lock, stale files, wedged brokers);
  // its connection only locates the socket and is closed once the editor's is open.
  let locator;
  try {
    locator = await connectToBroker({
      server,
      rootDir: root,
      workspaceFolders: [root],
      logger,
      resolved,
      clientName: LOCATOR_NAME,
      ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
      ...(configPath ? { configPath } : {}),
      ...(opts.maxBrokerMemoryBytes !== undefined ? { maxBrokerMemory: opts.maxBrokerMemoryBytes } : {}),
    });
  } catch (e) {
    err(`agent-lsp lsp: ${(e as Error).message}`);
    return 1;
  }
  const info = readDaemonFile(daemonDir(brokerKey(root, resolved.profileFingerprint)));
  if (!info) {
    await locator.shutdown();
    err(`agent-lsp lsp: the broker for ${root} wrote no daemon.json; see agent-lsp daemon-status`);
    return 1;
  }
  logger.info(`relaying to the ${server.displayName} broker of ${root} (pid ${info.broker.pid})`);
  const relayed = relayEditor({ socketPath: info.socket, fromEditor, output: process.stdout, logger });
  await locator.shutdown();
  return relayed;
}

/** Without --language: the installed server with the most source files under the root. */
async function mainLanguage(root: string, registry: ServerRegistry): Promise<ServerDefinition> {
  const { detectLanguages } = await import('@agent-lsp/tools');
  const found = (await detectLanguages(root, registry)).find((d) => d.server.resolve(root) !== undefined);
  if (!found) throw new Error(`no source files of a language with an installed server under ${root}; pass --language`);
  return found.server;
}

