import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Checkpoint, CheckpointFile, Retention } from './checkpointStore.js';
import type { Clock } from './determinism.js';
import { SessionError } from './errors.js';
import type { FileWriter } from './fileWriter.js';
import type { FileBefore } from './intent.js';
import { contentHash } from './contentHash.js';
import { currentMode, readCurrent } from './restore.js';
import type { WorkspaceJournal } from './workspaceJournal.js';
import { assertWritableRealPath } from './writablePath.js';
import type { WriterLease } from './writerLock.js';

/** One file's new state: its bytes, or null to delete it. `path` is a real, checked path. */
export interface FileChange {
  path: string;
  content: Buffer | null;
  /** Mode for a file that does not exist yet (a rename's target keeps its source's mode). */
  mode?: number | undefined;
}

export interface TransactionInit {
  id: string;
  callId: string;
  tool: string;
  kind: Checkpoint['kind'];
  target?: Checkpoint['target'];
  journal: WorkspaceJournal;
  /** The directories writes must stay inside (real paths). */
  roots: readonly string[];
  lease: WriterLease;
  writer: FileWriter;
  clock: Clock;
  retention: Retention;
  signal?: AbortSignal | undefined;
  /** The HTTP session writing, recorded in the checkpoint. */
  agent?: string | undefined;
}

type TransactionState = 'open' | 'committed' | 'rolled_back';

/**
 * The writes of one tool call, all or nothing. Before a file is first written its content (or
 * absence) goes to the blob store and the intent record; `commit` turns the intent into a
 * checkpoint, `rollback` puts every file back byte for byte and removes the files it created.
 */
export class Transaction {
  private readonly befores = new Map<string, FileBefore>();
  private readonly createdDirs: string[] = [];
  private stateValue: TransactionState = 'open';
  private readonly startedAt: Date;
  private target: Checkpoint['target'];

  constructor(private readonly init: TransactionInit) {
    this.startedAt = init.clock.now();
    this.target = init.target;
  }

  /** For rollbacks: what the checkpoint this transaction commits to rolled back to. */
  setTarget(target: NonNullable<Checkpoint['target']>): void {
    this.target = target;
  }

  get id(): string {
    return this.init.id;
  }

  get state(): TransactionState {
    return this.stateValue;
  }

  /** Every path this transaction has written or is about to write, in first-touch order. */
  get touched(): string[] {
    return [...this.befores.keys()];
  }

  /**
   * Checks every path is still real and inside the roots (the one containment check every write
   * passes, whoever planned it), saves what is about to be overwritten, then writes in order.
   */
  async write(changes: readonly FileChange[]): Promise<void> {
    this.assertOpen();
    for (const change of changes) assertWritableRealPath(change.path, this.init.roots);
    this.recordIntent(changes);
    const { writer, lease, signal } = this.init;
    for (const change of changes) {
      if (signal?.aborted) throw new SessionError('cancelled', 'The call was cancelled before its writes finished.');
      lease.check();
      if (change.content === null) {
        await writer.remove(change.path, { signal });
      } else {
        mkdirSync(dirname(change.path), { recursive: true });
        await writer.write(change.path, change.content, { mode: change.mode ?? this.befores.get(change.path)?.mode, signal });
      }
    }
  }

  /**
   * Before anything is written: saves what each file is now and adds what the transaction is about
   * to write there to the intent record (see FileBefore.wrote), which recovery trusts.
   */
  private recordIntent(changes: readonly FileChange[]): void {
    let grew = false;
    for (const change of changes) {
      let before = this.befores.get(change.path);
      if (!before) {
        const data = readCurrent(change.path);
        before = { path: change.path, before: data === null ? null : this.init.journal.blobs.put(data), wrote: [] };
        const mode = data === null ? undefined : currentMode(change.path);
        if (mode !== undefined) before.mode = mode;
        this.befores.set(change.path, before);
        if (change.content !== null) this.createdDirs.push(...missingDirs(dirname(change.path)).filter((d) => !this.createdDirs.includes(d)));
        grew = true;
      }
      const hash = change.content === null ? null : contentHash(change.content);
      if (before.wrote?.includes(hash)) continue;
      before.wrote?.push(hash);
      grew = true;
    }
    if (!grew) return;
    this.init.journal.intent.write({
      schema: 1,
      tx: this.init.id,
      call_id: this.init.callId,
      tool: this.init.tool,
      pid: process.pid,
      started_at: this.startedAt.toISOString(),
      files: [...this.befores.values()],
      created_dirs: this.createdDirs,
    });
  }

  /** Records the checkpoint and drops the intent. No checkpoint when nothing actually changed. */
  commit(): Checkpoint | undefined {
    this.assertOpen();
    const { journal, clock, retention } = this.init;
    const files: CheckpointFile[] = [];
    for (const b of this.befores.values()) {
      const data = readCurrent(b.path);
      const after = data === null ? null : journal.blobs.put(data);
      if (after !== b.before) files.push({ path: b.path, before: b.before, after });
    }
    if (files.length === 0) {
      this.stateValue = 'committed';
      journal.intent.clear();
      return undefined;
    }
    const now = clock.now();
    const checkpoint: Checkpoint = { id: this.init.id, call_id: this.init.callId, tool: this.init.tool, time: now.toISOString(), kind: this.init.kind, files };
    if (this.target) checkpoint.target = this.target;
    if (this.init.agent !== undefined) checkpoint.agent = this.init.agent;
    // The checkpoint lands before the intent goes: recovery treats an intent whose checkpoint exists
    // as committed. Until it has landed the transaction is open, so a failure here rolls it back.
    const pruned = journal.checkpoints.append(checkpoint, retention, now);
    this.stateValue = 'committed';
    journal.intent.clear();
    if (pruned.length > 0) journal.pruneBlobs();
    return checkpoint;
  }

  /** Restores every file to what it was before this transaction. Idempotent. */
  async rollback(): Promise<string[]> {
    if (this.stateValue !== 'open') return [];
    this.stateValue = 'rolled_back';
    const restored = await this.init.journal.restore([...this.befores.values()], this.createdDirs, this.init.writer);
    this.init.journal.intent.clear();
    return restored;
  }

  private assertOpen(): void {
    if (this.stateValue !== 'open') throw new Error(`transaction ${this.init.id} is ${this.stateValue}`);
  }
}

/** The directories that do not exist on the way to `dir`, outermost first. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    out.unshift(d);
    if (dirname(d) === d) break;
  }
  return out;
}
