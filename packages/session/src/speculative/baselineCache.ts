import type { Baseline } from './overlay.js';

const MAX_ENTRIES = 500;

/**
 * Settled baselines by (URI, content hash, generation). The generation changes whenever this front
 * writes files (a commit, apply_edit, a rollback): an edit elsewhere, an import, can change a
 * file's diagnostics without changing its text.
 */
export class BaselineCache {
  private readonly entries = new Map<string, Baseline>();
  private generationValue = 0;

  get generation(): number {
    return this.generationValue;
  }

  /** Files changed on disk: every cached baseline may be stale. */
  bump(): void {
    this.generationValue++;
    this.entries.clear();
  }

  private key(uri: string, hash: string): string {
    return `${uri}\0${hash}\0${this.generationValue}`;
  }

  get(uri: string, hash: string): Baseline | undefined {
    return this.entries.get(this.key(uri, hash));
  }

  set(uri: string, hash: string, baseline: Baseline): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(this.key(uri, hash), baseline);
  }
}
