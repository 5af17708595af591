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
  /** Path relative to the repository top, as git names it. */
  path: string;
  /** 1-based line ranges [first, last] of the new text that changed; a deletion marks the line after it. */
  lines: [number, number][];
  status: 'modified' | 'added' | 'deleted';
}

/** Parses `git diff --unified=0` output into the changed line ranges of each file's new text. */
export function parseUnifiedDiff(diff: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  let current: ChangedFile | undefined;
  let oldPath: string | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      oldPath = undefined;
      continue;
    }
    if (line.startsWith('--- ')) {
      oldPath = line.slice(4);
      continue;
    }
    if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      const deleted = target === '/dev/null';
      const path = stripPrefix(deleted ? (oldPath ?? '') : target);
      current = { path, lines: [], status: deleted ? 'deleted' : oldPath === '/dev/null' ? 'added' : 'modified' };
      files.push(current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      if (count === 0) current.lines.push([Math.max(start, 1), Math.max(start, 1)]);
      else current.lines.push([start, start + count - 1]);
    }
  }
  return files;
}

function stripPrefix(p: string): string {
  const unquoted = p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1) : p;
  return unquoted.replace(/^[ab]\//, '');
}
