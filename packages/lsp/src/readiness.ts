import { Emitter, type Disposable } from '@agent-lsp/protocol';
import type { ProgressInfo } from './progress.js';

/** `unresponsive`: the server runs but answers nothing (a broker's health probe says so). */
export type ReadinessState = 'starting' | 'indexing' | 'ready' | 'unresponsive';

export interface ReadinessSnapshot {
  state: ReadinessState;
  ready: boolean;
  progress?: ProgressInfo;
  /** Ready, but its workspace index misses part of the workspace: what it misses and what to do (pyrefly's walk can stop short). */
  partial?: string;
}

/** What partialSince compares with: the index's partiality when a question was let through. */
export interface PartialMark {
  readonly seq: number;
  readonly partial: string | undefined;
}

export class NotReadyYet extends Error {
  constructor(readonly snapshot: ReadinessSnapshot) {
    super('not ready');
  }
}

/**
 * Whether the server gives complete answers yet. Strategies (see readinessStrategies.ts) move it
 * between states; tools wait on it, or report it when asked not to wait.
 */
export class Readiness implements Disposable {
  private stateValue: ReadinessState = 'starting';
  private progressValue: ProgressInfo | undefined = { title: 'starting the language server' };
  private reloadingValue = false;
  private partialValue: string | undefined;
  /** Counts ready() calls; the last partial index that became whole, and at which of them. */
  private readySeq = 0;
  private partialEnded: { seq: number; text: string } | undefined;
  /** Why calls fail at once while the state is `unresponsive`. */
  private unresponsiveError: Error | undefined;
  private readonly emitter = new Emitter<ReadinessSnapshot>();
  readonly onChange = this.emitter.on.bind(this.emitter);
  readyAt: number | undefined;

  get state(): ReadinessState {
    return this.stateValue;
  }

  snapshot(): ReadinessSnapshot {
    const snap: ReadinessSnapshot = { state: this.stateValue, ready: this.stateValue === 'ready' };
    if (this.stateValue !== 'ready' && this.progressValue) snap.progress = { ...this.progressValue };
    if (this.stateValue === 'ready' && this.partialValue) snap.partial = this.partialValue;
    return snap;
  }

  /** Taken when a question is let through; partialSince tells whether its answer may come from a partial index. */
  partialMark(): PartialMark {
    return { seq: this.readySeq, partial: this.snapshot().partial };
  }

  /**
   * What the index missed at any moment since `mark`, if it missed anything: the server computes
   * an answer at some moment between the question and the answer, so an index that became whole
   * meanwhile (clangd built the file it had given up on while a call still waited for another part
   * of its answer) may still have given part of it.
   */
  partialSince(mark: PartialMark): string | undefined {
    const ended = this.partialEnded !== undefined && this.partialEnded.seq > mark.seq ? this.partialEnded.text : undefined;
    return this.snapshot().partial ?? mark.partial ?? ended;
  }

  /**
   * Applying a configuration file that changed on disk (configReload.ts): answers given meanwhile
   * would describe the old configuration, so queries wait for this even where they would not wait
   * for indexing.
   */
  get reloadingConfig(): boolean {
    return this.reloadingValue;
  }

  reloading(progress: ProgressInfo): void {
    this.reloadingValue = true;
    this.indexing(progress);
  }

  /** A reload that began during the first indexing ended: the state stays `indexing` until that does. */
  reloadEnded(): void {
    if (!this.reloadingValue) return;
    this.reloadingValue = false;
    this.emitter.fire(this.snapshot());
  }

  indexing(progress?: ProgressInfo): void {
    this.stateValue = 'indexing';
    this.unresponsiveError = undefined;
    if (progress) this.progressValue = { ...this.progressValue, ...progress };
    this.emitter.fire(this.snapshot());
  }

  /** `partial`: the server is as ready as it gets, but its index misses part of the workspace (ReadinessSnapshot.partial). */
  ready(partial?: string): void {
    if (this.stateValue !== 'ready') this.readyAt = Date.now();
    this.readySeq += 1;
    if (this.partialValue !== undefined && partial === undefined) this.partialEnded = { seq: this.readySeq, text: this.partialValue };
    this.partialValue = partial;
    this.stateValue = 'ready';
    this.unresponsiveError = undefined;
    this.reloadingValue = false;
    this.progressValue = undefined;
    this.emitter.fire(this.snapshot());
  }

  /**
   * The server stopped answering: waiting for it would wait with no end in sight, so waits fail
   * with `error` (one that says what to do) until it answers again (`ready` or `indexing`).
   */
  unresponsive(error: Error, progress?: ProgressInfo): void {
    this.stateValue = 'unresponsive';
    this.unresponsiveError = error;
    if (progress) this.progressValue = { ...progress };
    this.emitter.fire(this.snapshot());
  }

  /**
   * Resolves once ready. `onUpdate` sees each change meanwhile (for MCP progress). Rejects with
   * NotReadyYet at the timeout, with the signal's reason when aborted, and with the reason the
   * server is unresponsive at once (or as soon as it turns so).
   */
  waitReady(options: { timeoutMs: number; signal?: AbortSignal; onUpdate?: (s: ReadinessSnapshot) => void }): Promise<void> {
    if (this.stateValue === 'ready') return Promise.resolve();
    if (this.unresponsiveError) return Promise.reject(this.unresponsiveError);
    return new Promise<void>((resolve, reject) => {
      const done = (fn: () => void) => {
        sub.dispose();
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const sub = this.onChange((snap) => {
        const hung = this.unresponsiveError;
        if (snap.ready) done(resolve);
        else if (hung) done(() => reject(hung));
        else options.onUpdate?.(snap);
      });
      const timer = setTimeout(() => done(() => reject(new NotReadyYet(this.snapshot()))), options.timeoutMs);
      const onAbort = () => done(() => reject(options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted')));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      options.onUpdate?.(this.snapshot());
    });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
