import { join } from 'node:path';
import { SessionError } from './errors.js';
import { readJson, writeJsonAtomic } from './jsonFile.js';

/** Where a rollback goes in a checkpoint: to the state before its call, or after it (rollbackPlan.ts). */
export const ROLLBACK_POSITIONS = ['before', 'after'] as const;
export type RollbackPosition = (typeof ROLLBACK_POSITIONS)[number];

export const CHECKPOINT_KINDS = ['write', 'rollback'] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

/** One file a checkpointed call changed: content hashes before and after (null: absent). */
export interface CheckpointFile {
  path: string;
  before: string | null;
  after: string | null;
}

/** What one tool call that wrote left behind, to list, diff and roll back to. */
export interface Checkpoint {
  id: string;
  call_id: string;
  tool: string;
  /** ISO 8601. */
  time: string;
  kind: CheckpointKind;
  files: CheckpointFile[];
  /** For rollbacks: what was rolled back to. */
  target?: { checkpoint_id: string; position: RollbackPosition };
  /** The HTTP session whose call made it (the audit log's agent); absent for a stdio front's. */
  agent?: string;
}

export interface Retention {
  /** Checkpoints kept at most (oldest go first). */
  maxCount: number;
  /** Checkpoints older than this go. */
  maxAgeMs: number;
}

export const DEFAULT_RETENTION: Retention = { maxCount: 200, maxAgeMs: 30 * 24 * 3600_000 };

interface StoreFile {
  schema: 1;
  checkpoints: Checkpoint[];
}

/**
 * The checkpoints of one workspace, oldest first, in `checkpoints.json` (rewritten atomically).
 * Writers hold the workspace's writer lock; readers may read at any time.
 */
export class CheckpointStore {
  private readonly path: string;

  constructor(dir: string) {
    this.path = join(dir, 'checkpoints.json');
  }

  /** Oldest first. */
  all(): Checkpoint[] {
    const file = readJson<StoreFile>(this.path);
    if (file === undefined) return [];
    if (file.schema !== 1 || !Array.isArray(file.checkpoints)) {
      throw new SessionError('corrupt_state', `${this.path} has an unknown format; move it aside to continue.`);
    }
    return file.checkpoints;
  }

  find(id: string): Checkpoint | undefined {
    return this.all().find((c) => c.id === id);
  }

  /** Appends a checkpoint and prunes by count and age; returns the pruned ones. */
  append(checkpoint: Checkpoint, retention: Retention, now: Date): Checkpoint[] {
    const all = [...this.all(), checkpoint];
    const oldest = now.getTime() - retention.maxAgeMs;
    const kept = all.filter((c) => new Date(c.time).getTime() >= oldest).slice(-retention.maxCount);
    const keptIds = new Set(kept.map((c) => c.id));
    writeJsonAtomic(this.path, { schema: 1, checkpoints: kept } satisfies StoreFile);
    return all.filter((c) => !keptIds.has(c.id));
  }

  /** Every blob hash a kept checkpoint refers to. */
  referencedBlobs(): Set<string> {
    const hashes = new Set<string>();
    for (const c of this.all()) {
      for (const f of c.files) {
        if (f.before) hashes.add(f.before);
        if (f.after) hashes.add(f.after);
      }
    }
    return hashes;
  }
}
