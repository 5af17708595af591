import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithin } from '@agent-lsp/protocol';
import { writeFileAtomicSync } from '@agent-lsp/lsp';
import { hasJsonEntry, setJsonEntry } from './jsonConfigEdit.js';
import { SERVER_NAME, type ConfigTarget } from './clientTargets.js';
import { hasTomlTable, setTomlTable } from './tomlTable.js';

export type EditOutcome =
  | { file: string; action: 'added' | 'updated' | 'removed' | 'unchanged' | 'absent'; dryRun: boolean; text?: string }
  | { file: string; action: 'refused'; reason: string };

/**
 * Puts our entry into a client's file (entry given) or takes it out (undefined), editing only
 * that entry. A file that does not parse, or cannot be written, is reported and left as it was.
 */
export function editClientConfig(target: ConfigTarget, entry: Record<string, unknown> | undefined, dryRun: boolean): EditOutcome {
  const file = target.file;
  const escape = target.project !== undefined ? outsideProject(file, target.project) : undefined;
  if (escape !== undefined) {
    return { file, action: 'refused', reason: `it resolves to ${escape}, outside the project ${target.project}, through a symlink: a project's config is written only inside it (nothing was written)` };
  }
  let text = '';
  const exists = existsSync(file);
  if (exists) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      return { file, action: 'refused', reason: `cannot read it: ${(err as Error).message}` };
    }
  } else if (!entry) {
    return { file, action: 'absent', dryRun };
  }
  const edit =
    target.format === 'json' ? setJsonEntry(text, target.key, SERVER_NAME, entry) : setTomlTable(text, `${target.key}.${SERVER_NAME}`, entry);
  if ('error' in edit) return { file, action: 'refused', reason: `${edit.error}; fix or move it, then run again (nothing was written)` };
  if (!edit.changed) return { file, action: entry ? 'unchanged' : 'absent', dryRun };
  const present = target.format === 'json' ? hasJsonEntry(text, target.key, SERVER_NAME) : hasTomlTable(text, `${target.key}.${SERVER_NAME}`);
  const action = !entry ? 'removed' : present ? 'updated' : 'added';
  if (!dryRun) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      // Through a symlink (dotfiles) to the real file, keeping its permissions.
      const real = exists ? realpathSync(file) : file;
      writeFileAtomicSync(real, edit.text, { mode: exists ? statSync(real).mode & 0o777 : 0o644 });
    } catch (err) {
      return { file, action: 'refused', reason: `cannot write it: ${(err as Error).message}` };
    }
  }
  return { file, action, dryRun, text: edit.text };
}

/**
 * Where `file` really is when that is outside `project` (a repository's symlink to a file or
 * directory elsewhere, or to nowhere), else undefined. User-scope files follow symlinks (dotfiles);
 * a project's must not be a way to write outside it.
 */
function outsideProject(file: string, project: string): string | undefined {
  let root: string;
  try {
    root = realpathSync(project);
  } catch {
    return undefined;
  }
  // The nearest part of the path that exists, resolved, then the rest as it is.
  let existing = file;
  const rest: string[] = [];
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  let real: string;
  try {
    real = join(realpathSync(existing), ...rest);
  } catch {
    return file;
  }
  // A symlink to nowhere does not "exist": where it points is outside or unknown.
  if (rest.length > 0 && lstatOrUndefined(join(existing, rest[0]!))?.isSymbolicLink()) return `${join(existing, rest[0]!)} (a symlink to nowhere)`;
  return isWithin(root, real) ? undefined : real;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
