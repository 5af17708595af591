import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { Logger } from '@agent-lsp/lsp';
import { SessionError } from './errors.js';

/** A held writer lock. `compromised` is set when the lock was lost while held. */
export interface WriterLease {
  readonly compromised: Error | undefined;
  /** Fails (as lock_compromised) when the lock was lost: writing on would race another front. */
  check(): void;
  release(): Promise<void>;
}

export interface WriterLockOptions {
  logger: Logger;
  /** proper-lockfile calls a lock stale after this long without refresh (a dead holder's lock). */
  staleMs?: number;
  /** How long to wait for another front's transaction before giving up. */
  timeoutMs?: number;
}

const RETRY_MS = 100;

/**
 * One writer at a time per workspace, across fronts: a proper-lockfile lock in the workspace's
 * state dir, plus a queue so calls of this front wait their turn without polling the disk.
 * A front killed while holding it leaves a lock that turns stale after `staleMs`.
 */
export class WriterLock {
  private readonly target: string;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    dir: string,
    private readonly options: WriterLockOptions,
  ) {
    this.target = join(dir, 'writer');
  }

  async acquire(signal?: AbortSignal): Promise<WriterLease> {
    let releaseTurn!: () => void;
    const turn = new Promise<void>((r) => (releaseTurn = r));
    const previous = this.queue;
    this.queue = previous.then(() => turn);
    try {
      await waitOrAbort(previous, signal);
      return await this.lockFile(releaseTurn, signal);
    } catch (err) {
      releaseTurn();
      throw err;
    }
  }

  private async lockFile(releaseTurn: () => void, signal: AbortSignal | undefined): Promise<WriterLease> {
    const staleMs = this.options.staleMs ?? 5000;
    const deadline = Date.now() + (this.options.timeoutMs ?? 60_000);
    let compromised: Error | undefined;
    for (;;) {
      if (signal?.aborted) throw new SessionError('cancelled', 'The call was cancelled while it waited for the workspace writer lock.');
      try {
        const unlock = await lockfile.lock(this.target, {
          realpath: false,
          lockfilePath: `${this.target}.lock`,
          stale: staleMs,
          update: Math.max(1000, Math.floor(staleMs / 4)),
          onCompromised: (err) => {
            compromised = err;
            this.options.logger.warn(`workspace writer lock compromised: ${err.message}`);
          },
        });
        let released = false;
        return {
          get compromised() {
            return compromised;
          },
          check() {
            if (compromised) throw new SessionError('lock_compromised', `The workspace writer lock was lost (${compromised.message}); another front may be writing. Nothing was kept.`);
          },
          async release() {
            if (released) return;
            released = true;
            if (!compromised) await unlock().catch(() => undefined);
            releaseTurn();
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
        if (Date.now() > deadline) {
          throw new SessionError('lock_unavailable', 'Another agent-lsp front has been writing to this workspace for too long; try again later.');
        }
        await delay(RETRY_MS, signal);
      }
    }
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function waitOrAbort(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new SessionError('cancelled', 'The call was cancelled while it waited for another write to finish.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
