import type { Logger } from '@agent-lsp/lsp';
import { writeDaemonFileAsync, type DaemonInfo } from './daemonFile.js';

export interface StatusWriterOptions {
  dir: string;
  /** What daemon.json should say now. */
  snapshot: () => DaemonInfo;
  logger: Logger;
  /** The write itself (tests inject one that fails). */
  write?: (dir: string, info: DaemonInfo) => Promise<void>;
  /** Changes within this long of each other make one write. */
  coalesceMs?: number;
  /** After a failed write (EACCES, ENOSPC, EROFS…), the next attempt waits this long. */
  retryMs?: number;
}

/**
 * Keeps daemon.json in step with the broker, best effort: writes are asynchronous and coalesced
 * (a burst of connects makes one write, and never blocks accepting), and a write that fails is
 * logged and retried later. Nothing here ever throws into its callers.
 */
export class StatusWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private closed = false;
  private lastFailure: string | undefined;
  private readonly write: (dir: string, info: DaemonInfo) => Promise<void>;

  constructor(private readonly options: StatusWriterOptions) {
    this.write = options.write ?? writeDaemonFileAsync;
  }

  /** Something daemon.json shows changed: it is rewritten soon. */
  changed(): void {
    if (this.closed) return;
    this.dirty = true;
    this.schedule(this.options.coalesceMs ?? 50);
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.writing || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, delayMs);
  }

  private flush(): void {
    if (this.closed || !this.dirty) return;
    this.dirty = false;
    let retry = false;
    this.writing = this.write(this.options.dir, this.options.snapshot())
      .then(
        () => {
          if (this.lastFailure) this.options.logger.info('daemon.json is written again');
          this.lastFailure = undefined;
        },
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          // One line per kind of failure, not one per attempt.
          if (message !== this.lastFailure) this.options.logger.warn(`could not write daemon.json (${message}); serving on, will retry`);
          this.lastFailure = message;
          this.dirty = true;
          retry = true;
        },
      )
      .finally(() => {
        this.writing = undefined;
        if (this.dirty) this.schedule(retry ? (this.options.retryMs ?? 1000) : (this.options.coalesceMs ?? 50));
      });
  }

  /** No more writes; resolves once a write in flight has landed (so removing daemon.json after sticks). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
  }
}
