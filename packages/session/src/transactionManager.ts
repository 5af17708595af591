import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult } from 'vscode-languageserver-protocol';
import { displayPath, Emitter, UserError } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import { resolveDirectory, type Workspace } from '@agent-lsp/workspace';
import { syncServerBuffers } from './bufferSync.js';
import type { Checkpoint, Retention } from './checkpointStore.js';
import type { Clock, IdGenerator } from './determinism.js';
import { EditPlan } from './editPlan.js';
import { SessionError } from './errors.js';
import type { FileWriter } from './fileWriter.js';
import { writerAlive } from './intent.js';
import type { LeftoverRecovery, LeftoverRecoveryOptions } from './leftoverRecovery.js';
import type { ToolCall } from './toolCall.js';
import { Transaction, type FileChange } from './transaction.js';
import { WorkspaceJournal } from './workspaceJournal.js';
import { resolveWritablePath } from './writablePath.js';

export interface TransactionManagerOptions {
  workspace: Workspace;
  logger: Logger;
  /** The state home (see stateHome). */
  home: string;
  clock: Clock;
  ids: IdGenerator;
  writer: FileWriter;
  retention: Retention;
  lock?: { staleMs?: number; timeoutMs?: number };
  /** The HTTP session this manager writes for: its checkpoints carry it (see CheckpointService). */
  agent?: string | undefined;
}

interface ServerEditTarget {
  tx: Transaction;
  /** Server edits being written: the command's transaction ends only after them. */
  pending: Set<Promise<unknown>>;
  failure?: Error;
}

export interface TransactOptions {
  signal?: AbortSignal | undefined;
  /** The workspace root whose journal to use (default: the current workspace). */
  rootDir?: string | undefined;
  kind?: Checkpoint['kind'];
  target?: Checkpoint['target'];
}

export interface TransactResult<T> {
  value: T;
  /** Undefined when the call changed no file. */
  checkpoint: Checkpoint | undefined;
}

/**
 * The front's way to write: every write runs as a transaction of one workspace journal, under that
 * workspace's writer lock, after any transaction a dead front left half done has been rolled back.
 * On any failure, timeout or cancellation the files are restored and the servers' buffers follow.
 */
export class TransactionManager {
  private readonly journals = new Map<string, WorkspaceJournal>();
  /** Roots whose leftovers have been looked for. */
  private readonly recovered = new Set<string>();
  /** The transaction of the execute_command call in progress, which takes the server's workspace/applyEdit. */
  private serverEditTarget: ServerEditTarget | undefined;
  private readonly diskEmitter = new Emitter<readonly string[]>();
  /** Fires with the paths after every write or restore this manager made on disk. */
  readonly onDiskChanged = this.diskEmitter.on.bind(this.diskEmitter);

  constructor(private readonly options: TransactionManagerOptions) {}

  get workspace(): Workspace {
    return this.options.workspace;
  }

  /** The HTTP session this manager writes for; undefined for a stdio front. */
  get agent(): string | undefined {
    return this.options.agent;
  }

  /** The journal of `rootDir`, else of the current workspace's primary root. */
  journal(rootDir?: string): WorkspaceJournal {
    const root = rootDir !== undefined ? resolveDirectory(rootDir) : this.workspace.primaryRoot;
    if (!root) throw new UserError('no_workspace', 'No workspace is set. Call start_lsp with root_dir first, or pass root_dir.');
    let journal = this.journals.get(root);
    if (!journal) {
      journal = new WorkspaceJournal(root, this.options.home, this.options.logger, this.options.lock);
      this.journals.set(root, journal);
    }
    return journal;
  }

  /** How a path is shown: relative to the journal's root or a workspace root, else absolute. */
  label(journal: WorkspaceJournal, path: string): string {
    return displayPath([journal.root, ...this.workspace.rootList], path);
  }

  /** A plan of edits on the current workspace, checked against its roots. */
  newPlan(): EditPlan {
    const roots = this.workspace.rootList;
    return new EditPlan({ resolve: (p) => resolveWritablePath(p, roots), label: (p) => this.workspace.display(p) });
  }

  /**
   * The first time a workspace is seen, rolls back what a dead front left half done there, before
   * the call is answered (see recoverIntent), and says what it did. An intent whose front is still
   * alive is its own business.
   */
  async recoverWorkspace(signal?: AbortSignal): Promise<LeftoverRecovery | undefined> {
    const root = this.workspace.primaryRoot;
    if (!root || this.recovered.has(root)) return undefined;
    const journal = this.journal(root);
    const intent = journal.intent.read();
    if (intent && writerAlive(intent)) return undefined;
    this.recovered.add(root);
    if (!intent) return undefined;
    const lease = await journal.lock.acquire(signal);
    try {
      const outcome = await journal.recoverLeftover(this.recoveryOptions());
      if (outcome) await syncServerBuffers(this.workspace, outcome.restored.map((path) => ({ path, existed: true })), this.options.logger);
      return outcome;
    } finally {
      await lease.release();
    }
  }

  private recoveryOptions(): LeftoverRecoveryOptions {
    return { writer: this.options.writer, clock: this.options.clock, retention: this.options.retention };
  }

  /**
   * Runs `body` as one transaction: everything it writes through `tx` commits to one checkpoint,
   * or, if it throws, is cancelled, or the lock is lost, is put back byte for byte.
   */
  async transact<T>(call: ToolCall, options: TransactOptions, body: (tx: Transaction, journal: WorkspaceJournal) => Promise<T>): Promise<TransactResult<T>> {
    const inferred = this.workspace.rootInferred;
    if (inferred && options.rootDir === undefined) {
      throw new UserError(
        'no_workspace',
        `${call.tool} writes only inside a workspace that was chosen, and ${this.workspace.primaryRoot ?? 'the root'} was only inferred from a file path. Call start_lsp with root_dir (the project directory) first, or start agent-lsp with --root (or let the MCP client send its roots). Nothing was written.`,
      );
    }
    const journal = this.journal(options.rootDir);
    call.noteRoot(journal.root);
    const lease = await journal.lock.acquire(options.signal);
    try {
      await journal.recoverLeftover(this.recoveryOptions());
      // Refused before anything is written (and no intent left) when the checkpoints cannot be read.
      journal.checkpoints.all();
      const tx = new Transaction({
        id: this.options.ids.next('cp'),
        callId: call.id,
        tool: call.tool,
        kind: options.kind ?? 'write',
        ...(options.target ? { target: options.target } : {}),
        journal,
        // An inferred root is not a place to write: only the journal's own root counts then.
        roots: inferred ? [journal.root] : [...new Set([journal.root, ...this.workspace.rootList])],
        lease,
        writer: this.options.writer,
        clock: this.options.clock,
        retention: this.options.retention,
        signal: options.signal,
        agent: this.options.agent,
      });
      const existedBefore = new Map<string, boolean>();
      try {
        const value = await body(tx, journal);
        if (options.signal?.aborted) throw new SessionError('cancelled', 'The call was cancelled; its writes were rolled back.');
        lease.check();
        const checkpoint = tx.commit();
        for (const f of checkpoint?.files ?? []) existedBefore.set(f.path, f.before !== null);
        call.noteCommitted(checkpoint?.files.map((f) => f.path) ?? [], checkpoint?.id);
        await this.sync(existedBefore);
        return { value, checkpoint };
      } catch (err) {
        const touched = tx.touched;
        for (const p of touched) existedBefore.set(p, true);
        await tx.rollback();
        // A call refused before it wrote anything has nothing to roll back.
        if (touched.length > 0) call.noteRolledBack(touched, reasonOf(err));
        await this.sync(existedBefore);
        throw err;
      }
    } finally {
      await lease.release();
    }
  }

  /** Plans with `build`, then writes the plan's changes in one transaction. */
  async applyPlan(call: ToolCall, signal: AbortSignal | undefined, build: (plan: EditPlan) => void | Promise<void>): Promise<TransactResult<FileChange[]>> {
    return this.transact(call, { signal }, async (tx) => {
      const plan = this.newPlan();
      await build(plan);
      const changes = plan.changes();
      await tx.write(changes);
      return changes;
    });
  }

  /**
   * Runs `body` (which makes the server run a command) as one transaction that takes every
   * workspace/applyEdit the server sends meanwhile. A refused or failed server edit fails the call.
   * `body` may write through the transaction itself first (a code action's edit before its command).
   */
  async withServerEdits<T>(call: ToolCall, signal: AbortSignal | undefined, body: (tx: Transaction) => Promise<T>): Promise<TransactResult<T>> {
    return this.transact(call, { signal }, async (tx) => {
      const target: ServerEditTarget = { tx, pending: new Set() };
      this.serverEditTarget = target;
      try {
        // A server may send workspace/applyEdit right before its answer (pyright does): the answer
        // can arrive while that edit is still being written.
        const value = await body(tx).finally(() => Promise.all(target.pending));
        while (target.pending.size > 0) await Promise.all(target.pending);
        if (target.failure) throw target.failure;
        return value;
      } finally {
        this.serverEditTarget = undefined;
      }
    });
  }

  /** The workspace/applyEdit handler: edits land in the execute_command transaction, else are refused. */
  async handleServerEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    const target = this.serverEditTarget;
    if (!target || target.tx.state !== 'open') {
      return { applied: false, failureReason: 'agent-lsp applies server edits only while execute_command or apply_fix runs; use apply_edit for this edit.' };
    }
    const work = (async (): Promise<ApplyWorkspaceEditResult> => {
      try {
        const plan = this.newPlan();
        plan.applyWorkspaceEdit(params.edit);
        await target.tx.write(plan.changes());
        return { applied: true };
      } catch (err) {
        target.failure ??= err instanceof Error ? err : new Error(String(err));
        return { applied: false, failureReason: reasonOf(err) };
      }
    })();
    target.pending.add(work);
    void work.finally(() => target.pending.delete(work));
    return work;
  }

  private async sync(existedBefore: Map<string, boolean>): Promise<void> {
    const changes = [...existedBefore].map(([path, existed]) => ({ path, existed }));
    if (changes.length > 0) this.diskEmitter.fire(changes.map((c) => c.path));
    await syncServerBuffers(this.workspace, changes, this.options.logger);
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof SessionError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
