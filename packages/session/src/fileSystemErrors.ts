import { UserError } from '@agent-lsp/protocol';

type ErrnoError = NodeJS.ErrnoException & { dest?: string };

/** What each filesystem refusal means for the caller, and what to do about it. */
const EXPLAIN: Readonly<Record<string, (path: string) => string>> = {
  ENAMETOOLONG: (p) => `${p}: the path, or a name in it, is too long for the filesystem (ENAMETOOLONG). Use a shorter name.`,
  EEXIST: (p) => `${p} already exists and is in the way (EEXIST), e.g. a file where a directory is needed. Use another path, or move it away first.`,
  EISDIR: (p) => `${p} is a directory, not a file (EISDIR). Give the path of a file.`,
  ENOTDIR: (p) => `A part of ${p} is a file where a directory is needed (ENOTDIR). Check the path.`,
  EACCES: (p) => `Permission denied on ${p} (EACCES): the user agent-lsp runs as may not read or write it. Change its permissions or owner, or use another path.`,
  EPERM: (p) => `Operation not permitted on ${p} (EPERM): the file or its directory is protected. Change its permissions or attributes, or use another path.`,
  EROFS: (p) => `${p} is on a read-only filesystem (EROFS); nothing can be written there.`,
  ENOSPC: (p) => `No space left on the device that holds ${p} (ENOSPC). Free some space and try again.`,
  EDQUOT: (p) => `The disk quota is used up on the device that holds ${p} (EDQUOT). Free some space and try again.`,
  ELOOP: (p) => `${p} goes through too many symlinks, or a loop of them (ELOOP). Check the links on the way.`,
};

/**
 * A filesystem error (Node's errno errors: ENAMETOOLONG, EEXIST, EISDIR, ENOTDIR, EACCES, EPERM,
 * EROFS, ENOSPC, EDQUOT, ELOOP) as the user error it is — the path and what to do — instead of a
 * crash report; undefined for anything else. A failed write has been rolled back by then.
 */
export function fileSystemUserError(err: unknown): UserError | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, path, dest, syscall } = err as ErrnoError;
  // Node refuses a path holding a NUL byte before asking the system: the caller's path (or URI, %00) is wrong.
  if (code === 'ERR_INVALID_ARG_VALUE' && /null bytes/.test(err.message)) {
    return new UserError('invalid_argument', 'A file path (or file: URI, as %00) contains a NUL byte, which no file name can hold. Check the path; nothing was changed.');
  }
  const explain = code !== undefined ? EXPLAIN[code] : undefined;
  if (!explain) return undefined;
  // A rename names both ends; the temp file of an atomic write is not the user's path.
  const shown = dest ?? path;
  const where = shown !== undefined ? shown.replace(/\/\.([^/]+)\.agent-lsp-\d+-[0-9a-f]+\.tmp$/, '/$1') : `A file the call touched (${syscall ?? 'unknown call'})`;
  return new UserError('filesystem', explain(where));
}

/** `err` with `path` recorded when the call did not say (a read of a directory does not). */
export function withPath(err: unknown, path: string): unknown {
  if (err instanceof Error && (err as ErrnoError).code !== undefined && (err as ErrnoError).path === undefined) (err as ErrnoError).path = path;
  return err;
}
