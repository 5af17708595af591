import { splitLines, toAgentDiagnostic, type AgentDiagnostic } from '@agent-lsp/protocol';
import { SETTLED_BY, type SettledBy } from '@agent-lsp/lsp';
import { diffDiagnostics } from './diagnosticDiff.js';
import { DEPENDENTS_BUDGET_FACTOR, unconfirmed, type DependentsCoverage, type FileEvaluation, type Scope } from './evaluator.js';

export const CONFIDENCES = ['high', 'partial', 'eventual'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export interface FileSettle {
  path: string;
  dependent: boolean;
  settledBy: SettledBy;
  baselineSettledBy: SettledBy;
}

/** What an evaluation found, measured against the baselines. Diagnostics are in the agent's shape. */
export interface Evaluation {
  scope: Scope;
  /** Errors the edits introduced (positions in the edited text). */
  errorsIntroduced: AgentDiagnostic[];
  /** Errors they resolved (positions in the on-disk text). */
  errorsResolved: AgentDiagnostic[];
  /** Warnings, information and hints, kept apart from errors. */
  warningsIntroduced: AgentDiagnostic[];
  warningsResolved: AgentDiagnostic[];
  /** Errors introduced minus errors resolved. */
  netDelta: number;
  confidence: Confidence;
  timeout: boolean;
  /** The weakest way any file's diagnostics settled. */
  settledBy: SettledBy | undefined;
  files: FileSettle[];
  /** At workspace scope: how the files depending on the edits were covered. */
  dependents?: DependentsCoverage;
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
    notes: [`Nothing to evaluate: the session has no edits${touchedFiles ? ' that change any text' : ''}. Call simulate_edit first.`],
    durationMs,
  };
}

function coverageNotes(c: DependentsCoverage, label: (path: string) => string): string[] {
  const notes = c.problems.map((p) => `Dependents may be missing: ${p.replace(/\.$/, '')}.`);
  if (c.notExamined > 0) {
    const more = c.notExamined > c.notExaminedSample.length ? `, and ${c.notExamined - c.notExaminedSample.length} more` : '';
    notes.push(`${c.notExamined} of ${c.found} dependent files were not examined within the ${c.budgetMs < 10_000 ? `${c.budgetMs} ms` : `${Math.round(c.budgetMs / 1000)} s`} budget (${DEPENDENTS_BUDGET_FACTOR} × timeout_ms; raise timeout_ms to examine more): ${c.notExaminedSample.map(label).join(', ')}${more}.`);
  }
  return notes;
}

/**
 * Diffs each file against its baseline and sums up, with how sure the answer is: `partial` when
 * an edited file's diagnostics (or its baseline) were not confirmed for exactly their text (a
 * quiet window, a timeout) or dependents went unexamined; `eventual` when only dependents went
 * unconfirmed. `label` turns a path into what the agent sees.
 */
export function reportEvaluation(scope: Scope, evaluated: { files: readonly FileEvaluation[]; dependents?: DependentsCoverage | undefined }, durationMs: number, label: (path: string) => string): Evaluation {
  const { files, dependents } = evaluated;
  const introduced: AgentDiagnostic[] = [];
  const resolved: AgentDiagnostic[] = [];
  for (const f of files) {
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
  const timeout = files.some((f) => f.settledBy === 'timeout' || f.baseline.settledBy === 'timeout');
  const notes: string[] = [];
  const unconfirmedEdited = files.filter((f) => !f.dependent && (unconfirmed(f.settledBy) || unconfirmed(f.baseline.settledBy)));
  if (unconfirmedEdited.length) {
    notes.push(`The server did not confirm its diagnostics for exactly the text of ${unconfirmedEdited.map((f) => label(f.path)).join(', ')} (settled by a quiet window or a timeout): the diff may be wrong. A longer timeout_ms may help.`);
  }
  const unconfirmedDependent = files.some((f) => f.dependent && (unconfirmed(f.settledBy) || unconfirmed(f.baseline.settledBy)));
  const uncovered = dependents !== undefined && (dependents.notExamined > 0 || dependents.problems.length > 0);
  if (dependents) notes.push(...coverageNotes(dependents, label));
  const settled = files.map((f) => f.settledBy);
  return {
    scope,
    errorsIntroduced,
    errorsResolved,
    warningsIntroduced: introduced.filter((d) => !isError(d)),
    warningsResolved: resolved.filter((d) => !isError(d)),
    netDelta: errorsIntroduced.length - errorsResolved.length,
    confidence: timeout || unconfirmedEdited.length > 0 || uncovered ? 'partial' : unconfirmedDependent ? 'eventual' : 'high',
    timeout,
    settledBy: settled.length ? settled.reduce((a, b) => (STRENGTH.indexOf(b) > STRENGTH.indexOf(a) ? b : a)) : undefined,
    files: files.map((f) => ({ path: f.path, dependent: f.dependent, settledBy: f.settledBy, baselineSettledBy: f.baseline.settledBy })),
    ...(dependents ? { dependents } : {}),
    notes,
    durationMs,
  };
}
