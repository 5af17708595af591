import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isWithin, UserError } from '@agent-lsp/protocol';
import type { Workspace } from '@agent-lsp/workspace';

/**
 * A workspace_dir or path argument as a realpath inside the roots (relative ones are taken from
 * the primary root, as every path agents give). Symlinks are resolved before the check.
 */
export function pathInRoots(workspace: Workspace, input: string, what: 'workspace_dir' | 'path'): { path: string; root: string; isDirectory: boolean } {
  if (input.trim() === '') throw new UserError('invalid_argument', `${what} is empty: leave it out, or pass a directory inside the workspace.`);
  const base = workspace.primaryRoot ?? '/';
  const absolute = isAbsolute(input) ? resolve(input) : resolve(base, input);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new UserError('file_not_found', `${what} ${input} does not exist (looked for ${absolute}).`);
  }
  const root = workspace.rootList.find((r) => isWithin(r, real));
  if (!root) {
    throw new UserError(
      'outside_workspace',
      `${what} ${input} is outside the workspace${real !== absolute ? ` (it resolves to ${real})` : ''}; the workspace roots are: ${workspace.rootList.join(', ')}. Builds and tests run only inside them: use add_workspace_folder or start_lsp with another root_dir.`,
    );
  }
  const isDirectory = statSync(real).isDirectory();
  if (what === 'workspace_dir' && !isDirectory) throw new UserError('invalid_argument', `workspace_dir ${input} is not a directory.`);
  return { path: real, root, isDirectory };
}
