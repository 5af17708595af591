import { Emitter, type Disposable } from '@agent-lsp/protocol';
import type { ProgressInfo } from './progress.js';

export type ReadinessState = 'starting' | 'indexing' | 'ready';

export interface ReadinessSnapshot {
  state: ReadinessState;
  ready: boolean;
  progress?: ProgressInfo;
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
  private readonly emitter = new Emitter<ReadinessSnapshot>();
  readonly onChange = this.emitter.on.bind(this.emitter);
  readyAt: number | undefined;

  get state(): ReadinessState {
    return this.stateValue;
  }

  snapshot(): ReadinessSnapshot {
    const snap: ReadinessSnapshot = { state: this.stateValue, ready: this.stateValue === 'ready' };
    if (this.stateValue !== 'ready' && this.progressValue) snap.progress = { ...this.progressValue };
    return snap;
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

  indexing(progress?: ProgressInfo): void {
    this.stateValue = 'indexing';
    if (progress) this.progressValue = { ...this.progressValue, ...progress };
    this.emitter.fire(this.snapshot());
  }

  ready(): void {
    if (this.stateValue !== 'ready') this.readyAt = Date.now();
    this.stateValue = 'ready';
    this.reloadingValue = false;
    this.progressValue = undefined;
    this.emitter.fire(this.snapshot());
  }

  /**
   * Resolves once ready. `onUpdate` sees each change meanwhile (for MCP progress). Rejects with
   * NotReadyYet at the timeout, or with the signal's reason when aborted.
   */
  waitReady(options: { timeoutMs: number; signal?: AbortSignal; onUpdate?: (s: ReadinessSnapshot) => void }): Promise<void> {
    if (this.stateValue === 'ready') return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = (fn: () => void) => {
        sub.dispose();
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const sub = this.onChange((snap) => {
        if (snap.ready) done(resolve);
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
