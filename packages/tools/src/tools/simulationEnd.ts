import { join, relative } from 'node:path';
import { z } from 'zod';
import { isWithin, UserError } from '@agent-lsp/protocol';
import { applySessionPatch, movedOnDisk, resolveWritableDirectory, sessionPatch, SimulationError } from '@agent-lsp/session';
import { sessionOutput, sessionState } from '../output/simulationOutput.js';
import { defineTool, SIMULATES, WRITES } from '../catalog/toolDefinition.js';
import { sessionIdInput } from './simulationArgs.js';

export const commitSession = defineTool({
  name: 'commit_session',
  title: 'Commit a simulation session',
  description: 'Ends a session with its edits as a patch; apply: true writes them (checkpointed).',
  group: 'simulation',
  concurrency: 'none',
  input: () => ({
    ...sessionIdInput,
    apply: z.boolean().optional().describe('Write them (default: the patch only).'),
    target: z
      .string()
      .optional()
      .describe('Write under this directory instead (inside the workspace).'),
  }),
  output: () => ({
    ...sessionOutput,
    applied: z.boolean().optional().describe('true when the files were written.'),
    workspace_edit: z.object({ changes: z.record(z.string(), z.array(z.unknown())) }).optional().describe('The edits, as an LSP WorkspaceEdit (for apply_edit, or any client).'),
    diff: z.string().optional(),
    files: z.array(z.object({ file: z.string(), edits: z.number() })).optional(),
    checkpoint_id: z.string().optional().describe('With apply: the checkpoint of the write (undo_last undoes it).'),
    written_to: z.array(z.string()).optional().describe('With target: where the edited files were written.'),
    disk_changed: z.array(z.string()).optional().describe('Files written on disk since the session read them: the patch is against their old text.'),
  }),
  annotations: WRITES,
  async handler(args, ctx) {
    const session = ctx.ledger.simulations.get(args.session_id);
    const label = (p: string) => ctx.workspace.display(p);
    const destination = args.target !== undefined ? targetDestination(ctx.workspace.rootList, args.target) : undefined;
    const { patch, checkpointId, moved } = await session.commit(async (files) => {
      const patch = sessionPatch(files, label);
      const moved = movedOnDisk(files).map((f) => label(f.path));
      const write = (args.apply === true || destination !== undefined) && patch.files.length > 0;
      const checkpoint = write ? await applySessionPatch(ctx.ledger.transactions, ctx.call, ctx.signal, files, patch, label, destination) : undefined;
      session.markCommitted(checkpoint ? patch.files.length : 0);
      return { patch, checkpointId: checkpoint?.id, moved };
    });
    return {
      ...sessionState(session),
      applied: checkpointId !== undefined,
      workspace_edit: patch.edit as { changes: Record<string, unknown[]> },
      diff: patch.diff,
      files: patch.files.map((f) => ({ file: label(f.path), edits: f.edits })),
      ...(checkpointId ? { checkpoint_id: checkpointId } : {}),
      ...(checkpointId && destination ? { written_to: patch.files.map((f) => ctx.workspace.display(destination(f.path))) } : {}),
      ...(moved.length > 0 ? { disk_changed: moved } : {}),
    };
  },
  text: (r) => {
    const files = (r.files ?? []).map((f) => f.file).join(', ') || 'no file';
    const head = r.written_to ? `Committed and written to ${r.written_to.join(', ')} (originals unchanged). Checkpoint ${r.checkpoint_id ?? '?'}.` : r.applied ? `Committed and written: ${files}. Checkpoint ${r.checkpoint_id ?? '?'} (undo_last undoes it).` : `Committed as a patch (nothing written): ${files}. Apply it with apply_edit, or commit with apply: true.`;
    const moved = r.disk_changed?.length ? `\n${r.disk_changed.join(', ')} changed on disk since the session read ${r.disk_changed.length === 1 ? 'it' : 'them'}: this patch is against the old text and may not apply.` : '';
    return `${head}${moved}\n${r.diff ?? ''}`.trimEnd();
  },
});

/**
 * `<target>/<root-relative path>`; the target's real path (symlinks resolved) must lie inside a
 * workspace root. Each file written there is checked again by the plan, as every write is.
 */
function targetDestination(roots: readonly string[], target: string): (path: string) => string {
  const root = roots[0];
  if (!root) throw new UserError('no_workspace', 'No workspace is set: call start_lsp first.');
  const dir = resolveWritableDirectory(target, roots);
  return (path) => {
    const owner = roots.find((r) => isWithin(r, path)) ?? root;
    return join(dir, relative(owner, path));
  };
}

export const discardSession = defineTool({
  name: 'discard_session',
  title: 'Discard a simulation session',
  description: 'Drops a session\'s edits (nothing was written).',
  group: 'simulation',
  concurrency: 'none',
  input: () => sessionIdInput,
  output: () => ({ ...sessionOutput, edits_discarded: z.number().optional() }),
  annotations: SIMULATES,
  async handler(args, ctx) {
    const session = ctx.ledger.simulations.get(args.session_id);
    const edits = await session.discard();
    return { ...sessionState(session), edits_discarded: edits };
  },
  text: (r) => `Discarded ${r.edits_discarded ?? 0} edit(s) of session ${r.session_id ?? '?'}; disk and server are as before.`,
});

export const destroySession = defineTool({
  name: 'destroy_session',
  title: 'Destroy a simulation session',
  description: 'Releases a session in any phase; its id becomes invalid.',
  group: 'simulation',
  concurrency: 'none',
  input: () => sessionIdInput,
  output: () => ({
    ...sessionOutput,
    already_destroyed: z.boolean().optional().describe('true when no live session had that id (destroyed before, expired, or never created here): nothing to release.'),
  }),
  annotations: SIMULATES,
  handler(args, ctx) {
    // Idempotent, as the original agent-lsp's: releasing what is already gone is not an error.
    try {
      return Promise.resolve(sessionState(ctx.ledger.simulations.destroy(args.session_id)));
    } catch (error) {
      if (!(error instanceof SimulationError) || !GONE.has(error.reason)) throw error;
      return Promise.resolve({ ready: true, session_id: args.session_id, phase: 'destroyed' as const, already_destroyed: true });
    }
  },
  text: (r) => (r.already_destroyed ? `Session ${r.session_id ?? '?'} was already destroyed (or never existed in this agent-lsp process).` : `Session ${r.session_id ?? '?'} destroyed.`),
});

const GONE: ReadonlySet<string> = new Set(['unknown_session', 'session_destroyed', 'session_expired']);

export const simulationEndTools = [commitSession, discardSession, destroySession];
