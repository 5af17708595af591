import { splitLines, toAgentDiagnostic, type AgentDiagnostic } from '@agent-lsp/protocol';
import { SETTLED_BY, type SettledBy } from '@agent-lsp/lsp';
import { diffDiagnostics } from './diagnosticDiff.js';
import type { UncheckedUsers } from './dependents.js';
import { DEPENDENTS_BUDGET_FACTOR, unconfirmed, type DependentsSearch, type EvaluatedFiles, type FileEvaluation, type Scope } from './evaluator.js';

export const CONFIDENCES = ['high', 'partial'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export interface FileSettle {
  path: string;
  dependent: boolean;
  settledBy: SettledBy;
  baselineSettledBy: SettledBy;
  /** Counted in the diff: both its diagnostics and its baseline's were confirmed for their text. */
  examined: boolean;
  /** Why it was not examined. */
  whyNotExamined?: string | undefined;
}

/** How the files depending on the edits were covered. */
export interface DependentsCoverage {
  /** Dependent files found (at file scope: other files naming a changed declaration). */
  found: number;
  /** Of those, examined: evaluated with the edits, both sides settled. */
  examined: number;
  /** Found but counted for nothing: not reached within the budget, not settled, or (file scope) not checked. */
  notExamined: number;
  /** The first few of those, by path. */
  notExaminedSample: string[];
  /** Why the search may have missed dependents (a server error, no references support, the budget). */
  problems: string[];
}

/** What an evaluation found, measured against the baselines. Diagnostics are in the agent's shape. */
export interface Evaluation {
  scope: Scope;
  /** Errors the edits introduced in the files examined (positions in the edited text). */
  errorsIntroduced: AgentDiagnostic[];
  /** Errors they resolved in the files examined (positions in the on-disk text). */
  errorsResolved: AgentDiagnostic[];
  /** Warnings, information and hints, kept apart from errors. */
  warningsIntroduced: AgentDiagnostic[];
  warningsResolved: AgentDiagnostic[];
  /** Errors introduced minus errors resolved, over the files examined. */
  netDelta: number;
  confidence: Confidence;
  timeout: boolean;
  /** The weakest way any file's diagnostics settled. */
  settledBy: SettledBy | undefined;
  files: FileSettle[];
  /** Files that count for nothing in the answer: not settled, not reached, or (file scope) not checked. */
  notExamined: number;
  /** How the files depending on the edits were covered (at file scope: only when the edits change declarations other files name). */
  dependents?: DependentsCoverage;
  /** At file scope: the declarations the edits change (name, parameters, declared types). */
  changedDeclarations?: string[];
  /** Why the confidence is not high, or why there was nothing to evaluate. */
  notes: string[];
  durationMs: number;
}

const STRENGTH: readonly SettledBy[] = SETTLED_BY;

/** The answer for a session with no changed text: nothing was sent to the server. */
export function nothingToEvaluate(scope: Scope, touchedFiles: number, durationMs: number): Evaluation {
  return {
    scope,
    errorsIntroduced: [],
    errorsResolved: [],
    warningsIntroduced: [],
    warningsResolved: [],
    netDelta: 0,
    confidence: 'high',
    timeout: false,
    settledBy: undefined,
    files: [],
    notExamined: 0,
    notes: [`Nothing to evaluate: the session has no edits${touchedFiles ? ' that change any text' : ''}. Call simulate_edit first.`],
    durationMs,
  };
}

/** How many files a note names (the count is always given). */
const NAMED = 5;

function sample(paths: readonly string[], label: (path: string) => string): string {
  const more = paths.length > NAMED ? `, and ${paths.length - NAMED} more` : '';
  return `${paths.slice(0, NAMED).map(label).join(', ')}${more}`;
}

/** Why a file cannot be compared: a side of it the server did not confirm for exactly its text. */
function whyNotExamined(f: FileEvaluation): string | undefined {
  if (f.changedOnDisk) return 'it was written on disk during the evaluation, so the text evaluated is not the one on disk now (ask again)';
  const after = unconfirmed(f.settledBy);
  const before = unconfirmed(f.baseline.settledBy);
  if (!after && !before) return undefined;
  const side = after && before ? 'before and with the edits' : after ? 'with the edits' : 'before the edits (baseline)';
  return `its diagnostics ${side} did not settle (${after ? f.settledBy : f.baseline.settledBy})`;
}

function workspaceCoverage(search: DependentsSearch, unsettled: readonly string[], dependents: number, label: (path: string) => string): { coverage: DependentsCoverage; notes: string[] } {
  const notes = search.problems.map((p) => `Dependents may be missing: ${p.replace(/\.$/, '')}.`);
  if (search.unreached.length > 0) {
    notes.push(`${search.unreached.length} of ${search.found} dependent files were not examined within the ${search.budgetMs < 10_000 ? `${search.budgetMs} ms` : `${Math.round(search.budgetMs / 1000)} s`} budget (${DEPENDENTS_BUDGET_FACTOR} × timeout_ms; raise timeout_ms to examine more): ${sample(search.unreached, label)}.`);
  }
  const notExamined = [...unsettled, ...search.unreached];
  return {
    coverage: { found: search.found, examined: dependents - unsettled.length, notExamined: notExamined.length, notExaminedSample: notExamined.slice(0, NAMED), problems: search.problems },
    notes,
  };
}

function fileScopeCoverage(unchecked: UncheckedUsers, label: (path: string) => string): { coverage: DependentsCoverage; notes: string[] } {
  const notes = unchecked.problems.map((p) => `Whether other files use what the edits change is not known: ${p.replace(/\.$/, '')}.`);
  if (unchecked.paths.length > 0) {
    notes.push(
      `The edits change the declaration of ${unchecked.declarations.slice(0, NAMED).join(', ')}${unchecked.declarations.length > NAMED ? ` and ${unchecked.declarations.length - NAMED} more` : ''}, named in ${unchecked.paths.length} other file(s) that file scope did not check: ${sample(unchecked.paths, label)}. Pass scope: "workspace" to check them.`,
    );
  }
  return {
    coverage: { found: unchecked.paths.length, examined: 0, notExamined: unchecked.paths.length, notExaminedSample: unchecked.paths.slice(0, NAMED), problems: unchecked.problems },
    notes,
  };
}

/**
 * Diffs each file examined against its baseline and sums up, with how sure the answer is. A file
 * is examined when the server confirmed both its diagnostics with the edits and its baseline for
 * exactly their text; one that did not settle (a quiet window, a timeout) counts for nothing —
 * neither introduced nor resolved — and is listed with why. `partial` when any file was not
 * examined, dependents went unreached or may be missing, or (file scope) other files name a
 * declaration the edits change. `label` turns a path into what the agent sees.
 */
export function reportEvaluation(scope: Scope, evaluated: EvaluatedFiles, durationMs: number, label: (path: string) => string): Evaluation {
  const { files, dependents, unchecked } = evaluated;
  const introduced: AgentDiagnostic[] = [];
  const resolved: AgentDiagnostic[] = [];
  const settles: FileSettle[] = [];
  for (const f of files) {
    const why = whyNotExamined(f);
    settles.push({ path: f.path, dependent: f.dependent, settledBy: f.settledBy, baselineSettledBy: f.baseline.settledBy, examined: why === undefined, ...(why ? { whyNotExamined: why } : {}) });
    if (why) continue;
    const diff = diffDiagnostics(f.baseline.diagnostics, f.edits, f.diagnostics, f.regions);
    const after = splitLines(f.text);
    const before = splitLines(f.baseText);
    const file = label(f.path);
    introduced.push(...diff.introduced.map((d) => toAgentDiagnostic(file, after, d)));
    resolved.push(...diff.resolved.map((d) => toAgentDiagnostic(file, before, d)));
  }
  const isError = (d: AgentDiagnostic) => d.severity === 'error';
  const errorsIntroduced = introduced.filter(isError);
  const errorsResolved = resolved.filter(isError);
  const notes: string[] = [];
  const unsettled = settles.filter((f) => !f.examined);
  if (unsettled.length > 0) {
    notes.push(
      `${unsettled.length} file(s) were not examined and count for nothing in errors_introduced, errors_resolved and net_delta, because the server did not confirm their diagnostics for exactly their text (raise timeout_ms to examine them)${files.some((f) => f.changedOnDisk) ? ' or they were written on disk during the evaluation' : ''}: ${unsettled.slice(0, NAMED).map((f) => `${label(f.path)} (${f.whyNotExamined ?? ''})`).join(', ')}${unsettled.length > NAMED ? `, and ${unsettled.length - NAMED} more` : ''}.`,
    );
  }
  const dependentCount = files.filter((f) => f.dependent).length;
  const cover = dependents
    ? workspaceCoverage(dependents, unsettled.filter((f) => f.dependent).map((f) => f.path), dependentCount, label)
    : unchecked
      ? fileScopeCoverage(unchecked, label)
      : undefined;
  if (cover) notes.push(...cover.notes);
  const notExamined = unsettled.filter((f) => !f.dependent).length + (cover?.coverage.notExamined ?? 0);
  const complete = notExamined === 0 && (cover?.coverage.problems.length ?? 0) === 0;
  const settled = files.map((f) => f.settledBy);
  return {
    scope,
    errorsIntroduced,
    errorsResolved,
    warningsIntroduced: introduced.filter((d) => !isError(d)),
    warningsResolved: resolved.filter((d) => !isError(d)),
    netDelta: errorsIntroduced.length - errorsResolved.length,
    confidence: complete ? 'high' : 'partial',
    timeout: files.some((f) => f.settledBy === 'timeout' || f.baseline.settledBy === 'timeout'),
    settledBy: settled.length ? settled.reduce((a, b) => (STRENGTH.indexOf(b) > STRENGTH.indexOf(a) ? b : a)) : undefined,
    files: settles,
    notExamined,
    ...(cover ? { dependents: cover.coverage } : {}),
    ...(unchecked && unchecked.declarations.length ? { changedDeclarations: unchecked.declarations } : {}),
    notes,
    durationMs,
  };
}
