import { z } from 'zod';
import { CONFIDENCES, type Evaluation, type SimulationSession } from '@agent-lsp/session';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { readinessInput } from '../catalog/schemas.js';
import { evaluationOutput, evaluationOut, evaluationText, chainStep, sessionOutput, sessionState, type ChainStepOut } from '../output/simulationOutput.js';
import { defineTool, READ_ONLY, SIMULATES, type ToolContext } from '../catalog/toolDefinition.js';
import { editInput, editSpec, evaluationInput, scopeOf, sessionIdInput, sessionRoot } from './simulationArgs.js';

async function newSession(ctx: ToolContext, args: { workspace_root?: string | undefined; language?: string | undefined; file_path?: string | undefined; wait_for_ready?: boolean | undefined; ready_timeout_seconds?: number | undefined }): Promise<SimulationSession | NotReadyResult> {
  const root = await sessionRoot(ctx, args.workspace_root, args.file_path);
  const registry = ctx.workspace.registry;
  const server = args.language !== undefined ? registry.forLanguage(args.language) : registry.forFileOrThrow(ctx.workspace.resolveFile(args.file_path ?? '')).server;
  const conn = await ctx.workspace.connection(server);
  const notReady = await awaitReady(conn, args, ctx);
  if (notReady) return notReady;
  return ctx.ledger.simulations.create(args.language ?? server.languageIds[0] ?? server.id, root, { workspace: ctx.workspace, conn, server });
}

function isSession(x: SimulationSession | NotReadyResult): x is SimulationSession {
  return 'id' in x;
}

export const createSimulationSession = defineTool({
  name: 'create_simulation_session',
  title: 'Create a simulation session',
  description: 'Starts a speculative session: edits held in memory, never on disk, judged by the real server.',
  group: 'simulation',
  concurrency: 'exclusive',
  input: () => ({
    workspace_root: z.string().optional().describe('Default: the current workspace.'),
    language: z.string().describe('python, typescript, go, cpp, …'),
    ...readinessInput,
  }),
  output: () => ({ ...sessionOutput, language: z.string().optional(), workspace_root: z.string().optional() }),
  annotations: SIMULATES,
  async handler(args, ctx) {
    const session = await newSession(ctx, args);
    if (!isSession(session)) return session;
    return { ...sessionState(session), language: session.language, workspace_root: session.root };
  },
  text: (r) => (r.ready ? `Session ${r.session_id} created for ${r.language} in ${r.workspace_root}. Next: simulate_edit, then evaluate_session.` : notReadyText(r as NotReadyResult)),
});

export const simulateEdit = defineTool({
  name: 'simulate_edit',
  title: 'Simulate an edit',
  description: 'Applies an edit (a range or old_text) to a session\'s in-memory view. Does not evaluate.',
  group: 'simulation',
  concurrency: 'exclusive',
  input: () => ({ ...sessionIdInput, ...editInput }),
  output: () => ({ ...sessionOutput, file: z.string().optional(), edit_applied: z.boolean().optional(), version_after: z.number().optional().describe('The session\'s own version of the file after the edit (1, 2, …).') }),
  annotations: SIMULATES,
  async handler(args, ctx) {
    const session = ctx.ledger.simulations.get(args.session_id);
    const result = await session.edit(editSpec(ctx, args));
    return { ...sessionState(session), file: ctx.workspace.display(result.path), edit_applied: true, version_after: result.versionAfter };
  },
  text: (r) => `Edit applied to ${r.file ?? '?'} in session ${r.session_id ?? '?'} (version ${r.version_after ?? '?'}); nothing written to disk. Call evaluate_session to see its effect.`,
});

function evaluated(ctx: ToolContext, session: SimulationSession, e: Evaluation) {
  return { ...sessionState(session), ...evaluationOut(ctx, e) };
}

export const evaluateSession = defineTool({
  name: 'evaluate_session',
  title: 'Evaluate a simulation session',
  description: 'The errors a session\'s edits introduce and resolve (net_delta) against the files on disk.',
  group: 'simulation',
  concurrency: 'exclusive',
  input: () => ({ ...sessionIdInput, ...evaluationInput }),
  output: () => evaluationOutput,
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const session = ctx.ledger.simulations.get(args.session_id);
    const { scope, timeoutMs } = scopeOf(args);
    return evaluated(ctx, session, await session.evaluate(scope, timeoutMs));
  },
  text: (r) => evaluationText(r),
});

function stepOut(ctx: ToolContext, step: number, e: Evaluation): ChainStepOut {
  const o = evaluationOut(ctx, e);
  return { step, net_delta: o.net_delta, errors_introduced: o.errors_introduced, errors_resolved: o.errors_resolved, warnings_introduced: o.warnings_introduced, confidence: o.confidence, not_examined: o.not_examined, ...(o.settled_by ? { settled_by: o.settled_by } : {}) };
}

export const simulateChain = defineTool({
  name: 'simulate_chain',
  title: 'Simulate a chain of edits',
  description: 'Applies edits in order, evaluating after each; says through which step they are safe.',
  group: 'simulation',
  concurrency: 'exclusive',
  input: () => ({ ...sessionIdInput, edits: z.array(z.object(editInput)).min(1).describe('In order; each on the text after the previous.'), ...evaluationInput }),
  output: () => ({
    ...sessionOutput,
    steps: z.array(chainStep).optional(),
    safe_to_apply_through_step: z.number().optional(),
    cumulative_delta: z.number().optional().describe('net_delta with every step applied.'),
    confidence: z.enum(CONFIDENCES).optional().describe('The weakest confidence of any step.'),
  }),
  annotations: SIMULATES,
  async handler(args, ctx) {
    const session = ctx.ledger.simulations.get(args.session_id);
    const { scope, timeoutMs } = scopeOf(args);
    const steps = await session.chain(args.edits.map((e) => editSpec(ctx, e)), scope, timeoutMs);
    const out = steps.map((s) => stepOut(ctx, s.step, s.evaluation));
    // A step with files not examined is not known to be safe, whatever its delta over the others.
    const firstUnsafe = out.findIndex((s) => s.net_delta > 0 || s.confidence !== 'high');
    return {
      ...sessionState(session),
      steps: out,
      safe_to_apply_through_step: firstUnsafe < 0 ? out.length : firstUnsafe,
      cumulative_delta: out[out.length - 1]?.net_delta ?? 0,
      confidence: out.every((s) => s.confidence === 'high') ? ('high' as const) : ('partial' as const),
    };
  },
  text: (r) => {
    const lines = (r.steps ?? []).map((s) => {
      const first = s.errors_introduced[0];
      const unknown = s.confidence === 'high' ? '' : `, confidence ${s.confidence}${s.not_examined ? ` (${s.not_examined} file(s) not examined: not known to be safe)` : ''}`;
      return `step ${s.step}: net_delta ${s.net_delta > 0 ? '+' : ''}${s.net_delta}${unknown}${first ? ` (${first.file}:${first.line}:${first.column} ${first.message.split('\n')[0] ?? ''})` : ''}`;
    });
    return [`Safe to apply through step ${r.safe_to_apply_through_step ?? 0} of ${(r.steps ?? []).length}; cumulative delta ${r.cumulative_delta ?? 0}; confidence ${r.confidence ?? 'high'}.`, ...lines].join('\n');
  },
});

export const previewEdit = defineTool({
  name: 'preview_edit',
  title: 'Preview an edit',
  description: 'One edit\'s effect on the diagnostics, nothing written (in a temporary session, or session_id\'s).',
  group: 'simulation',
  concurrency: 'exclusive',
  input: () => ({
    workspace_root: z.string().optional().describe('Default: the current workspace.'),
    language: z.string().optional().describe('Default: from the extension.'),
    ...editInput,
    ...evaluationInput,
    session_id: z.string().optional().describe('Add to this session instead of a temporary one.'),
    ...readinessInput,
  }),
  output: () => evaluationOutput,
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const { scope, timeoutMs } = scopeOf(args);
    if (args.session_id !== undefined) {
      const session = ctx.ledger.simulations.get(args.session_id);
      await session.edit(editSpec(ctx, args));
      return evaluated(ctx, session, await session.evaluate(scope, timeoutMs));
    }
    const session = await newSession(ctx, args);
    if (!isSession(session)) return session;
    try {
      const e = await session.editAndEvaluate(editSpec(ctx, args), scope, timeoutMs);
      return { ...evaluationOut(ctx, e), ready: true };
    } finally {
      ctx.ledger.simulations.destroy(session.id);
    }
  },
  text: (r) => (r.ready ? evaluationText(r) : notReadyText(r as NotReadyResult)),
});

export const simulationTools = [createSimulationSession, simulateEdit, evaluateSession, simulateChain, previewEdit];
