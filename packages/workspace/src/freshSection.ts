import { ReadWriteLock } from '@agent-lsp/lsp';

/**
 * The front's shared/exclusive section with read-your-writes freshness at its door: every tool
 * call (shared) and every speculative evaluation (exclusive) first brings the documents the
 * servers hold open for us in step with the disk, so no answer is computed on text older than
 * the disk's at the moment the call began.
 */
export class FreshSection extends ReadWriteLock {
  constructor(private readonly syncFromDisk: () => Promise<void>) {
    super();
  }

  override shared<T>(fn: () => Promise<T>): Promise<T> {
    return super.shared(async () => {
      await this.syncFromDisk();
      return fn();
    });
  }

  override exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return super.exclusive(async () => {
      await this.syncFromDisk();
      return fn();
    });
  }
}
