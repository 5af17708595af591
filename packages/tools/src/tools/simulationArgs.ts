import { z } from 'zod';
import { isWithin, UserError } from '@agent-lsp/protocol';
import { SCOPES, type EditSpec, type Scope } from '@agent-lsp/session';
import { resolveDirectory } from '@agent-lsp/workspace';
import { filePath, oneBased } from '../catalog/schemas.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** The spec's defaults: a file settles quickly; other files' diagnostics take longer to arrive. */
export const DEFAULT_TIMEOUT_MS: Record<Scope, number> = { file: 3000, workspace: 8000 };

/** An edit: a 1-based range, or old_text (occurring once), replaced by new_text. */
export const editInput = {
  file_path: filePath,
  start_line: oneBased('start_line').optional().describe('Or old_text.'),
  start_column: oneBased('start_column').optional().describe('In characters.'),
  end_line: oneBased('end_line').optional(),
  end_column: oneBased('end_column').optional().describe('Exclusive.'),
  old_text: z.string().optional().describe('Instead of a range: text occurring once.'),
  new_text: z.string().describe('"" deletes.'),
};

export const evaluationInput = {
  scope: z.enum(SCOPES).optional().describe('workspace: also the files depending on the edits.'),
  timeout_ms: z.number().int().positive().optional().describe('Settle wait (default 3000; workspace 8000).'),
};

export const sessionIdInput = { session_id: z.string().min(1).describe('From create_simulation_session.') };

export interface EditArgs {
  file_path: string;
  start_line?: number | undefined;
  start_column?: number | undefined;
  end_line?: number | undefined;
  end_column?: number | undefined;
  old_text?: string | undefined;
  new_text: string;
}

export function editSpec(ctx: ToolContext, args: EditArgs): EditSpec {
  const parts = [args.start_line, args.start_column, args.end_line, args.end_column];
  const given = parts.filter((p) => p !== undefined).length;
  if (given !== 0 && given !== 4) throw new UserError('invalid_argument', 'A range needs all of start_line, start_column, end_line and end_column (1-based).');
  const spec: EditSpec = { path: ctx.workspace.resolveFile(args.file_path), newText: args.new_text, oldText: args.old_text };
  if (given === 4) spec.range = { line: args.start_line as number, column: args.start_column as number, end_line: args.end_line as number, end_column: args.end_column as number };
  return spec;
}

/** The workspace root a session works in: the current one (or a folder inside it); starts the workspace when there is none. */
export async function sessionRoot(ctx: ToolContext, workspaceRoot: string | undefined, hintPath?: string): Promise<string> {
  if (workspaceRoot === undefined) {
    const howToSet = hintPath === undefined ? 'Call start_lsp with root_dir first, or pass workspace_root.' : 'Call start_lsp with root_dir first, or pass workspace_root or an absolute file_path.';
    await ctx.workspace.ensureRoots(hintPath, howToSet);
    return ctx.workspace.primaryRoot as string;
  }
  const real = resolveDirectory(workspaceRoot, 'workspace_root');
  if (ctx.workspace.rootList.length === 0) return ctx.workspace.setRoot(real);
  const root = ctx.workspace.rootList.find((r) => isWithin(r, real));
  if (!root) {
    throw new UserError('invalid_argument', `workspace_root ${real} is not in the current workspace (${ctx.workspace.rootList.join(', ')}). Call start_lsp with root_dir ${real} first, or add_workspace_folder.`);
  }
  return root;
}

export function scopeOf(args: { scope?: Scope | undefined; timeout_ms?: number | undefined }): { scope: Scope; timeoutMs: number } {
  const scope = args.scope ?? 'file';
  return { scope, timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS[scope] };
}
