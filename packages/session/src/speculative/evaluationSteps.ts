import { RequestTimeoutError, type LspConnection } from '@agent-lsp/lsp';
import type { OverlayFile } from './overlay.js';
import { ServerBuffers } from './serverBuffers.js';

/**
 * The longest one step of an evaluation holds the server for itself (unless a request or the last
 * settling needs longer, see `growth`): through a broker, each step is one lease, and the other
 * clients' waiting requests run between two (docs/broker.md, "How long an agent's evaluation holds
 * the others").
 */
export const EVALUATION_STEP_MS = 2_000;
/** A step with less than this left ends before a request rather than cut it short at once. */
const MIN_REQUEST_MS = 100;
/** A timer may fire a millisecond before the time it was set for (rounding). */
const TIMER_SLACK_MS = 5;

/** How a step's exclusive section is taken (the evaluator's `exclusive`, which turns a lost lease into lease_lost). */
export type RunExclusive = <T>(conn: LspConnection, leaseMs: number, fn: () => Promise<T>) => Promise<T>;

export interface EvaluationStepsOptions {
  /** Longest step; `Infinity` runs the whole evaluation in one section. */
  stepMs: number;
  /** The lease length asked for (renewed while a step runs). */
  leaseMs: number;
  onRestoreFailed(err: Error): void;
}

interface Step {
  buffers: ServerBuffers;
  endsAt: number;
  /** Requests of the evaluation in flight in it: a step past its time ends once there are none. */
  busy: number;
  end(): void;
  /** Settles once the section has ended (buffers restored); rejects when the section was lost. */
  ended: Promise<void>;
}

/**
 * An evaluation as a series of short exclusive sections instead of one long one. Every
 * step starts from the server's shared state, gives the edited files their on-disk text (the
 * dependents and their baselines are about that text) and ends by putting every buffer it changed
 * back, so the requests of other clients that run between two steps read what they read without
 * the evaluation: the disk's text or their own, never the session's. Only the last step gives the
 * server the session's text (`settle`); each answer it counts is asked after that text was given, in
 * that same section (the single-section order, see evaluateFiles).
 */
export class EvaluationSteps {
  private step: Step | undefined;
  /**
   * How many times `stepMs` the next step lasts: doubled by each request cut short, back to 1 once
   * one is answered in time, so a server that cannot answer one request within a step (a cold one
   * checking a large file, if it keeps no work across a cancel) still answers it. It has no cap: a
   * request's last try is given all the time a single section would have given it, so its answer is
   * the one a single section gets; a step is then at most twice what the server needed.
   */
  private growth = 1;
  /** Steps ended on their own (past their time, nothing in flight): the evaluation waits for them. */
  private released: Promise<void> = Promise.resolve();
  /** Why one of them failed (a lost lease): the evaluation fails with it. */
  private failure: Error | undefined;

  constructor(
    private readonly conn: LspConnection,
    private readonly files: readonly OverlayFile[],
    private readonly runExclusive: RunExclusive,
    private readonly options: EvaluationStepsOptions,
  ) {}

  /**
   * One request of the first phase, given at most the time left in its step and in `deadline` (ms
   * since the epoch). A request the end of its step cut short (a timeout, or `cut(result)` for an
   * answer that says it ran out of time) is asked again in the next step while `deadline` lasts;
   * whatever the deadline ends is the caller's, as it would have been in one section.
   */
  async ask<T>(deadline: number, fn: (buffers: ServerBuffers, timeoutMs: number) => Promise<T>, cut?: (result: T) => boolean): Promise<T> {
    for (;;) {
      const step = await this.current(MIN_REQUEST_MS);
      const stepLeft = step.endsAt - Date.now();
      const left = deadline - Date.now();
      const byStep = stepLeft < left;
      let result: T;
      const timeoutMs = Math.max(1, Math.min(stepLeft, left));
      const askedAt = Date.now();
      step.busy++;
      try {
        result = await fn(step.buffers, timeoutMs);
      } catch (err) {
        if (!(err instanceof RequestTimeoutError) || !byStep) throw err;
        await this.cutShort();
        continue;
      } finally {
        step.busy--;
      }
      // Its timer may fire a little before the step's end: what ran out its time was cut short.
      if (!byStep || !cut?.(result) || Date.now() - askedAt + TIMER_SLACK_MS < timeoutMs) {
        this.growth = 1;
        this.releaseIfDone(step);
        return result;
      }
      await this.cutShort();
    }
  }

  /**
   * The last phase: `fn` gives the server the session's text and settles every file within the
   * `timeoutMs` it is given, in one step, so each answer it counts is asked after that text was
   * given, in the same section (the single-section order). When the step's end cut it short
   * (`cut(result)`: an answer not confirmed when its time ran out), the step ends — the server gets
   * the disk's text back and the others' waiting requests run — and `fn` runs again, from the start,
   * in a step twice as long, until one is not cut or is given the whole `timeoutMs`: then its answer
   * is the one a single section gives. Only the answer of that last run is returned. With `uncut`,
   * `fn` runs once, in a step given the whole `timeoutMs` (a server whose settling a step's end must
   * not cut: see evaluateFiles).
   */
  async settle<T>(timeoutMs: number, fn: (buffers: ServerBuffers, timeoutMs: number) => Promise<T>, cut: (result: T) => boolean, options: { uncut?: boolean } = {}): Promise<T> {
    if (options.uncut) this.growth = Math.max(this.growth, Math.ceil(timeoutMs / this.options.stepMs));
    try {
      for (;;) {
        // A run begun near a step's end would only be cut: it starts in a step with half its length left
        // (uncut: with all of timeoutMs left).
        const step = await this.current(options.uncut ? timeoutMs : Math.min(timeoutMs, this.stepLength() / 2));
        const stepLeft = step.endsAt - Date.now();
        const byStep = stepLeft < timeoutMs;
        const runMs = Math.max(1, Math.min(stepLeft, timeoutMs));
        const startedAt = Date.now();
        step.busy++;
        let result: T;
        try {
          result = await fn(step.buffers, runMs);
        } finally {
          step.busy--;
        }
        if (!byStep || !cut(result) || Date.now() - startedAt + TIMER_SLACK_MS < runMs) {
          this.growth = 1;
          return result;
        }
        await this.cutShort();
      }
    } finally {
      await this.endStep();
    }
  }

  /** How long the next step lasts. */
  private stepLength(): number {
    return this.options.stepMs * this.growth;
  }

  private async cutShort(): Promise<void> {
    this.growth *= 2;
    await this.endStep();
  }

  /** Ends the open step, if any (also when the evaluation failed), and waits for every step to have ended. */
  async close(): Promise<void> {
    await this.endStep();
    await this.released;
    if (this.failure) throw this.failure;
  }

  private async current(needMs: number): Promise<Step> {
    if (this.failure) throw this.failure;
    if (this.step && this.step.endsAt - Date.now() < needMs) await this.endStep();
    this.step ??= await this.open();
    return this.step;
  }

  /**
   * Ends `step` without waiting when its time is up and nothing of the evaluation is in flight in
   * it: the evaluation's own work between requests (reading files, searching text) must not hold
   * the other clients.
   */
  private releaseIfDone(step: Step): void {
    if (this.step !== step || step.busy > 0 || Date.now() + TIMER_SLACK_MS < step.endsAt) return;
    this.step = undefined;
    step.end();
    const ended = step.ended.catch((err: Error) => {
      this.failure ??= err;
    });
    this.released = Promise.all([this.released, ended]).then(() => undefined);
  }

  private async endStep(): Promise<void> {
    const step = this.step;
    if (!step) return;
    this.step = undefined;
    step.end();
    await step.ended;
  }

  private open(): Promise<Step> {
    const { conn, files, options } = this;
    return new Promise<Step>((resolve, reject) => {
      let opened = false;
      let end = () => {};
      const over = new Promise<void>((r) => (end = r));
      let ended: Promise<void> = over;
      ended = this.runExclusive(conn, options.leaseMs, async () => {
        // A local lock may run this at once: `ended` is the section's own promise from the next turn on.
        await Promise.resolve();
        const buffers = new ServerBuffers(conn);
        try {
          for (const f of files) buffers.hold(f.uri, f.languageId, f.baseText, f.baseDisk);
          opened = true;
          const step: Step = { buffers, endsAt: Date.now() + this.stepLength(), busy: 0, end, ended };
          const timer = Number.isFinite(options.stepMs) ? setTimeout(() => this.releaseIfDone(step), step.endsAt - Date.now()) : undefined;
          resolve(step);
          await over;
          clearTimeout(timer);
        } finally {
          try {
            buffers.restore();
          } catch (err) {
            options.onRestoreFailed(err as Error);
          }
        }
      });
      ended.catch((err: Error) => {
        if (!opened) reject(err);
      });
    });
  }
}
