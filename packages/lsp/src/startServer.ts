import { UserError } from '@agent-lsp/protocol';
import { LspConnection, type LspConnectionOptions } from './connection.js';
import { LocalExclusiveAccess } from './exclusiveAccess.js';
import { attachReadinessStrategy } from './readinessStrategies.js';
import type { ReadWriteLock } from './locks.js';
import type { Logger } from './logger.js';
import { pairServers } from './pairedTransport.js';
import { spawnServerProcess, type ServerTransport } from './serverProcess.js';
import { connectSocketTransport } from './socketTransport.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';
import { resolveScoped } from './serverScope.js';

export interface ConnectOptions {
  server: ServerDefinition;
  rootDir: string;
  workspaceFolders: readonly string[];
  logger: Logger;
  onApplyEdit?: LspConnectionOptions['onApplyEdit'];
  /** The front's shared/exclusive section (one per workspace, shared by its connections). */
  section?: ReadWriteLock;
  /** The server already resolved for this root (PATH and interpreter probing are not free). */
  resolved?: ResolvedServer;
  /** start_lsp's scope: root-relative directories to index (see serverScope.ts). */
  scope?: readonly string[];
  /** The clientInfo name sent in initialize (a broker tells fronts, HTTP sessions and editors apart by it). */
  clientName?: string;
  /** How long initialize may take (default 60 s; doctor's --timeout). */
  initializeTimeoutMs?: number;
  /** See LspConnectionOptions.inlineReads (a broker's own server). */
  inlineReads?: boolean;
}

/** Direct mode: spawns the server as our child and initializes it. */
export async function startDirectConnection(options: ConnectOptions): Promise<LspConnection> {
  const { server, rootDir } = options;
  const resolved = options.resolved ?? resolveScoped(server, rootDir, options.scope);
  if (!resolved) {
    throw new UserError('server_not_found', `${server.displayName} was not found. ${server.installHint} Run \`agent-lsp doctor\` to check every server.`);
  }
  const logger = options.logger.child(server.id);
  const spawnOne = async (command: readonly string[], log: Logger): Promise<ServerTransport> => {
    try {
      return await spawnServerProcess({ command, cwd: rootDir, env: { ...process.env, ...resolved.env }, logger: log });
    } catch (err) {
      throw new UserError('server_failed', `Could not start ${server.displayName} (${command.join(' ')}): ${(err as Error).message}. ${server.installHint}`);
    }
  };
  let transport = await spawnOne(resolved.command, logger);
  if (resolved.companion) {
    const main = transport;
    const companion = await spawnOne(resolved.companion.command, logger.child('companion')).catch(async (err: unknown) => {
      await main.terminate();
      throw err;
    });
    transport = pairServers(main, companion, resolved.companion, logger);
  }
  try {
    const stderrLines = transport.onStderrLine?.bind(transport);
    return await LspConnection.start({ ...options, transport, resolved, logger, exclusiveAccess: new LocalExclusiveAccess(options.section), attachReadiness: (conn) => attachReadinessStrategy(conn, stderrLines) });
  } catch (err) {
    throw new UserError('server_failed', `${server.displayName} failed to initialize: ${(err as Error).message}`);
  }
}

/** Passive mode: dials a server someone else started (e.g. `gopls -listen=:9999`); never kills it. */
export async function connectPassive(options: ConnectOptions & { address: string }): Promise<LspConnection> {
  const { server, address } = options;
  const match = /^(.*):(\d+)$/.exec(address);
  if (!match) throw new UserError('invalid_argument', `connect must be host:port (e.g. localhost:9999), not "${address}".`);
  const host = match[1] || '127.0.0.1';
  const port = Number(match[2]);
  let transport;
  try {
    transport = await connectSocketTransport({ host, port });
  } catch (err) {
    throw new UserError('server_failed', `Could not connect to a language server at ${address}: ${(err as Error).message}. Is it running and listening there?`);
  }
  const resolved = { command: [], source: 'config' as const, settings: {}, profileFingerprint: `${server.id}|tcp|${address}`, details: { address } };
  try {
    return await LspConnection.start({ ...options, transport, resolved, logger: options.logger.child(server.id), exclusiveAccess: new LocalExclusiveAccess(options.section), attachReadiness: attachReadinessStrategy });
  } catch (err) {
    throw new UserError('server_failed', `The server at ${address} failed to initialize: ${(err as Error).message}`);
  }
}
