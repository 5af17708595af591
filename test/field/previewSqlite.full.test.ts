// preview_edit on the sqlite amalgamation with clangd (issue 28: previews proven at scale on every
// language): an edit inside the 9 MB sqlite3.c, which clangd builds in 15–40 s, with the default
// timeout. Its one error, or sqlite3.c listed as not examined; never called safe. The header case
// is in the quick tier (previewSqlite.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onPath } from '../helpers/onPath.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { fieldAgent } from './fieldAgent.js';
import { judgeIntroduced, type TextEdit } from './previewSqliteChecks.js';

const installed = onPath('clangd') && onPath('gcc');
const sqlite: Corpus | NotRun = installed ? prepareCorpus('sqlite') : { notRun: 'clangd or gcc is not installed' };

afterAll(() => {
  if (!isNotRun(sqlite)) sqlite.dispose();
});

/** A misspelt name inside sqlite3.c: one error there, nothing elsewhere. */
const SOURCE_EDIT: TextEdit = { file_path: 'sqlite3.c', old_text: 'SQLITE_API const char *sqlite3_libversion(void){ return sqlite3_version; }', new_text: 'SQLITE_API const char *sqlite3_libversion(void){ return sqlite3_versio; }' };

describe.skipIf(isNotRun(sqlite))(`preview_edit on ${isNotRun(sqlite) ? `sqlite: not run (${sqlite.notRun})` : `${sqlite.label}, clangd`}`, () => {
  const root = () => (sqlite as Corpus).root;
  const agent = fieldAgent(root, 'c');

  it('an edit inside sqlite3.c: its one error, or sqlite3.c listed as not examined (the default timeout rarely sees the 9 MB unit built)', async () => {
    const progress: string[] = [];
    const answer = await agent().call('preview_edit', { language: 'c', ...SOURCE_EDIT, scope: 'workspace' }, { onProgress: (m) => progress.push(m ?? '') });
    judgeIntroduced(root(), answer, 'a misspelt name in sqlite3.c, the default timeout', ['sqlite3.c'], SOURCE_EDIT);
    // A call of many seconds tells a client that asked for progress what it is doing meanwhile.
    expect(progress.length, 'progress notifications').toBeGreaterThan(0);
    expect(readFileSync(join(root(), 'sqlite3.c'), 'utf8')).toContain(SOURCE_EDIT.old_text);
  }, 900_000);
});
