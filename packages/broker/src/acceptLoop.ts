import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '@agent-lsp/lsp';

/**
 * Connections the kernel queues while the broker is busy. Node's default (511) overflowed under
 * bursts of fronts connecting at once; the kernel caps it at net.core.somaxconn anyway.
 */
export const LISTEN_BACKLOG = 4096;

export interface AcceptLoopOptions<C> {
  socketPath: string;
  logger: Logger;
  /** Makes the session of a newly accepted socket. */
  open(id: number, socket: Socket): C;
  /** A client came or went. */
  onClientsChanged(): void;
}

/** The broker's socket: binds it (once, against other brokers), accepts clients, keeps the set of them. */
export class AcceptLoop<C> {
  private listener: Server | undefined;
  private readonly clientSet = new Set<C>();
  private nextClientId = 1;
  private accepting = true;

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

  /** Refuses new connections from now on; resolves once the socket is closed. */
  close(): Promise<void> {
    this.accepting = false;
    return new Promise<void>((r) => (this.listener ? this.listener.close(() => r()) : r()));
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
