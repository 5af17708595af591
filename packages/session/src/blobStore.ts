import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@agent-lsp/lsp';
import { contentHash } from './contentHash.js';
import { SessionError } from './errors.js';

/**
 * Content-addressed store of file contents (`blobs/<2 hex>/<sha256>`). A blob is written once,
 * atomically, and read back verified, so a checkpoint can always tell whether its bytes are intact.
 */
export class BlobStore {
  constructor(private readonly dir: string) {}

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash);
  }

  /** Stores `data` (if not already there) and returns its hash. */
  put(data: Uint8Array): string {
    const hash = contentHash(data);
    const path = this.pathOf(hash);
    if (existsSync(path)) return hash;
    mkdirSync(join(this.dir, hash.slice(0, 2)), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(path, data, { mode: 0o600 });
    return hash;
  }

  get(hash: string): Buffer {
    let data: Buffer;
    try {
      data = readFileSync(this.pathOf(hash));
    } catch {
      throw new SessionError('corrupt_state', `The saved content ${hash.slice(0, 12)} is missing from ${this.dir}; this checkpoint can no longer be restored.`);
    }
    if (contentHash(data) !== hash) {
      throw new SessionError('corrupt_state', `The saved content ${hash.slice(0, 12)} in ${this.dir} is damaged; this checkpoint can no longer be restored.`);
    }
    return data;
  }

  /** Deletes every blob not in `keep`; returns how many went. */
  prune(keep: ReadonlySet<string>): number {
    let removed = 0;
    if (!existsSync(this.dir)) return 0;
    for (const bucket of readdirSync(this.dir)) {
      for (const name of readdirSync(join(this.dir, bucket))) {
        if (keep.has(name)) continue;
        rmSync(join(this.dir, bucket, name), { force: true });
        removed++;
      }
    }
    return removed;
  }
}
