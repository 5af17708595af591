import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { pathToUri } from '@agent-lsp/protocol';
import { readRegularFileSync, type LspConnection, type ServerDefinition, type SettledBy } from '@agent-lsp/lsp';
import type { BaselineCache } from './baselineCache.js';
import { changedNames, findDependents, uncheckedUsers, type UncheckedUsers } from './dependents.js';
import { SimulationError } from './errors.js';
import { contentHash, type Baseline, type OverlayFile } from './overlay.js';
import { ServerBuffers, settleWithin } from './serverBuffers.js';

/** Baselines are settled once per file and content; they may take a cold server a while. */
export const BASELINE_TIMEOUT_MS = 60_000;
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
}

/** How a workspace-scope evaluation reached the files that depend on the edits. */
export interface DependentsSearch {
  /** Dependent files found. */
  found: number;
  /** Found but not evaluated: the time budget ran out before their baseline was taken. */
  unreached: string[];
  /** Why the search may have missed dependents (a server error, no references support, the budget). */
  problems: string[];
  budgetMs: number;
}

export interface EvaluatedFiles {
  files: FileEvaluation[];
  /** Set at workspace scope. */
  dependents?: DependentsSearch;
  /** Set at file scope when the edits change declarations other files may use. */
  unchecked?: UncheckedUsers;
}

/** Points where a test (and only a test, through the composition root) may step in. */
export interface EvaluationHooks {
  /** The overlay is in the server's buffers and settling is about to start; the section is held. */
  overlayPushed?(): Promise<void>;
}

export interface EvaluationTarget {
  conn: LspConnection;
  server: ServerDefinition;
  roots: readonly string[];
  cache: BaselineCache;
  hooks?: EvaluationHooks | undefined;
}

/**
 * Runs `fn` in the connection's exclusive section. A section lost before `fn` ended (in daemon
 * mode, a broker lease that expired or could not be renewed: the broker restored the buffers and
 * let other agents in) makes whatever `fn` computed untrustworthy: it is refused with a clear error.
 */
async function exclusive<T>(conn: LspConnection, leaseMs: number, fn: (lost: AbortSignal) => Promise<T>): Promise<T> {
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

/** A baseline the server did not confirm for exactly its text (a quiet window, a timeout). */
export function unconfirmed(settledBy: SettledBy): boolean {
  return settledBy === 'quiet' || settledBy === 'timeout';
}

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

interface Dependent {
  path: string;
  uri: string;
  languageId: string;
  text: string;
  baseline: Baseline;
}

/**
 * The dependents of the edits, baselined on their disk text, within the budget. Must run while the
 * server holds the edited files' disk text.
 */
async function baselineDependents(target: EvaluationTarget, buffers: ServerBuffers, files: readonly OverlayFile[], budgetMs: number): Promise<{ dependents: Dependent[]; coverage: DependentsSearch }> {
  const deadline = Date.now() + budgetMs;
  const found = await findDependents(target.conn, target.server, target.roots, files, deadline);
  const dependents: Dependent[] = [];
  const unexamined: string[] = [];
  for (const path of found.paths) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      unexamined.push(path);
      continue;
    }
    const text = readRegularFileSync(path)?.text;
    if (text === undefined) {
      found.problems.push(`${path} could not be read (missing, not a regular file, or over 64 MiB)`);
      continue;
    }
    const uri = pathToUri(path);
    const languageId = Object.entries(target.server.extensions).find(([ext]) => path.toLowerCase().endsWith(ext))?.[1] ?? files[0]?.languageId ?? 'plaintext';
    dependents.push({ path, uri, languageId, text, baseline: await baselineIn(target, buffers, uri, languageId, text, Math.min(BASELINE_TIMEOUT_MS, remaining)) });
  }
  return {
    dependents,
    coverage: { found: found.paths.length, unreached: unexamined, problems: found.problems, budgetMs },
  };
}

/**
 * One evaluation, in one exclusive section: the server is given the session's texts (first the
 * on-disk texts: at workspace scope to find and baseline the files that depend on the edits, at
 * file scope to list the declarations the edits change), the diagnostics are settled and
 * collected, and every buffer is put back before the section ends. Files without a baseline yet
 * (a standalone preview) get theirs first, in the same section. At file scope, the other files
 * naming a changed declaration are then counted (a text search, after the section): they were not
 * checked, and the answer says so.
 */
export async function evaluateFiles(target: EvaluationTarget, files: readonly OverlayFile[], options: EvaluateOptions): Promise<EvaluatedFiles> {
  const { conn } = target;
  const leaseMs = Math.max(60_000, options.timeoutMs * (DEPENDENTS_BUDGET_FACTOR + 1) + BASELINE_TIMEOUT_MS);
  let changed: { declarations: string[]; words: string[] } | undefined;
  const namingProblems: string[] = [];
  const evaluated: EvaluatedFiles = await exclusive(conn, leaseMs, async () => {
    const buffers = new ServerBuffers(conn);
    try {
      for (const f of files) {
        if (!f.baseline) f.setBaseline(await baselineIn(target, buffers, f.uri, f.languageId, f.baseText));
      }
      let dependents: Dependent[] = [];
      let coverage: DependentsSearch | undefined;
      for (const f of files) buffers.hold(f.uri, f.languageId, f.baseText);
      if (options.scope === 'workspace') {
        ({ dependents, coverage } = await baselineDependents(target, buffers, files, options.timeoutMs * DEPENDENTS_BUDGET_FACTOR));
      } else {
        changed = await changedNames(conn, files, options.timeoutMs, namingProblems);
      }
      for (const f of files) buffers.hold(f.uri, f.languageId, f.text);
      for (const d of dependents) buffers.reopen(d.uri, d.languageId, d.text);
      await target.hooks?.overlayPushed?.();
      const settled = await Promise.all([...files.map((f) => f.uri), ...dependents.map((d) => d.uri)].map((uri) => settleWithin(conn, uri, options.timeoutMs)));
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
      return coverage ? { files: out, dependents: coverage } : { files: out };
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
