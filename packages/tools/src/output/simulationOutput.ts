import { z } from 'zod';
import { SETTLED_BY } from '@agent-lsp/lsp';
import { CONFIDENCES, SCOPES, SESSION_PHASES, type Evaluation, type SimulationSession } from '@agent-lsp/session';
import { diagnosticText } from './diagnosticText.js';
import { diagnostic, readyOutput, type DiagnosticOut } from '../catalog/schemas.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

const settledBy = z.enum(SETTLED_BY);

export const sessionOutput = {
  ...readyOutput,
  session_id: z.string().optional(),
  phase: z.enum(SESSION_PHASES).optional().describe('The session\'s phase after the call.'),
  session_dirty: z.boolean().optional().describe('true when the server\'s state could not be restored: only destroy_session is allowed.'),
};

const evaluationFields = {
  scope: z.enum(SCOPES).optional(),
  errors_introduced: z.array(diagnostic).optional().describe('Errors the edits introduce in the files examined (positions in the edited text).'),
  errors_resolved: z.array(diagnostic).optional().describe('Errors the edits resolve in the files examined (positions in the file on disk).'),
  warnings_introduced: z.array(diagnostic).optional().describe('Warnings, information and hints introduced (not counted in net_delta).'),
  warnings_resolved: z.array(diagnostic).optional(),
  net_delta: z.number().optional().describe('Errors introduced minus errors resolved in the files examined; > 0 means the edits break something. Files not examined count for nothing.'),
  confidence: z.enum(CONFIDENCES).optional().describe('high: every file concerned was examined, the server confirming its diagnostics for exactly the text; partial: some were not (not_examined, notes).'),
  not_examined: z.number().optional().describe('Files the answer says nothing about: diagnostics not settled (before or with the edits), dependents past the budget, or at file scope other files naming a declaration the edits change.'),
  timeout: z.boolean().optional(),
  settled_by: settledBy.optional().describe('The weakest way any file\'s diagnostics settled.'),
  files: z
    .array(
      z.object({
        file: z.string(),
        dependent: z.boolean().describe('Checked because it depends on an edited file.'),
        settled_by: settledBy,
        baseline_settled_by: settledBy,
        examined: z.boolean().describe('false: its diagnostics (or its baseline\'s) did not settle, so it counts for nothing.'),
        not_examined_because: z.string().optional(),
      }),
    )
    .optional(),
  dependents: z
    .object({
      found: z.number(),
      examined: z.number(),
      not_examined: z.number().describe('Found but counting for nothing: past the time budget (4 × timeout_ms), not settled, or at file scope not checked.'),
      not_examined_sample: z.array(z.string()).describe('The first few of those.'),
      problems: z.array(z.string()).describe('Why the search may have missed dependents.'),
    })
    .optional()
    .describe('How the files depending on the edits were covered: at workspace scope, those found and checked; at file scope, the other files naming a declaration the edits change (none checked).'),
  changed_declarations: z.array(z.string()).optional().describe('File scope: the declarations whose name, parameters or declared type the edits change.'),
  notes: z.array(z.string()).optional().describe('Why confidence is not high, or why there was nothing to evaluate.'),
  duration_ms: z.number().optional(),
};

export const evaluationOutput = { ...sessionOutput, ...evaluationFields };

export const chainStep = z.object({
  step: z.number(),
  net_delta: z.number().describe('Measured against the baseline, with steps 1..step applied.'),
  errors_introduced: z.array(diagnostic),
  errors_resolved: z.array(diagnostic),
  warnings_introduced: z.array(diagnostic),
  confidence: z.enum(CONFIDENCES),
  not_examined: z.number().describe('Files this step says nothing about (see evaluate_session).'),
  settled_by: settledBy.optional(),
});
export type ChainStepOut = z.infer<typeof chainStep>;

export function sessionState(s: SimulationSession) {
  return { ready: true as const, session_id: s.id, phase: s.phase, session_dirty: s.dirty };
}

export function evaluationOut(ctx: ToolContext, e: Evaluation) {
  return {
    scope: e.scope,
    errors_introduced: e.errorsIntroduced,
    errors_resolved: e.errorsResolved,
    warnings_introduced: e.warningsIntroduced,
    warnings_resolved: e.warningsResolved,
    net_delta: e.netDelta,
    confidence: e.confidence,
    timeout: e.timeout,
    ...(e.settledBy ? { settled_by: e.settledBy } : {}),
    not_examined: e.notExamined,
    files: e.files.map((f) => ({
      file: ctx.workspace.display(f.path),
      dependent: f.dependent,
      settled_by: f.settledBy,
      baseline_settled_by: f.baselineSettledBy,
      examined: f.examined,
      ...(f.whyNotExamined ? { not_examined_because: f.whyNotExamined } : {}),
    })),
    ...(e.dependents
      ? {
          dependents: {
            found: e.dependents.found,
            examined: e.dependents.examined,
            not_examined: e.dependents.notExamined,
            not_examined_sample: e.dependents.notExaminedSample.map((p) => ctx.workspace.display(p)),
            problems: e.dependents.problems,
          },
        }
      : {}),
    ...(e.changedDeclarations ? { changed_declarations: e.changedDeclarations } : {}),
    ...(e.notes.length ? { notes: e.notes } : {}),
    duration_ms: e.durationMs,
  };
}

type EvaluationOut = Partial<ReturnType<typeof evaluationOut>> & { session_id?: string | undefined; session_dirty?: boolean | undefined };

function list(title: string, items: readonly DiagnosticOut[] | undefined): string[] {
  return items && items.length ? [`${title}:`, ...items.map((d) => `  ${diagnosticText(d)}`)] : [];
}

/**
 * The one-line verdict. It calls edits a fix or harmless only on the strength of every file
 * concerned: with files not examined it says what the examined ones show and that the others are
 * unknown.
 */
export function verdict(r: Pick<EvaluationOut, 'net_delta' | 'errors_introduced' | 'confidence' | 'not_examined'>): string {
  const delta = r.net_delta ?? 0;
  const introduced = (r.errors_introduced ?? []).length;
  if (delta > 0) return 'the edits break something';
  const unseen = r.not_examined ?? 0;
  if (r.confidence === 'partial') {
    const shown = delta < 0 ? 'fewer errors' : introduced ? 'as many errors introduced as resolved' : 'no new errors';
    const rest = unseen > 0 ? `${unseen} file(s) not examined` : 'the answer is partial';
    return `${shown} in the files examined, but ${rest}: not known to be safe (see notes)`;
  }
  return delta < 0 ? 'the edits fix errors and break none' : introduced ? 'as many errors introduced as resolved' : 'no new errors';
}

export function evaluationText(r: EvaluationOut): string {
  const delta = r.net_delta ?? 0;
  const dependents = (r.files ?? []).filter((f) => f.dependent).length;
  const head =
    `net_delta ${delta > 0 ? '+' : ''}${delta}: ${verdict(r)} (${(r.errors_introduced ?? []).length} introduced, ${(r.errors_resolved ?? []).length} resolved). ` +
    `Scope ${r.scope ?? 'file'}${dependents ? ` (+${dependents} dependent file(s))` : ''}, confidence ${r.confidence ?? 'high'}${r.settled_by ? `, settled by ${r.settled_by}` : ''}${r.timeout ? ', TIMED OUT' : ''}, ${r.duration_ms ?? 0} ms.`;
  return [
    r.session_id ? `Session ${r.session_id}${r.session_dirty ? ' (DIRTY: destroy it)' : ''}.` : '',
    head,
    ...list('Errors introduced', r.errors_introduced),
    ...list('Errors resolved', r.errors_resolved),
    ...list('Warnings/hints introduced', r.warnings_introduced),
    ...list('Warnings/hints resolved', r.warnings_resolved),
    ...(r.notes ?? []).map((n) => `Note: ${n}`),
  ]
    .filter(Boolean)
    .join('\n');
}
