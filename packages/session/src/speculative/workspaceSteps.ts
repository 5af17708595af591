import { pathToUri } from '@agent-lsp/protocol';
import { readRegularFileSync, type DiskState } from '@agent-lsp/lsp';
import { findDependents, type ServerAsk } from './dependents.js';
import type { EvaluationSteps } from './evaluationSteps.js';
import type { Dependent, DependentsSearch, EvaluationTarget } from './evaluationTypes.js';
import { contentHash, type Baseline, type OverlayFile } from './overlay.js';
import { BASELINE_TIMEOUT_MS, settleWithin, unconfirmed } from './serverBuffers.js';

/** A file's on-disk text, with its state on disk when read (see ServerBuffers.hold). */
export interface DiskDocument {
  uri: string;
  languageId: string;
  text: string;
  disk: DiskState | undefined;
}

/**
 * The baseline of a file's on-disk text, settled in the evaluation's steps by `deadline` and
 * cached (unconfirmed ones are not). A settling the end of a step cut short is asked again in the
 * next step; the server's buffer holds the text in each.
 */
export async function baselineInSteps(target: EvaluationTarget, steps: EvaluationSteps, { uri, languageId, text, disk }: DiskDocument, deadline: number): Promise<Baseline> {
  const hash = contentHash(text);
  const cached = target.cache.get(uri, hash);
  const settled = await steps.ask(
    cached ? Date.now() + 1 : deadline,
    async (buffers, timeoutMs) => {
      buffers.hold(uri, languageId, text, disk);
      return cached ? { uri, ...cached } : settleWithin(target.conn, uri, timeoutMs);
    },
    (s) => !cached && unconfirmed(s.settledBy),
  );
  if (cached) return cached;
  const baseline: Baseline = { diagnostics: settled.diagnostics, settledBy: settled.settledBy };
  if (!unconfirmed(settled.settledBy)) target.cache.set(uri, hash, baseline);
  return baseline;
}

/** Asks the server through the evaluation's steps (each gives the server the edited files' on-disk text). */
export function askInSteps(target: EvaluationTarget, steps: EvaluationSteps): ServerAsk {
  return <T>(method: string, params: unknown, by: number) => steps.ask(by, (_buffers, timeoutMs) => target.conn.request<T>(method, params, { timeoutMs }));
}

/**
 * The dependents of the edits, baselined on their on-disk text within the budget (ms), asked in the
 * evaluation's steps (each step gives the server the edited files' on-disk text).
 */
export async function dependentsInSteps(target: EvaluationTarget, steps: EvaluationSteps, files: readonly OverlayFile[], budgetMs: number): Promise<{ dependents: Dependent[]; coverage: DependentsSearch }> {
  const deadline = Date.now() + budgetMs;
  const found = await findDependents(target.conn, askInSteps(target, steps), target.server, target.roots, files, deadline);
  const dependents: Dependent[] = [];
  const unexamined: string[] = [];
  for (const path of found.paths) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      unexamined.push(path);
      continue;
    }
    const file = readRegularFileSync(path);
    if (file === undefined) {
      found.problems.push(`${path} could not be read (missing, not a regular file, or over 64 MiB)`);
      continue;
    }
    const uri = pathToUri(path);
    const languageId = Object.entries(target.server.extensions).find(([ext]) => path.toLowerCase().endsWith(ext))?.[1] ?? files[0]?.languageId ?? 'plaintext';
    const { text, state: disk } = file;
    dependents.push({ path, uri, languageId, text, disk, baseline: await baselineInSteps(target, steps, { uri, languageId, text, disk }, Date.now() + Math.min(BASELINE_TIMEOUT_MS, remaining)) });
  }
  return {
    dependents,
    coverage: { found: found.paths.length, unreached: unexamined, problems: found.problems, budgetMs },
  };
}
