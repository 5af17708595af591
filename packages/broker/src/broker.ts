import { rmSync, unlinkSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import {
  AGENT_LSP_PROTOCOL_VERSION,
  BrokerStatusNotification,
  type AgentLspExperimental,
  type BrokerState,
  type BrokerStatusParams,
} from '@agent-lsp/protocol';
import { startDirectConnection, type LspConnection, type Logger, type ServerDefinition } from '@agent-lsp/lsp';
import { ClientSession, type BrokerHost } from './clientSession.js';
import { DAEMON_SCHEMA, daemonFilePath, writeDaemonFile, type DaemonInfo } from './daemonFile.js';
import { ensurePrivateDir, socketPathFor } from './paths.js';
import { SharedDocuments } from './sharedDocuments.js';

export const BROKER_VERSION = '0.1.0';
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
const LOCK_STALE_MS = 10_000;

export interface BrokerOptions {
  key: string;
  dir: string;
  root: string;
  server: ServerDefinition;
  idleTimeoutMs: number;
  logger: Logger;
}

/** Lock files live beside their (never created) targets: `<dir>/lifetime.lock`, `<dir>/spawn.lock`. */
export function lockTarget(dir: string, name: 'lifetime' | 'spawn'): string {
  return join(dir, name);
}

/**
 * The daemon: one warm language server for one (root, profile), shared by any number of clients
 * over a Unix socket. `run()` resolves once it has stopped and removed its files.
 */
export class Broker implements BrokerHost {
  readonly documents = new SharedDocuments(() => this.conn?.documents);
  private readonly clients = new Set<ClientSession>();
  private nextClientId = 1;
  private conn: LspConnection | undefined;
  private serverStarted: Promise<LspConnection> | undefined;
  private state: BrokerState = 'starting';
  private listener: Server | undefined;
  private socketPath = '';
  private releaseLock: (() => Promise<void>) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private writeTimer: NodeJS.Timeout | undefined;
  private lastActivity = Date.now();
  private readonly startedAt = new Date();
  private stopping: Promise<void> | undefined;
  private resolveStopped: (() => void) | undefined;

  constructor(private readonly options: BrokerOptions) {}

  get logger(): Logger {
    return this.options.logger;
  }

  /** Runs until stopped (idle timeout, SIGTERM, $/agentLsp/stop, server gone). */
  async run(): Promise<'stopped' | 'already-running'> {
    const { dir, logger } = this.options;
    ensurePrivateDir(dir);
    try {
      this.releaseLock = await lockfile.lock(lockTarget(dir, 'lifetime'), {
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_STALE_MS / 2,
        // A dead broker's lock turns stale after LOCK_STALE_MS; wait that out rather than give up.
        retries: { retries: 40, minTimeout: 250, maxTimeout: 500 },
        onCompromised: (err) => {
          logger.error(`lifetime lock compromised (${err.message}); stopping`);
          void this.stop('lock compromised');
        },
      });
    } catch (err) {
      logger.info(`another broker holds ${dir} (${(err as Error).message}); exiting`);
      return 'already-running';
    }
    this.socketPath = socketPathFor(dir, this.options.key);
    if (!(await this.listen())) {
      await this.releaseLock();
      return 'already-running';
    }
    const stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));
    const onSignal = (signal: string) => void this.stop(signal);
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    this.writeStatus();
    this.scheduleIdle();
    this.serverStarted = this.startServer();
    this.serverStarted.catch((err: Error) => {
      logger.error(`language server failed to start: ${err.message}`);
      void this.stop('server failed to start');
    });
    await stopped;
    return 'stopped';
  }

  /** Binds the socket: EADDRINUSE with a live peer means another broker won; a dead file is removed. */
  private async listen(): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const server = createServer((socket) => this.accept(socket));
      const result = await new Promise<'ok' | 'in-use'>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve('in-use') : reject(err)));
        server.listen(this.socketPath, () => resolve('ok'));
      });
      if (result === 'ok') {
        this.listener = server;
        return true;
      }
      if (await socketAnswers(this.socketPath)) {
        this.logger.info(`a live broker already listens on ${this.socketPath}; exiting`);
        return false;
      }
      unlinkSync(this.socketPath);
    }
    return false;
  }

  private async startServer(): Promise<LspConnection> {
    const { server, root, logger } = this.options;
    const conn = await startDirectConnection({ server, rootDir: root, workspaceFolders: [root], logger });
    this.conn = conn;
    this.documents.resyncAll();
    const onReadiness = () => {
      this.state = conn.readiness.state;
      this.broadcastStatus();
      this.writeStatus();
    };
    conn.readiness.onChange(onReadiness);
    onReadiness();
    conn.onServerNotification(({ method, params }) => this.fanOut(method, params));
    conn.onCrash((err) => {
      logger.error(`language server crashed: ${err.message}`);
      void this.stop('server crashed');
    });
    return conn;
  }

  /** Server notifications reach every client. Versions are the broker's own, so they are dropped. */
  private fanOut(method: string, params: unknown): void {
    let out = params;
    if (method === 'textDocument/publishDiagnostics' && params && typeof params === 'object') {
      const { version: _version, ...rest } = params as { version?: number };
      out = rest;
    }
    for (const c of this.clients) c.notify(method, out);
  }

  server(): Promise<LspConnection> {
    return this.serverStarted ?? Promise.reject(new Error('broker is not running'));
  }

  private status(): BrokerStatusParams {
    const snap = this.conn?.readiness.snapshot();
    const out: BrokerStatusParams = { state: this.stopping ? 'stopping' : this.state, ready: snap?.ready === true && !this.stopping };
    if (snap?.progress) out.progress = snap.progress;
    return out;
  }

  experimental(): AgentLspExperimental {
    return { protocol: AGENT_LSP_PROTOCOL_VERSION, key: this.options.key, ...this.status() };
  }

  private broadcastStatus(): void {
    const status = this.status();
    for (const c of this.clients) c.notify(BrokerStatusNotification.method, status);
  }

  private accept(socket: Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const session = new ClientSession(this.nextClientId++, socket, this);
    this.clients.add(session);
    this.touch();
    this.scheduleIdle();
    this.writeStatus();
  }

  removeClient(session: ClientSession): void {
    if (!this.clients.delete(session)) return;
    this.documents.dropClient(session.id);
    this.touch();
    this.scheduleIdle();
    this.writeStatus();
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  /** The idle timeout runs only while no client is connected. */
  private scheduleIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.clients.size > 0 || this.stopping) return;
    this.idleTimer = setTimeout(() => void this.stop('idle timeout'), this.options.idleTimeoutMs);
  }

  /** Coalesces bursts of changes (progress lines) into one atomic daemon.json write. */
  private writeStatus(): void {
    if (this.writeTimer || this.stopping) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      if (!this.stopping) writeDaemonFile(this.options.dir, this.info());
    }, 50);
  }

  info(): DaemonInfo {
    const { key, root, server, idleTimeoutMs } = this.options;
    const conn = this.conn;
    const status = this.status();
    const info: DaemonInfo = {
      schema: DAEMON_SCHEMA,
      key,
      root,
      language: server.languageIds[0] ?? server.id,
      profile: conn?.resolved.profileFingerprint ?? server.id,
      socket: this.socketPath,
      broker: { pid: process.pid, version: BROKER_VERSION, startedAt: this.startedAt.toISOString() },
      server: { name: conn?.serverInfo?.name ?? server.displayName, command: conn?.resolved.command ?? [] },
      state: status.state,
      ready: status.ready,
      clients: this.clients.size,
      lastActivityAt: new Date(this.lastActivity).toISOString(),
      idleTimeoutMs,
      restarts: 0,
    };
    if (conn?.serverInfo?.version) info.server.version = conn.serverInfo.version;
    if (conn?.pid !== undefined) info.server.pid = conn.pid;
    if (conn?.readiness.readyAt) info.readyAt = new Date(conn.readiness.readyAt).toISOString();
    if (status.progress) info.progress = status.progress;
    return info;
  }

  /** Stops the server (its whole process group), closes clients, removes socket, daemon.json, lock. */
  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      const { dir, logger } = this.options;
      logger.info(`stopping: ${reason}`);
      clearTimeout(this.idleTimer);
      clearTimeout(this.writeTimer);
      this.broadcastStatus();
      for (const c of [...this.clients]) c.close();
      await this.conn?.shutdown().catch(() => undefined);
      await new Promise<void>((r) => (this.listener ? this.listener.close(() => r()) : r()));
      rmSync(daemonFilePath(dir), { force: true });
      rmSync(this.socketPath, { force: true });
      await this.releaseLock?.().catch(() => undefined);
      this.resolveStopped?.();
    })();
    return this.stopping;
  }
}

/** Whether something accepts connections on a Unix socket path. */
export function socketAnswers(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (v: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
