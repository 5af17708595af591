import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isWithin, UserError } from '@agent-lsp/protocol';

export interface ResolvedFile {
  /** realpath of the file. */
  path: string;
}

/**
 * Turns a path an agent gave into a real, checked path. Reads may touch files inside the roots
 * and files a server named in an answer (typeshed, node_modules); nothing else. Symlinks are
 * resolved before the check, so a link inside the root cannot reach outside it.
 */
export function resolveFilePath(
  input: string,
  roots: readonly string[],
  allowedOutside: ReadonlySet<string>,
): ResolvedFile {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new UserError('invalid_argument', 'file_path is empty: pass a path relative to the workspace root, or an absolute path.');
  }
  const base = roots[0];
  if (!isAbsolute(input) && !base) {
    throw new UserError('no_workspace', `"${input}" is relative but no workspace is set. Call start_lsp with root_dir first, or pass an absolute path.`);
  }
  const absolute = isAbsolute(input) ? resolve(input) : resolve(base ?? '/', input);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new UserError('file_not_found', `${input} does not exist${base ? ` (looked for ${absolute})` : ''}. Check the path; relative paths are resolved against the workspace root ${base ?? ''}.`);
  }
  if (!statSync(real).isFile()) {
    throw new UserError('invalid_argument', `${input} is not a regular file.`);
  }
  if (roots.length > 0 && !roots.some((r) => isWithin(r, real)) && !allowedOutside.has(real)) {
    const via = real !== absolute ? ` (it resolves to ${real})` : '';
    throw new UserError(
      'outside_workspace',
      `${input} is outside the workspace${via}; the workspace roots are: ${roots.join(', ')}. Use add_workspace_folder or start_lsp with another root_dir to work there.`,
    );
  }
  return { path: real };
}

/** Checks a directory argument and returns its realpath. */
export function resolveDirectory(input: string, what = 'root_dir'): string {
  if (typeof input !== 'string' || input.trim() === '') throw new UserError('invalid_argument', `${what} is empty: pass an absolute directory path.`);
  let real: string;
  try {
    real = realpathSync(resolve(input));
  } catch {
    throw new UserError('file_not_found', `${what} ${input} does not exist.`);
  }
  if (!statSync(real).isDirectory()) throw new UserError('invalid_argument', `${what} ${input} is not a directory.`);
  return real;
}
