import type { Range } from 'vscode-languageserver-protocol';
import { pathToUri, toLspRange, UserError, type UserRange } from '@agent-lsp/protocol';
import { LocalMutex, readRegularFileSync, type DiskFile, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import type { BaselineCache } from './baselineCache.js';
import { SimulationError } from './errors.js';
import { evaluateFiles, takeBaseline, type EvaluationHooks, type EvaluationTarget, type Scope } from './evaluator.js';
import { nothingToEvaluate, reportEvaluation, type Evaluation } from './evaluationReport.js';
import { OverlayFile } from './overlay.js';
import { rangeOfText } from './textLocation.js';
import { movedOnDisk } from './commit.js';
import type { SessionEvents } from './sessionEvents.js';

export const SESSION_PHASES = ['created', 'mutated', 'evaluating', 'evaluated', 'committed', 'discarded', 'dirty', 'destroyed'] as const;
export type SessionPhase = (typeof SESSION_PHASES)[number];

/** One edit: a range (1-based, characters) or old_text, in the text as the session sees it. */
export interface EditSpec {
  /** Real path of the file. */
  path: string;
  range?: UserRange | undefined;
  oldText?: string | undefined;
  newText: string;
}

export interface EditResult {
  path: string;
  /** The overlay's own version of the file after the edit. */
  versionAfter: number;
}

export interface ChainStep {
  step: number;
  evaluation: Evaluation;
}

export interface SessionDeps {
  workspace: Workspace;
  conn: LspConnection;
  server: ServerDefinition;
  cache: BaselineCache;
  now: () => number;
  hooks?: EvaluationHooks | undefined;
  events: SessionEvents;
}

/**
 * A speculative session: an overlay of edited files in this front, over baselines taken at each
 * file's first touch. Calls on one session take turns; evaluations take the server's exclusive
 * section, so no other session (here or in another front on the same broker) sees this overlay.
 */
export class SimulationSession {
  private phaseValue: SessionPhase = 'created';
  private dirtyReason: string | undefined;
  private readonly files = new Map<string, OverlayFile>();
  private readonly turns = new LocalMutex();
  private commitStartedAt = 0;
  lastUsedAt: number;
  lastEvaluation: Evaluation | undefined;

  constructor(
    readonly id: string,
    readonly language: string,
    readonly root: string,
    private readonly deps: SessionDeps,
  ) {
    this.lastUsedAt = deps.now();
  }

  get phase(): SessionPhase {
    return this.phaseValue;
  }
  get dirty(): boolean {
    return this.phaseValue === 'dirty';
  }
  get conn(): LspConnection {
    return this.deps.conn;
  }
  /** The files the session touched, in first-touch order. */
  get overlay(): readonly OverlayFile[] {
    return [...this.files.values()];
  }

  private get target(): EvaluationTarget {
    return { conn: this.deps.conn, server: this.deps.server, roots: this.deps.workspace.rootList, cache: this.deps.cache, hooks: this.deps.hooks };
  }

  private label(path: string): string {
    return this.deps.workspace.display(path);
  }

  /** Refuses a call the session's phase does not allow. */
  private require(action: string, allowed: readonly SessionPhase[]): void {
    if (allowed.includes(this.phaseValue)) return;
    if (this.phaseValue === 'dirty') {
      throw new SimulationError('session_dirty', `Session ${this.id} is dirty (${this.dirtyReason ?? 'its server state is unknown'}), so it cannot ${action}. Call destroy_session and start a new session.`);
    }
    const hint = this.phaseValue === 'created' ? 'Call simulate_edit first.' : 'Create a new session with create_simulation_session.';
    throw new SimulationError('invalid_phase', `Session ${this.id} is ${this.phaseValue} and cannot ${action}. ${hint}`);
  }

  markDirty(reason: string): void {
    const step = this.phaseValue;
    this.phaseValue = 'dirty';
    this.dirtyReason = reason;
    this.deps.events.emit({ event: 'session.dirty', session_id: this.id, step, error: reason });
  }

  private run<T>(fn: () => Promise<T>): Promise<T> {
    this.lastUsedAt = this.deps.now();
    return this.turns.run(async () => {
      try {
        return await fn();
      } finally {
        this.lastUsedAt = this.deps.now();
      }
    });
  }

  private checkServer(path: string): string {
    const route = this.deps.workspace.registry.forFileOrThrow(path);
    if (route.server.id !== this.deps.server.id) {
      throw new SimulationError('wrong_server', `${this.label(path)} belongs to ${route.server.displayName}, but session ${this.id} simulates ${this.language} with ${this.deps.server.displayName}. Use a session of that language.`);
    }
    return route.languageId;
  }

  private readDisk(path: string): DiskFile {
    const file = readRegularFileSync(path);
    if (!file) throw new UserError('file_not_found', `Could not read ${this.label(path)}: it is missing, not a regular file, or larger than 64 MiB.`);
    return file;
  }

  private rangeIn(text: string, spec: EditSpec): Range {
    if (spec.range && spec.oldText !== undefined) throw new UserError('invalid_argument', 'Give the edit either as a range (start_line … end_column) or as old_text, not both.');
    if (spec.range) return toLspRange(text, spec.range);
    if (spec.oldText !== undefined) return rangeOfText(text, spec.oldText, this.label(spec.path));
    throw new UserError('invalid_argument', 'Say where the edit goes: start_line, start_column, end_line, end_column (1-based), or old_text (text occurring once in the file).');
  }

  /**
   * The overlay of `path`, with its baseline taken at the session's first touch of it — or, with
   * `deferBaseline`, left for the next evaluation to take in its own exclusive section.
   */
  private async touch(path: string, deferBaseline = false): Promise<OverlayFile> {
    const existing = this.files.get(path);
    if (existing) return existing;
    const languageId = this.checkServer(path);
    const { text, state } = this.readDisk(path);
    const uri = pathToUri(path);
    const baseline = deferBaseline ? undefined : await takeBaseline(this.target, uri, languageId, text, state);
    const file = new OverlayFile(path, uri, languageId, text, baseline, state);
    this.files.set(path, file);
    return file;
  }

  private async editUnlocked(spec: EditSpec, deferBaseline = false): Promise<EditResult> {
    this.require('take edits', ['created', 'mutated', 'evaluated']);
    const file = await this.touch(spec.path, deferBaseline);
    const versionAfter = file.apply({ range: this.rangeIn(file.text, spec), newText: spec.newText });
    this.phaseValue = 'mutated';
    const r = spec.range;
    const range = r ? { start_line: r.line, start_column: r.column, end_line: r.end_line, end_column: r.end_column } : null;
    this.deps.events.emit({ event: 'session.edit_applied', session_id: this.id, file: this.label(spec.path), range, version_after: versionAfter });
    return { path: spec.path, versionAfter };
  }

  edit(spec: EditSpec): Promise<EditResult> {
    return this.run(() => this.editUnlocked(spec));
  }

  /**
   * One edit and its evaluation in one exclusive section (a standalone preview): the file's
   * baseline is taken inside the evaluation's section instead of one of its own.
   */
  editAndEvaluate(spec: EditSpec, scope: Scope, timeoutMs: number): Promise<Evaluation> {
    return this.run(async () => {
      await this.editUnlocked(spec, true);
      return this.evaluateUnlocked(scope, timeoutMs);
    });
  }

  private async evaluateUnlocked(scope: Scope, timeoutMs: number): Promise<Evaluation> {
    this.require('be evaluated', ['created', 'mutated', 'evaluated']);
    const started = Date.now();
    if (!this.overlay.some((f) => f.changed)) return nothingToEvaluate(scope, this.files.size, Date.now() - started);
    const before = this.phaseValue;
    this.phaseValue = 'evaluating';
    const editCount = this.overlay.reduce((n, f) => n + f.edits.length, 0);
    this.deps.events.emit({ event: 'session.evaluation_start', session_id: this.id, edit_count: editCount, scope });
    try {
      const evaluated = await evaluateFiles(this.target, this.overlay, {
        scope,
        timeoutMs,
        onRestoreFailed: (err) => this.markDirty(err.message),
      });
      const evaluation = reportEvaluation(scope, evaluated, Date.now() - started, (path) => this.label(path));
      // Written since the baseline (an editor, git, another agent): the answer is about the
      // session's copy of the old text, not the file as it is; say so, and do not call it sure.
      const moved = movedOnDisk([...this.files.values()]);
      if (moved.length > 0) {
        evaluation.confidence = 'partial';
        evaluation.notes.push(
          `${moved.map((f) => this.label(f.path)).join(', ')} changed on disk since this session first touched ${moved.length === 1 ? 'it' : 'them'}: this evaluation describes the session's copy (the text it started from plus its edits), not the file as it is now, and commit_session with apply would refuse. Discard the session and simulate again on the current files.`,
        );
      }
      if (this.phaseValue === 'evaluating') this.phaseValue = 'evaluated';
      this.lastEvaluation = evaluation;
      this.deps.events.emit({ event: 'session.evaluation_complete', session_id: this.id, duration_ms: Date.now() - started, net_delta: evaluation.netDelta, confidence: evaluation.confidence });
      return evaluation;
    } catch (err) {
      if (this.phaseValue === 'evaluating') this.phaseValue = before;
      // The server died holding the overlay: what it holds now is unknown.
      if (!this.deps.conn.isAlive) this.markDirty(`${this.deps.server.displayName} stopped during an evaluation: ${(err as Error).message}`);
      throw err;
    }
  }

  evaluate(scope: Scope, timeoutMs: number): Promise<Evaluation> {
    return this.run(() => this.evaluateUnlocked(scope, timeoutMs));
  }

  /**
   * Applies the edits one by one, evaluating after each against the baselines. Every edit is
   * checked against the texts first, so a bad one changes nothing.
   */
  chain(specs: readonly EditSpec[], scope: Scope, timeoutMs: number): Promise<ChainStep[]> {
    return this.run(async () => {
      this.require('take edits', ['created', 'mutated', 'evaluated']);
      const scratch = new Map<string, string>();
      specs.forEach((spec, i) => {
        this.checkServer(spec.path);
        const text = scratch.get(spec.path) ?? this.files.get(spec.path)?.text ?? this.readDisk(spec.path).text;
        try {
          const probe = new OverlayFile(spec.path, '', '', text, undefined);
          probe.apply({ range: this.rangeIn(text, spec), newText: spec.newText });
          scratch.set(spec.path, probe.text);
        } catch (err) {
          if (err instanceof UserError) throw new UserError(err.code, `Step ${i + 1}: ${err.message} Nothing was applied.`);
          throw err;
        }
      });
      const steps: ChainStep[] = [];
      for (const [i, spec] of specs.entries()) {
        await this.editUnlocked(spec);
        steps.push({ step: i + 1, evaluation: await this.evaluateUnlocked(scope, timeoutMs) });
      }
      return steps;
    });
  }

  /** The files whose text the session changed (for commit). */
  changedFiles(): OverlayFile[] {
    return this.overlay.filter((f) => f.changed);
  }

  /** Runs a commit step under the session's turn, from a phase that allows it. */
  commit<T>(fn: (files: OverlayFile[]) => Promise<T>): Promise<T> {
    return this.run(async () => {
      this.require('be committed', ['mutated', 'evaluated']);
      this.commitStartedAt = this.deps.now();
      return fn(this.changedFiles());
    });
  }

  /** The commit went through: `filesWritten` files were written (0 for a patch only). */
  markCommitted(filesWritten: number): void {
    this.phaseValue = 'committed';
    this.deps.events.emit({ event: 'session.committed', session_id: this.id, files_written: filesWritten, duration_ms: this.deps.now() - this.commitStartedAt });
  }

  /** Drops the overlay. The server's buffers were restored after every evaluation; disk was never touched. */
  discard(): Promise<number> {
    return this.run(() => {
      this.require('be discarded', ['created', 'mutated', 'evaluated']);
      const edits = this.overlay.reduce((n, f) => n + f.edits.length, 0);
      this.files.clear();
      this.phaseValue = 'discarded';
      this.deps.events.emit({ event: 'session.discarded', session_id: this.id, edit_count: edits });
      return Promise.resolve(edits);
    });
  }

  destroy(): void {
    this.files.clear();
    this.phaseValue = 'destroyed';
  }
}
