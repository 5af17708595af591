/**
 * A FIFO mutex for exclusive sections in direct mode (one front, one server): speculative
 * evaluations take turns changing the server's buffers. In daemon mode the broker's lease adds
 * the same guarantee across fronts.
 */
export class LocalMutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
