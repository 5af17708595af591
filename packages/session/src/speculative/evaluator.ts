import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { readRegularFileSync, type DiskState, type LspConnection, type SettledBy } from '@agent-lsp/lsp';
import { changedNames, uncheckedUsers, type UncheckedUsers } from './dependents.js';
import { EVALUATION_STEP_MS, EvaluationSteps } from './evaluationSteps.js';
import { askInSteps, baselineInSteps, dependentsInSteps } from './workspaceSteps.js';
import { SimulationError } from './errors.js';
import type { Dependent, DependentsSearch, EvaluationTarget } from './evaluationTypes.js';
import { contentHash, type Baseline, type OverlayFile } from './overlay.js';
import { BASELINE_TIMEOUT_MS, settleWithin, unconfirmed, type ServerBuffers } from './serverBuffers.js';

export { BASELINE_TIMEOUT_MS } from './serverBuffers.js';
export type { Dependent, DependentsSearch, EvaluationHooks, EvaluationTarget } from './evaluationTypes.js';

/**
 * At workspace scope, finding the dependents and settling their baselines may take this many times
 * timeout_ms (default 8 s: 32 s); then every file gets timeout_ms more to settle with the edits.
 * Dependents not reached within it are named in the result, which is then `partial`.
 */
export const DEPENDENTS_BUDGET_FACTOR = 4;

export const SCOPES = ['file', 'workspace'] as const;
export type Scope = (typeof SCOPES)[number];

/** One file's diagnostics before and after, with what the diff needs. */
export interface FileEvaluation {
  path: string;
  /** A file the session did not edit, checked at workspace scope. */
  dependent: boolean;
  baseText: string;
  text: string;
  edits: readonly TextEdit[];
  regions: readonly Range[];
  baseline: Baseline;
  diagnostics: Diagnostic[];
  settledBy: SettledBy;
  /** A dependent whose disk text is no longer the one evaluated (written during the evaluation). */
  changedOnDisk?: boolean;
}

export interface EvaluatedFiles {
  files: FileEvaluation[];
  /** Set at workspace scope. */
  dependents?: DependentsSearch;
  /** Set at file scope when the edits change declarations other files may use. */
  unchecked?: UncheckedUsers;
}

/**
 * Runs `fn` in the connection's exclusive section. A section lost before `fn` ended (in daemon
 * mode, a broker lease that expired or could not be renewed: the broker restored the buffers and
 * let other agents in) makes whatever `fn` computed untrustworthy: it is refused with a clear error.
 */
export async function exclusive<T>(conn: LspConnection, leaseMs: number, fn: (lost: AbortSignal) => Promise<T>): Promise<T> {
  let lost: AbortSignal | undefined;
  const leaseLost = () => {
    const reason: unknown = lost?.reason;
    return new SimulationError(
      'lease_lost',
      `The exclusive section was lost mid-evaluation (${reason instanceof Error ? reason.message : String(reason)}); nothing was applied; call evaluate again.`,
    );
  };
  let result: T;
  try {
    result = await conn.runExclusive((signal) => {
      lost = signal;
      return fn(signal);
    }, { leaseMs });
  } catch (err) {
    throw lost?.aborted ? leaseLost() : err;
  }
  if (lost?.aborted) throw leaseLost();
  return result;
}

export { unconfirmed } from './serverBuffers.js';

/** Whether the server's diagnostics only come as pushes (clangd, a gopls too old to answer pulls): no request settles them. */
function onlyPushes(conn: LspConnection): boolean {
  return !conn.supportsPullDiagnostics() && conn.server.exactDiagnostics !== 'tsserver';
}

/**
 * How long a step may hold the server: EVALUATION_STEP_MS, unless diagnostics only come as pushes
 * and no broker shares the server: then the section is a local lock that holds only this front's
 * own calls, and one section spares the server a rebuild of the disk's text at every step's end. A
 * test may choose another length, or `Infinity` for one section, the reference a stepped
 * evaluation is compared with.
 */
function stepMsFor(target: EvaluationTarget): number {
  if (target.hooks?.stepMs !== undefined) return target.hooks.stepMs;
  const { conn } = target;
  return onlyPushes(conn) && !conn.broker ? Infinity : EVALUATION_STEP_MS;
}

/** The steps of one evaluation (or of one baseline) on `files`. */
function stepsFor(target: EvaluationTarget, files: readonly OverlayFile[], leaseMs: number, onRestoreFailed: (err: Error) => void): EvaluationSteps {
  return new EvaluationSteps(target.conn, files, exclusive, { stepMs: stepMsFor(target), leaseMs, onRestoreFailed });
}

/**
 * A file's baseline at a session's first touch: the diagnostics of its on-disk text, settled in
 * steps (the server's buffer is put back as it was at the end of each).
 */
export async function takeBaseline(target: EvaluationTarget, uri: string, languageId: string, diskText: string, disk?: DiskState): Promise<Baseline> {
  const cached = target.cache.get(uri, contentHash(diskText));
  if (cached) return cached;
  let restoreFailed: Error | undefined;
  const steps = stepsFor(target, [], BASELINE_TIMEOUT_MS * 2, (err) => (restoreFailed ??= err));
  let baseline: Baseline;
  try {
    baseline = await baselineInSteps(target, steps, { uri, languageId, text: diskText, disk }, Date.now() + BASELINE_TIMEOUT_MS);
  } finally {
    await steps.close();
  }
  // A buffer not put back: the caller must not go on as if the server held what it did before.
  if (restoreFailed) throw restoreFailed;
  return baseline;
}

export interface EvaluateOptions {
  scope: Scope;
  timeoutMs: number;
  /** Called when the server's buffers could not be put back (the session becomes dirty). */
  onRestoreFailed(err: Error): void;
}

/**
 * The session's texts given to the server in an open section (the edited files hold their on-disk
 * text and `dependents` their baselines were taken), the diagnostics settled and collected. Every
 * answer counted is asked after the session's text was given, in this same section.
 */
async function settleOverlay(target: EvaluationTarget, buffers: ServerBuffers, files: readonly OverlayFile[], dependents: readonly Dependent[], timeoutMs: number): Promise<FileEvaluation[]> {
  const { conn } = target;
  for (const f of files) buffers.hold(f.uri, f.languageId, f.text);
  for (const d of dependents) buffers.reopen(d.uri, d.languageId, d.text, d.disk);
  await target.hooks?.overlayPushed?.();
  const settled = await Promise.all([...files.map((f) => f.uri), ...dependents.map((d) => d.uri)].map((uri) => settleWithin(conn, uri, timeoutMs)));
  const out: FileEvaluation[] = files.map((f, i) => ({
    path: f.path,
    dependent: false,
    baseText: f.baseText,
    text: f.text,
    edits: f.edits,
    regions: f.regions,
    baseline: f.baseline ?? { diagnostics: [], settledBy: 'timeout' },
    diagnostics: settled[i]?.diagnostics ?? [],
    settledBy: settled[i]?.settledBy ?? 'timeout',
  }));
  dependents.forEach((d, j) => {
    const s = settled[files.length + j];
    out.push({ path: d.path, dependent: true, baseText: d.text, text: d.text, edits: [], regions: [], baseline: d.baseline, diagnostics: s?.diagnostics ?? [], settledBy: s?.settledBy ?? 'timeout' });
  });
  return out;
}

/** The lease asked for by an evaluation (renewed while it runs). */
function evaluationLeaseMs(timeoutMs: number): number {
  return Math.max(60_000, timeoutMs * (DEPENDENTS_BUDGET_FACTOR + 1) + BASELINE_TIMEOUT_MS);
}

/** A settling the end of its step may have cut short: some file's answer was not confirmed. */
function unsettled(out: readonly FileEvaluation[]): boolean {
  return out.some((f) => unconfirmed(f.settledBy));
}

/**
 * One evaluation, in steps (EvaluationSteps: short exclusive sections, each giving the server the
 * edited files' on-disk text and putting every buffer back at its end). Files without a baseline
 * yet (a standalone preview) get theirs first. At file scope the server's symbols of the on-disk
 * texts list the declarations the edits change; at workspace scope the dependents are found and
 * their baselines settled. Then one step gives the server the session's texts and settles every
 * file (run again from the start in a longer step when a step's end cut it short), so every answer
 * counted is asked after the session's text was given, in that same section. At file scope the
 * other files naming a changed declaration are then counted (a text search, after the last step):
 * they were not checked, and the answer says so.
 */
export async function evaluateFiles(target: EvaluationTarget, files: readonly OverlayFile[], options: EvaluateOptions): Promise<EvaluatedFiles> {
  const steps = stepsFor(target, files, evaluationLeaseMs(options.timeoutMs), (err) => options.onRestoreFailed(err));
  let evaluated: EvaluatedFiles;
  let changed: { declarations: string[]; words: string[] } | undefined;
  const namingProblems: string[] = [];
  try {
    for (const f of files) {
      if (!f.baseline) f.setBaseline(await baselineInSteps(target, steps, { uri: f.uri, languageId: f.languageId, text: f.baseText, disk: f.baseDisk }, Date.now() + BASELINE_TIMEOUT_MS));
    }
    let dependents: Dependent[] = [];
    let coverage: DependentsSearch | undefined;
    if (options.scope === 'workspace') ({ dependents, coverage } = await dependentsInSteps(target, steps, files, options.timeoutMs * DEPENDENTS_BUDGET_FACTOR));
    else changed = await changedNames(target.conn, files, options.timeoutMs, namingProblems, askInSteps(target, steps));
    // Where diagnostics only come as pushes, the settling is not cut by its step's end: a run cut
    // short leaves the server building the session's text, which it publishes after the step, under
    // a version no longer held (the broker drops it), and clangd does not publish a text again when
    // given it back in the next run (its ASTWorker skips inputs it reported, whatever the version);
    // building the files afresh in every run instead redoes their preambles, work a closed file's
    // build does not stop, and in short steps the server is buried (docs/broker.md). So it runs once,
    // in one step of up to timeout_ms, as a single section's settling does.
    const out = await steps.settle(options.timeoutMs, (buffers, timeoutMs) => settleOverlay(target, buffers, files, dependents, timeoutMs), unsettled, { uncut: onlyPushes(target.conn) });
    // A dependent is read from disk when it is found, and the steps leave time between two for
    // anyone to write it: one written since was evaluated on a text that is no longer the file's,
    // so its count would be stale — it counts for nothing and says why (a field test found its old
    // errors counted after sed had removed them).
    for (const f of out) if (f.dependent && readRegularFileSync(f.path)?.text !== f.text) f.changedOnDisk = true;
    evaluated = coverage ? { files: out, dependents: coverage } : { files: out };
  } finally {
    await steps.close();
  }
  // After the last step: the text search needs no server, and must not hold other clients.
  if (changed && (changed.words.length > 0 || namingProblems.length > 0)) {
    evaluated.unchecked = await uncheckedUsers(target.roots, target.server, files, changed, namingProblems);
  }
  return evaluated;
}
