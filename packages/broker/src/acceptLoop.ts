import { chmodSync, lstatSync, unlinkSync, type Stats } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '@agent-lsp/lsp';

/**
 * Connections the kernel queues while the broker is busy. Node's default (511) overflowed under
 * bursts of fronts connecting at once; the kernel caps it at net.core.somaxconn anyway.
 */
export const LISTEN_BACKLOG = 4096;

/** How often the broker checks that its socket file is still the one it bound. */
export const SOCKET_CHECK_MS = 2_000;

export interface AcceptLoopOptions<C> {
  socketPath: string;
  logger: Logger;
  /** Makes the session of a newly accepted socket. */
  open(id: number, socket: Socket): C;
  /** A client came or went. */
  onClientsChanged(): void;
  /** The socket file was removed and bound again: daemon.json should be rewritten (it may be gone too). */
  onRebound?(): void;
  /** The socket path now belongs to another live process: this broker cannot be reached any more. */
  onLost?(reason: string): void;
  /** Default SOCKET_CHECK_MS. */
  checkEveryMs?: number;
}

/** The broker's socket: binds it (once, against other brokers), accepts clients, keeps the set of them. */
export class AcceptLoop<C> {
  private listener: Server | undefined;
  private readonly clientSet = new Set<C>();
  private nextClientId = 1;
  private accepting = true;
  /** The inode bound, to tell our socket file from a replacement. */
  private bound: { dev: number; ino: number } | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private rebinding = false;

  constructor(private readonly options: AcceptLoopOptions<C>) {}

  get clients(): ReadonlySet<C> {
    return this.clientSet;
  }

  /** Binds the socket: EADDRINUSE with a live peer means another broker won; a dead file is removed. */
  async listen(): Promise<boolean> {
    const { socketPath, logger } = this.options;
    for (let attempt = 0; attempt < 2; attempt++) {
      const server = createServer((socket) => this.accept(socket));
      const result = await new Promise<'ok' | 'in-use'>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve('in-use') : reject(err)));
        server.listen({ path: socketPath, backlog: LISTEN_BACKLOG }, () => resolve('ok'));
      });
      if (result === 'ok') {
        chmodSync(socketPath, 0o600); // the owner only (its 0700 directory already guards it)
        server.on('error', (err) => logger.warn(`socket: ${err.message}`));
        this.listener = server;
        this.bound = identity(lstatSync(socketPath));
        this.watchSocketFile();
        return true;
      }
      if (await socketAnswers(socketPath)) {
        logger.info(`a live broker already listens on ${socketPath}; exiting`);
        return false;
      }
      unlinkSync(socketPath);
    }
    return false;
  }

  private accept(socket: Socket): void {
    if (!this.accepting) {
      socket.destroy();
      return;
    }
    this.clientSet.add(this.options.open(this.nextClientId++, socket));
    this.options.onClientsChanged();
  }

  /** A client went away; false when it was already gone. */
  remove(client: C): boolean {
    if (!this.clientSet.delete(client)) return false;
    this.options.onClientsChanged();
    return true;
  }

  /** Whether the socket path still holds the socket this loop bound (else it is not ours to remove). */
  get ownsSocketFile(): boolean {
    return this.bound !== undefined;
  }

  /**
   * A socket file someone removed (a cleanup, a `rm -rf` of the wrong dir) leaves the broker alive
   * and unreachable: every front would spawn a broker that loses the lifetime lock. So the file is
   * checked now and then, and bound again when it is gone. A path taken by another process is
   * reported (onLost): then this broker can only stop.
   */
  private watchSocketFile(): void {
    if (this.checkTimer) return;
    this.checkTimer = setInterval(() => void this.checkSocketFile(), this.options.checkEveryMs ?? SOCKET_CHECK_MS);
    this.checkTimer.unref();
  }

  /** Checks the socket file now (also what a discovery that could not connect prompts); true when it is ours. */
  async checkSocketFile(): Promise<boolean> {
    if (!this.accepting || this.rebinding || !this.listener) return this.bound !== undefined;
    const { socketPath, logger } = this.options;
    let now: Stats | undefined;
    try {
      now = lstatSync(socketPath);
    } catch {
      // gone
    }
    if (now && this.bound && now.dev === this.bound.dev && now.ino === this.bound.ino) return true;
    this.rebinding = true;
    try {
      const old = this.listener;
      if (now) {
        // Another file sits at our path. Closing our listener would unlink it (libuv removes the
        // path on close), so the old listener is only unref'd; we bind only if nobody answers there.
        this.bound = undefined;
        old.unref();
        if (await socketAnswers(socketPath)) {
          logger.error(`${socketPath} was replaced by a socket another process answers on; this broker cannot be reached`);
          this.options.onLost?.('socket path taken by another process');
          return false;
        }
      } else {
        logger.warn(`socket file ${socketPath} was removed; binding it again`);
        this.bound = undefined;
        await new Promise<void>((r) => old.close(() => r()));
      }
      if (!this.accepting) return false;
      if (await this.listen()) {
        logger.info(`listening again on ${socketPath}`);
        this.options.onRebound?.();
        return true;
      }
      this.options.onLost?.('could not bind the socket again');
      return false;
    } catch (err) {
      this.options.onLost?.(`binding the socket again failed: ${(err as Error).message}`);
      return false;
    } finally {
      this.rebinding = false;
    }
  }

  /** Refuses new connections from now on, at once (an eviction agreed: nobody may slip in before the stop). */
  refuseNew(): void {
    this.accepting = false;
  }

  /** Refuses new connections from now on; resolves once the socket is closed. */
  close(): Promise<void> {
    this.accepting = false;
    clearInterval(this.checkTimer);
    const listener = this.listener;
    if (!listener) return Promise.resolve();
    if (this.bound === undefined) {
      // The path is not ours any more: closing would unlink whatever is there now.
      listener.unref();
      return Promise.resolve();
    }
    return new Promise<void>((r) => listener.close(() => r()));
  }
}

function identity(stats: Stats): { dev: number; ino: number } {
  return { dev: stats.dev, ino: stats.ino };
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
