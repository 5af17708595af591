import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
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
