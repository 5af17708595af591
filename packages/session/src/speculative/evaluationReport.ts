import type { Diagnostic } from 'vscode-languageserver-protocol';
import { fromLspRange, splitLines } from '@agent-lsp/protocol';
import type { SettledBy } from '@agent-lsp/lsp';
import { diffDiagnostics } from './diagnosticDiff.js';
import type { FileEvaluation, Scope } from './evaluator.js';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type Confidence = 'high' | 'partial' | 'eventual';

/** A diagnostic in agent coordinates (1-based lines, character columns). */
export interface SimDiagnostic {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  severity: Severity;
  code?: string | number;
  source?: string;
  message: string;
}

export interface FileSettle {
  path: string;
  dependent: boolean;
  settledBy: SettledBy;
  baselineSettledBy: SettledBy;
}

/** What an evaluation found, measured against the baselines. */
export interface Evaluation {
  scope: Scope;
  /** Errors the edits introduced (positions in the edited text). */
  errorsIntroduced: SimDiagnostic[];
  /** Errors they resolved (positions in the on-disk text). */
  errorsResolved: SimDiagnostic[];
  /** Warnings, information and hints, kept apart from errors. */
  warningsIntroduced: SimDiagnostic[];
  warningsResolved: SimDiagnostic[];
  /** Errors introduced minus errors resolved. */
  netDelta: number;
  confidence: Confidence;
  timeout: boolean;
  /** The weakest way any file's diagnostics settled. */
  settledBy: SettledBy | undefined;
  files: FileSettle[];
  durationMs: number;
}

const SEVERITY: Record<number, Severity> = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };
const STRENGTH: SettledBy[] = ['pull', 'exact', 'version', 'quiet', 'timeout'];

function toSim(path: string, lines: string[], d: Diagnostic): SimDiagnostic {
  const out: SimDiagnostic = {
    path,
    ...fromLspRange(lines, d.range),
    severity: SEVERITY[d.severity ?? 1] ?? 'error',
    message: typeof d.message === 'string' ? d.message : (d.message as { value: string }).value,
  };
  if (d.code !== undefined) out.code = d.code;
  if (d.source !== undefined) out.source = d.source;
  return out;
}

/** Diffs each file against its baseline and sums up, with how sure the answer is. */
export function reportEvaluation(scope: Scope, files: readonly FileEvaluation[], durationMs: number): Evaluation {
  const introduced: SimDiagnostic[] = [];
  const resolved: SimDiagnostic[] = [];
  for (const f of files) {
    const diff = diffDiagnostics(f.baseline.diagnostics, f.edits, f.diagnostics, f.regions);
    const after = splitLines(f.text);
    const before = splitLines(f.baseText);
    introduced.push(...diff.introduced.map((d) => toSim(f.path, after, d)));
    resolved.push(...diff.resolved.map((d) => toSim(f.path, before, d)));
  }
  const isError = (d: SimDiagnostic) => d.severity === 'error';
  const errorsIntroduced = introduced.filter(isError);
  const errorsResolved = resolved.filter(isError);
  const timeout = files.some((f) => f.settledBy === 'timeout' || f.baseline.settledBy === 'timeout');
  const unsettledDependent = files.some((f) => f.dependent && (f.settledBy === 'quiet' || f.baseline.settledBy === 'quiet'));
  const settled = files.map((f) => f.settledBy);
  return {
    scope,
    errorsIntroduced,
    errorsResolved,
    warningsIntroduced: introduced.filter((d) => !isError(d)),
    warningsResolved: resolved.filter((d) => !isError(d)),
    netDelta: errorsIntroduced.length - errorsResolved.length,
    confidence: timeout ? 'partial' : unsettledDependent ? 'eventual' : 'high',
    timeout,
    settledBy: settled.length ? settled.reduce((a, b) => (STRENGTH.indexOf(b) > STRENGTH.indexOf(a) ? b : a)) : undefined,
    files: files.map((f) => ({ path: f.path, dependent: f.dependent, settledBy: f.settledBy, baselineSettledBy: f.baseline.settledBy })),
    durationMs,
  };
}
