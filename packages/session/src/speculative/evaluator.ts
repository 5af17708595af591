import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { readRegularFileSync, type LspConnection, type SettledBy } from '@agent-lsp/lsp';
import { changedNames, uncheckedUsers, type UncheckedUsers } from './dependents.js';
import { EVALUATION_STEP_MS, EvaluationSteps } from './evaluationSteps.js';
import { baselineInSteps, dependentsInSteps } from './workspaceSteps.js';
import { SimulationError } from './errors.js';
import type { Dependent, DependentsSearch, EvaluationTarget } from './evaluationTypes.js';
import { contentHash, type Baseline, type OverlayFile } from './overlay.js';
import { BASELINE_TIMEOUT_MS, ServerBuffers, settleWithin, unconfirmed } from './serverBuffers.js';

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

/** Settles `uri` for `text` inside an open section and caches the answer (unconfirmed ones are not cached). */
async function baselineIn(target: EvaluationTarget, buffers: ServerBuffers, uri: string, languageId: string, text: string, timeoutMs = BASELINE_TIMEOUT_MS): Promise<Baseline> {
  const hash = contentHash(text);
  const cached = target.cache.get(uri, hash);
  buffers.hold(uri, languageId, text);
  if (cached) return cached;
  const settled = await settleWithin(target.conn, uri, timeoutMs);
  const baseline: Baseline = { diagnostics: settled.diagnostics, settledBy: settled.settledBy };
  if (!unconfirmed(settled.settledBy)) target.cache.set(uri, hash, baseline);
  return baseline;
}

/**
 * How long a step may hold the server: EVALUATION_STEP_MS where diagnostics are settled by a request
 * (pull, tsserver's exact query), which a step's end can cut and the next step ask again. Where they
 * come as pushes (gopls, clangd), settling waits for the server's own publications and a quiet
 * window after (re)opening a file; cutting that and closing the file at a step's end left files
 * unsettled (gopls) or baselines unconfirmed (clangd), so those evaluations keep one section.
 */
function stepMsFor(target: EvaluationTarget): number {
  if (target.hooks?.stepMs !== undefined) return target.hooks.stepMs;
  const { conn } = target;
  return conn.supportsPullDiagnostics() || conn.server.exactDiagnostics === 'tsserver' ? EVALUATION_STEP_MS : Infinity;
}

/**
 * A file's baseline at a session's first touch: the diagnostics of its on-disk text, settled in an
 * exclusive section (the server's buffer is put back as it was before the section ends).
 */
export async function takeBaseline(target: EvaluationTarget, uri: string, languageId: string, diskText: string): Promise<Baseline> {
  const cached = target.cache.get(uri, contentHash(diskText));
  if (cached) return cached;
  return exclusive(target.conn, BASELINE_TIMEOUT_MS * 2, async () => {
    const buffers = new ServerBuffers(target.conn);
    try {
      return await baselineIn(target, buffers, uri, languageId, diskText);
    } finally {
      buffers.restore();
    }
  });
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
  for (const d of dependents) buffers.reopen(d.uri, d.languageId, d.text);
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

/**
 * One evaluation. At file scope, in one exclusive section: the server is given the edited files'
 * on-disk texts (to list the declarations the edits change), then the session's texts; the
 * diagnostics are settled and collected, and every buffer is put back before the section ends.
 * Files without a baseline yet (a standalone preview) get theirs first, in the same section. The
 * other files naming a changed declaration are then counted (a text search, after the section):
 * they were not checked, and the answer says so. At workspace scope, in steps (EvaluationSteps):
 * short sections find the dependents and settle the baselines on the on-disk texts, and the last
 * one gives the server the session's texts and settles every file.
 */
export async function evaluateFiles(target: EvaluationTarget, files: readonly OverlayFile[], options: EvaluateOptions): Promise<EvaluatedFiles> {
  if (options.scope === 'workspace') return evaluateWorkspace(target, files, options);
  const { conn } = target;
  let changed: { declarations: string[]; words: string[] } | undefined;
  const namingProblems: string[] = [];
  const evaluated: EvaluatedFiles = await exclusive(conn, evaluationLeaseMs(options.timeoutMs), async () => {
    const buffers = new ServerBuffers(conn);
    try {
      for (const f of files) {
        if (!f.baseline) f.setBaseline(await baselineIn(target, buffers, f.uri, f.languageId, f.baseText));
      }
      for (const f of files) buffers.hold(f.uri, f.languageId, f.baseText);
      changed = await changedNames(conn, files, options.timeoutMs, namingProblems);
      return { files: await settleOverlay(target, buffers, files, [], options.timeoutMs) };
    } finally {
      try {
        buffers.restore();
      } catch (err) {
        options.onRestoreFailed(err as Error);
      }
    }
  });
  // Outside the section: the text search needs no server, and must not hold other clients.
  if (changed && (changed.words.length > 0 || namingProblems.length > 0)) {
    evaluated.unchecked = await uncheckedUsers(target.roots, target.server, files, changed, namingProblems);
  }
  return evaluated;
}

/** Time the last step of a workspace evaluation needs beyond the settling's own timeout (giving the texts, collecting). */
const LAST_STEP_MARGIN_MS = 1_000;

async function evaluateWorkspace(target: EvaluationTarget, files: readonly OverlayFile[], options: EvaluateOptions): Promise<EvaluatedFiles> {
  const steps = new EvaluationSteps(target.conn, files, exclusive, {
    stepMs: stepMsFor(target),
    leaseMs: evaluationLeaseMs(options.timeoutMs),
    onRestoreFailed: (err) => options.onRestoreFailed(err),
  });
  try {
    for (const f of files) {
      if (!f.baseline) f.setBaseline(await baselineInSteps(target, steps, f.uri, f.languageId, f.baseText, Date.now() + BASELINE_TIMEOUT_MS));
    }
    const { dependents, coverage } = await dependentsInSteps(target, steps, files, options.timeoutMs * DEPENDENTS_BUDGET_FACTOR);
    const out = await steps.last(options.timeoutMs + LAST_STEP_MARGIN_MS, (buffers) => settleOverlay(target, buffers, files, dependents, options.timeoutMs));
    // A dependent is read from disk when it is found, and the steps leave time between two for
    // anyone to write it: one written since was evaluated on a text that is no longer the file's,
    // so its count would be stale — it counts for nothing and says why (a field test found its old
    // errors counted after sed had removed them).
    for (const f of out) if (f.dependent && readRegularFileSync(f.path)?.text !== f.text) f.changedOnDisk = true;
    return { files: out, dependents: coverage };
  } finally {
    await steps.close();
  }
}
