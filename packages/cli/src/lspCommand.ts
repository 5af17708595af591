import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { brokerKey, connectToBroker, daemonDir, EditorMessages, initializeRoot, readDaemonFile, relayEditor, routeEditor } from '@agent-lsp/broker';
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
 * `agent-lsp lsp [--root DIR] [--language L]`: a stdio LSP server for editors and agent hosts that finds (or starts)
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
  const locate = (s: ServerDefinition) => locateBroker(s, root, logger, { idleTimeoutMs, configPath, maxBrokerMemoryBytes: opts.maxBrokerMemoryBytes });
  if (!opts.language) {
    // No --language: every file goes to its own language's broker, the main language's answering
    // initialize; a broker is joined when the editor first opens or asks about one of its files.
    const byId = new Map(registry.servers.map((s) => [s.id, s]));
    logger.info(`routing by file to the brokers of ${root}; ${server.displayName} answers initialize`);
    return routeEditor({
      fromEditor,
      output: process.stdout,
      logger,
      primary: server.id,
      serverFor: (path) => registry.forFile(path)?.server.id,
      socketFor: async (id) => {
        const located = await locate(byId.get(id) ?? server);
        // The locating connection goes once the relay's own is open (a moment later): it kept the broker up meanwhile.
        setTimeout(() => void located.close(), 2000).unref();
        return located.socketPath;
      },
    });
  }
  let located: LocatedBroker;
  try {
    located = await locate(server);
  } catch (e) {
    err(`agent-lsp lsp: ${(e as Error).message}`);
    return 1;
  }
  const relayed = relayEditor({ socketPath: located.socketPath, fromEditor, output: process.stdout, logger });
  await located.close();
  return relayed;
}

interface LocatedBroker {
  socketPath: string;
  /** Ends the short connection that found (or started) the broker. */
  close(): Promise<void>;
}

/**
 * The broker of a server for the root, found or started by the front's own discovery (spawn lock,
 * stale files, wedged brokers); its connection only locates the socket.
 */
async function locateBroker(
  server: ServerDefinition,
  root: string,
  logger: Logger,
  o: { idleTimeoutMs: number | undefined; configPath: string | undefined; maxBrokerMemoryBytes: number | undefined },
): Promise<LocatedBroker> {
  const resolved = server.resolve(root);
  if (!resolved) throw new Error(`${server.displayName} was not found. ${server.installHint}`);
  const locator = await connectToBroker({
    server,
    rootDir: root,
    workspaceFolders: [root],
    logger,
    resolved,
    clientName: LOCATOR_NAME,
    ...(o.idleTimeoutMs !== undefined ? { idleTimeoutMs: o.idleTimeoutMs } : {}),
    ...(o.configPath ? { configPath: o.configPath } : {}),
    ...(o.maxBrokerMemoryBytes !== undefined ? { maxBrokerMemory: o.maxBrokerMemoryBytes } : {}),
  });
  const info = readDaemonFile(daemonDir(brokerKey(root, resolved.profileFingerprint)));
  if (!info) {
    await locator.shutdown();
    throw new Error(`the broker for ${root} wrote no daemon.json; see agent-lsp daemon-status`);
  }
  logger.info(`the ${server.displayName} broker of ${root}: pid ${info.broker.pid}`);
  return { socketPath: info.socket, close: () => locator.shutdown() };
}

/** Without --language: the installed server with the most source files under the root. */
async function mainLanguage(root: string, registry: ServerRegistry): Promise<ServerDefinition> {
  const { detectLanguages } = await import('@agent-lsp/tools');
  const found = (await detectLanguages(root, registry)).find((d) => d.server.resolve(root) !== undefined);
  if (!found) throw new Error(`no source files of a language with an installed server under ${root}; pass --language`);
  return found.server;
}

