import { execFile } from 'node:child_process';
import { UserError } from '@agent-lsp/protocol';

const GIT_TIMEOUT_MS = 30_000;

/** Runs git with an argv (never a shell) in `cwd`; rejects with git's own stderr. */
export function git(cwd: string, args: readonly string[], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, signal, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err as Error, { stderr: String(stderr) }));
      else resolve(String(stdout));
    });
  });
}

/** The top of the git repository holding `dir`, or a UserError that says what to do instead. */
export async function repositoryTop(dir: string, signal: AbortSignal): Promise<string> {
  try {
    return (await git(dir, ['rev-parse', '--show-toplevel'], signal)).trim();
  } catch (err) {
    if (signal.aborted) throw err;
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UserError(
      'not_supported',
      missing
        ? 'detect_changes needs git, which is not installed (not on PATH). Use blast_radius with changed_files instead.'
        : `${dir} is not inside a git repository, so there is no diff to read. Use blast_radius with changed_files instead, or start_lsp on a directory inside a git repository.`,
    );
  }
}

/** Checks that `ref` names a commit; a UserError naming it otherwise. */
export async function verifyRef(top: string, ref: string, signal: AbortSignal): Promise<void> {
  const refuse = () =>
    new UserError('invalid_argument', `Unknown git ref "${ref}" in ${top}. Pass a branch, tag or commit that exists (e.g. HEAD, HEAD~1, main); \`git log --oneline\` lists commits.`);
  if (ref.startsWith('-') || ref.trim() === '') throw refuse();
  try {
    await git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw refuse();
  }
}

export interface ChangedFile {
  /** Path relative to the repository top, as git names it: the new path (the old one when deleted). */
  path: string;
  /** The path at the base when it differs (a rename). */
  oldPath?: string | undefined;
  /** 1-based line ranges [first, last] of the new text that changed or were added. */
  lines: [number, number][];
  /** 1-based line ranges [first, last] of the base's text that changed or were removed. */
  oldLines: [number, number][];
  status: 'modified' | 'added' | 'deleted' | 'renamed';
}

/** The range of `count` lines from `start`, none when a hunk side is empty (a pure addition or deletion). */
function side(start: number, count: number): [number, number][] {
  return count === 0 ? [] : [[start, start + count - 1]];
}

/**
 * Parses `git diff --unified=0 -M` output into both sides of each file's changes: the lines of the
 * new text that changed, and the lines of the base's text that changed or went away.
 */
export function parseUnifiedDiff(diff: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  let current: ChangedFile | undefined;
  let renamedFrom: string | undefined;
  let oldPath: string | undefined;
  const start = (file: ChangedFile): void => {
    current = file;
    files.push(file);
  };
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      oldPath = undefined;
      renamedFrom = undefined;
      continue;
    }
    // A rename without content changes has no ---/+++ lines: the rename lines are all there is.
    if (line.startsWith('rename from ')) {
      renamedFrom = unquote(line.slice('rename from '.length));
      continue;
    }
    if (line.startsWith('rename to ') && renamedFrom !== undefined) {
      start({ path: unquote(line.slice('rename to '.length)), oldPath: renamedFrom, lines: [], oldLines: [], status: 'renamed' });
      continue;
    }
    if (line.startsWith('--- ')) {
      oldPath = line.slice(4);
      continue;
    }
    if (line.startsWith('+++ ')) {
      if (current?.status === 'renamed') continue;
      const target = line.slice(4);
      const deleted = target === '/dev/null';
      const path = stripPrefix(deleted ? (oldPath ?? '') : target);
      start({ path, lines: [], oldLines: [], status: deleted ? 'deleted' : oldPath === '/dev/null' ? 'added' : 'modified' });
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const count = (n: string | undefined) => (n === undefined ? 1 : Number(n));
      current.oldLines.push(...side(Number(hunk[1]), count(hunk[2])));
      current.lines.push(...side(Number(hunk[3]), count(hunk[4])));
    }
  }
  return files;
}

function unquote(p: string): string {
  return p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1) : p;
}

function stripPrefix(p: string): string {
  return unquote(p).replace(/^[ab]\//, '');
}
