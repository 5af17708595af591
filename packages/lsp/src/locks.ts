/**
 * Shared and exclusive sections over a front's language servers. Ordinary tool calls share; a
 * speculative evaluation, which puts text into the server's buffers that is not on disk, is
 * exclusive, so no query of the same front ever answers from (or resyncs over) an overlay.
 * Writer-preferring: once an exclusive section waits, new shared ones queue behind it.
 */
export class ReadWriteLock {
  private readers = 0;
  private writer = false;
  private readonly queue: { exclusive: boolean; start: () => void }[] = [];

  shared<T>(fn: () => Promise<T>): Promise<T> {
    return this.run(false, fn);
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.run(true, fn);
  }

  private async run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.queue.push({ exclusive, start });
      this.pump();
    });
    try {
      return await fn();
    } finally {
      if (exclusive) this.writer = false;
      else this.readers--;
      this.pump();
    }
  }

  /** Starts whoever may start now, in arrival order. */
  private pump(): void {
    while (this.queue.length > 0 && !this.writer) {
      const next = this.queue[0] as { exclusive: boolean; start: () => void };
      if (next.exclusive) {
        if (this.readers > 0) return;
        this.writer = true;
      } else {
        this.readers++;
      }
      this.queue.shift();
      next.start();
    }
  }
}

/** A FIFO mutex: one `run` at a time, in call order. */
export class LocalMutex {
  private readonly lock = new ReadWriteLock();

  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.exclusive(fn);
  }
}
