import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { brokerKey, connectToBroker, daemonDir, EditorMessages, initializeRoot, readDaemonFile, routeEditor } from '@agent-lsp/broker';
import { AGENT_LSP_PROTOCOL_VERSION, type AgentLspExperimental } from '@agent-lsp/protocol';
import { cacheInitializeAnswer, cachedInitializeAnswer } from './lspCapabilityCache.js';
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
 * the brokers agents use for that root — exactly as a front does — and relays LSP to them
 * (editorRouter.ts). Returns the exit code.
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
  const locate = (s: ServerDefinition) => locateBroker(s, root, logger, { idleTimeoutMs, configPath, maxBrokerMemoryBytes: opts.maxBrokerMemoryBytes });
  // No --language: every file goes to its own language's broker, the main language's answering
  // initialize; a broker is joined when the editor first opens or asks about one of its files.
  // With --language, everything goes to that language's broker.
  const byId = new Map(registry.servers.map((s) => [s.id, s]));
  const key = brokerKey(root, resolved.profileFingerprint);
  // Lazy when that broker is not running and an earlier start left its initialize answer.
  const cached = readDaemonFile(daemonDir(key)) ? undefined : cachedInitializeAnswer(resolved.profileFingerprint, resolved.command);
  logger.info(`${opts.language ? `relaying to the ${server.displayName} broker` : `routing by file to the brokers, ${server.displayName}'s answering initialize`} of ${root}${cached ? ' (joined when first needed)' : ''}`);
  return routeEditor({
    fromEditor,
    output: process.stdout,
    logger,
    primary: server.id,
    serverFor: (path) => (opts.language ? server.id : registry.forFile(path)?.server.id),
    socketFor: async (id) => {
      const located = await locate(byId.get(id) ?? server);
      // The locating connection goes once the relay's own is open (a moment later): it kept the broker up meanwhile.
      setTimeout(() => void located.close(), 2000).unref();
      return located.socketPath;
    },
    ...(cached ? { cachedInitialize: withBrokerKey(cached, key) } : {}),
    onInitializeAnswer: (answer) => cacheInitializeAnswer(resolved.profileFingerprint, resolved.command, answer),
  });
}

/** A cached answer names the broker it will join, not yet started. */
function withBrokerKey(answer: Record<string, unknown>, key: string): Record<string, unknown> {
  const capabilities = (answer['capabilities'] ?? {}) as { experimental?: Record<string, unknown> };
  const agentLsp: AgentLspExperimental = { protocol: AGENT_LSP_PROTOCOL_VERSION, key, state: 'starting', ready: false };
  return { ...answer, capabilities: { ...capabilities, experimental: { ...(capabilities.experimental ?? {}), agentLsp } } };
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

