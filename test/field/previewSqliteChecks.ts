// preview_edit on the sqlite amalgamation with clangd, judged against gcc (the quick and the full
// tier share it): the errors a workspace-scope preview says an edit introduces are the ones gcc
// finds in the edited copy, or the answer says which files it did not examine; it never calls a
// breaking edit safe.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ok, type ToolAnswer } from '../helpers/mcpClient.js';
import { compareSets, judge } from './fieldOutcome.js';
import type { PreviewDiag, PreviewFile } from './previewChecks.js';

export interface TextEdit {
  file_path: string;
  old_text: string;
  new_text: string;
}

/** Breaks main.c's call (too few arguments); sqlite3.c, which has its own copy of the header, is unaffected. */
export const HEADER_EDIT: TextEdit = { file_path: 'sqlite3.h', old_text: 'SQLITE_API const char *sqlite3_libversion(void);', new_text: 'SQLITE_API const char *sqlite3_libversion(int);' };

/** `file:line` of gcc's errors in `files` (relative to `root`), with `edit` applied on disk meanwhile. */
function gccErrors(root: string, files: string[], edit?: TextEdit): string[] {
  const path = edit && join(root, edit.file_path);
  const before = path && readFileSync(path, 'utf8');
  if (edit && path && before) writeFileSync(path, before.replace(edit.old_text, edit.new_text));
  try {
    const errors: string[] = [];
    for (const file of files) {
      let out = '';
      try {
        execFileSync('gcc', ['-fsyntax-only', '-w', '-I', root, file], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        out = String((err as { stderr?: string }).stderr ?? '');
      }
      for (const m of out.matchAll(/^([^:\n]+):(\d+):\d+: (?:fatal )?error: /gm)) errors.push(`${m[1]}:${m[2]}`);
    }
    return errors;
  } finally {
    if (path && before) writeFileSync(path, before);
  }
}

/**
 * The errors the preview says the edit introduces, judged against gcc's errors after minus before
 * in `files`. Returns whether the answer claimed to be complete.
 */
export function judgeIntroduced(root: string, answer: ToolAnswer, label: string, files: string[], edit: TextEdit): boolean {
  const data = ok(answer);
  expect(answer.text).not.toMatch(/fix errors|break none|is safe/i);
  const before = new Set(gccErrors(root, files));
  const truth = gccErrors(root, files, edit).filter((k) => !before.has(k));
  expect(truth.length, 'gcc found no error the edit introduces').toBeGreaterThan(0);
  const introduced = (data['errors_introduced'] as PreviewDiag[]).map((d) => `${d.file}:${d.line}`);
  const unexamined = (data['files'] as PreviewFile[]).filter((f) => !f.examined).map((f) => f.file);
  const complete = data['confidence'] !== 'partial' && (data['not_examined'] as number) === 0;
  if (!complete) {
    expect(data['confidence'], answer.text).toBe('partial');
    expect(answer.text).toMatch(/not examined/);
  }
  // A file it did not examine contributes nothing: the truth it is judged on leaves those out.
  const judgedTruth = complete ? truth : truth.filter((k) => !unexamined.some((f) => k.startsWith(`${f}:`)));
  judge({ tool: 'preview_edit (workspace scope)', corpus: 'sqlite', case: label, ...compareSets(introduced, judgedTruth, complete) });
  return complete;
}
