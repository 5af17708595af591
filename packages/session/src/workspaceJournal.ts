import type { Logger } from '@agent-lsp/lsp';
import { join } from 'node:path';
import { BlobStore } from './blobStore.js';
import { CheckpointStore } from './checkpointStore.js';
import { SessionError } from './errors.js';
import type { FileWriter } from './fileWriter.js';
import { IntentFile, type FileBefore } from './intent.js';
import { describeRecovery, recoverIntent, type LeftoverRecovery, type LeftoverRecoveryOptions } from './leftoverRecovery.js';
import { restoreFiles } from './restore.js';
import { restoreFailedError } from './restoreFailure.js';
import { workspaceStateDir } from './statePaths.js';
import { WriterLock, type WriterLockOptions } from './writerLock.js';

/**
 * The durable state of one workspace (keyed by its root's realpath): blobs, checkpoints, the intent
 * record of the transaction in progress, and the writer lock that serialises fronts.
 */
export class WorkspaceJournal {
  readonly dir: string;
  readonly blobs: BlobStore;
  readonly checkpoints: CheckpointStore;
  readonly intent: IntentFile;
  readonly lock: WriterLock;
  /** Where `agent-lsp recover --force` saves the old content of files it could not put back. */
  readonly recoveredDir: string;

  constructor(
    readonly root: string,
    home: string,
    private readonly logger: Logger,
    lockOptions: Omit<WriterLockOptions, 'logger'> = {},
  ) {
    this.dir = workspaceStateDir(home, root);
    this.blobs = new BlobStore(join(this.dir, 'blobs'));
    this.checkpoints = new CheckpointStore(this.dir);
    this.intent = new IntentFile(this.dir);
    this.lock = new WriterLock(this.dir, { ...lockOptions, logger });
    this.recoveredDir = join(this.dir, 'recovered');
  }

  /**
   * Puts files back from the blob store (see restoreFiles). When some cannot be, the intent record
   * stays and blocks every write here: the error says which files, where the record is, and how to clear it.
   */
  async restore(files: readonly FileBefore[], createdDirs: readonly string[], writer: FileWriter): Promise<string[]> {
    try {
      return await restoreFiles(files, createdDirs, this.blobs, writer);
    } catch (err) {
      if (!(err instanceof SessionError) || err.code !== 'restore_failed') throw err;
      throw restoreFailedError(err, { root: this.root, intentPath: this.intent.path, recoveredDir: this.recoveredDir });
    }
  }

  /**
   * Under the writer lock: rolls back a transaction a dead front left half done (see recoverIntent).
   * Undefined when there was nothing to do, or when the transaction had in fact committed.
   */
  async recoverLeftover(options: LeftoverRecoveryOptions): Promise<LeftoverRecovery | undefined> {
    const intent = this.intent.read();
    if (!intent) return undefined;
    if (this.checkpoints.find(intent.tx)) {
      // It committed and died before removing its intent: nothing to undo.
      this.intent.clear();
      return undefined;
    }
    const outcome = await recoverIntent(this, intent, options);
    this.intent.clear();
    this.logger.warn(`${describeRecovery(outcome)} (in ${this.root})`);
    return outcome;
  }

  /** Deletes blobs no checkpoint (and no intent) refers to. */
  pruneBlobs(): void {
    const keep = this.checkpoints.referencedBlobs();
    for (const f of this.intent.read()?.files ?? []) if (f.before) keep.add(f.before);
    this.blobs.prune(keep);
  }
}
