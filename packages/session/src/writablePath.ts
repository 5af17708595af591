import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin, uriToPath, UserError } from '@agent-lsp/protocol';

/**
 * The real path a write to `input` (a file:// URI, an absolute path, or one relative to the first
 * root) lands on: symlinks resolved, including those of a file's parent directories when the file
 * does not exist yet. Refuses anything outside the workspace roots and anything but a regular file.
 */
export function resolveWritablePath(input: string, roots: readonly string[]): string {
  const base = roots[0];
  if (!base) throw new UserError('no_workspace', 'No workspace is set. Call start_lsp with root_dir first.');
  let path: string;
  if (input.startsWith('file:')) {
    const p = uriToPath(input);
    if (!p) throw new UserError('invalid_argument', `${input} is not a valid file URI.`);
    path = p;
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(input) && !isAbsolute(input)) {
    throw new UserError('invalid_argument', `${input} is not a file: agent-lsp writes only file:// URIs and paths.`);
  } else {
    path = isAbsolute(input) ? resolve(input) : resolve(base, input);
  }
  const rest: string[] = [];
  let existing = path;
  while (!existsSync(existing)) {
    rest.unshift(basename(existing));
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const real = join(realpathSync(existing), ...rest);
  if (!roots.some((r) => isWithin(r, real))) {
    const via = real !== path ? ` (it resolves to ${real})` : '';
    throw new UserError('outside_workspace', `${input} is outside the workspace${via}; agent-lsp writes only inside the workspace roots: ${roots.join(', ')}.`);
  }
  if (rest.length === 0 && !lstatSync(real).isFile()) {
    throw new UserError('invalid_argument', `${input} is not a regular file; agent-lsp edits, creates and deletes files only.`);
  }
  return real;
}
