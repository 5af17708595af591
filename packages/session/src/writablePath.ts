import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin, uriToPath, UserError } from '@agent-lsp/protocol';

/**
 * The real path a write to `input` (a file:// URI, an absolute path, or one relative to the first
 * root) lands on: symlinks resolved, including those of a file's parent directories when the file
 * does not exist yet. Refuses anything outside the workspace roots and anything but a regular file.
 */
export function resolveWritablePath(input: string, roots: readonly string[]): string {
  const { real, exists } = containedRealPath(input, roots);
  if (exists && !lstatSync(real).isFile()) {
    throw new UserError('invalid_argument', `${input} is not a regular file; agent-lsp edits, creates and deletes files only.`);
  }
  return real;
}

/** Like resolveWritablePath, for a directory that files will be written under (it may not exist yet). */
export function resolveWritableDirectory(input: string, roots: readonly string[]): string {
  const { real, exists } = containedRealPath(input, roots);
  if (exists && !lstatSync(real).isDirectory()) {
    throw new UserError('invalid_argument', `${input} is not a directory; give a directory to write the files under.`);
  }
  return real;
}

/** An existing file or directory inside `roots` (symlinks resolved and checked): the scope of a search that may write. */
export function resolveExistingPath(input: string, roots: readonly string[]): string {
  const { real, exists } = containedRealPath(input, roots);
  if (!exists) throw new UserError('file_not_found', `${input} does not exist.`);
  return real;
}

/**
 * Checks again, right before a write, that `path` (a real path resolved earlier) is still real and
 * inside `roots`: a directory swapped for a symlink since, or a path recorded in a checkpoint that
 * now leads elsewhere, is refused rather than followed.
 */
export function assertWritableRealPath(path: string, roots: readonly string[]): void {
  const real = resolveWritablePath(path, roots);
  if (real !== path) {
    throw new UserError('outside_workspace', `${path} now resolves to ${real} through a symlink; agent-lsp writes only to the real path it checked. Nothing more was written.`);
  }
}

function containedRealPath(input: string, roots: readonly string[]): { real: string; exists: boolean } {
  const base = roots[0];
  if (!base) throw new UserError('no_workspace', 'No workspace is set. Call start_lsp with root_dir first.');
  const path = absoluteInput(input, base);
  const { real, exists } = landing(path, input);
  if (!roots.some((r) => isWithin(r, real))) {
    const via = real !== path ? ` (it resolves to ${real})` : '';
    throw new UserError('outside_workspace', `${input} is outside the workspace${via}; agent-lsp writes only inside the workspace roots: ${roots.join(', ')}.`);
  }
  return { real, exists };
}

/**
 * Where a write to the absolute `path` lands: the realpath of its longest existing prefix, plus the
 * rest. A path recorded as real that no longer lands on itself went through a symlink swapped in since.
 */
export function landingPath(path: string): string {
  return landing(path, path).real;
}

function landing(path: string, input: string): { real: string; exists: boolean } {
  const rest: string[] = [];
  let existing = path;
  while (!entryExists(existing)) {
    rest.unshift(basename(existing));
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  let realExisting: string;
  try {
    realExisting = realpathSync(existing);
  } catch {
    // A dangling symlink (or a loop) on the way: where a write through it would land is unknowable.
    throw new UserError('invalid_argument', `${input} goes through ${existing}, a symlink that leads nowhere; agent-lsp does not write through it.`);
  }
  return { real: join(realExisting, ...rest), exists: rest.length === 0 };
}

/** True when something (a dangling symlink included) is at `path`. */
function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function absoluteInput(input: string, base: string): string {
  if (input.startsWith('file:')) {
    const p = uriToPath(input);
    if (!p) throw new UserError('invalid_argument', `${input} is not a valid file URI.`);
    return p;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(input) && !isAbsolute(input)) {
    throw new UserError('invalid_argument', `${input} is not a file: agent-lsp writes only file:// URIs and paths.`);
  }
  return isAbsolute(input) ? resolve(input) : resolve(base, input);
}
