// preview_edit at workspace scope on the sqlite amalgamation with clangd (issue 28: previews proven
// at scale on every language): a header edit that breaks main.c's call. The truth is gcc's on the
// edited copy (previewSqliteChecks.ts); with a timeout long enough for clangd to build the 9 MB
// sqlite3.c (a dependent too), the answer is complete. It was not: the preview opened the header
// (the disk's text) and counted that as a change for every other file, so main.c's settled
// diagnostics waited for a push clangd never sends for a unit it does not rebuild, and main.c was
// listed as not examined ("its baseline did not settle (quiet)").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onPath } from '../helpers/onPath.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { fieldAgent } from './fieldAgent.js';
import { HEADER_EDIT, judgeIntroduced } from './previewSqliteChecks.js';

const installed = onPath('clangd') && onPath('gcc');
const sqlite: Corpus | NotRun = installed ? prepareCorpus('sqlite') : { notRun: 'clangd or gcc is not installed' };

afterAll(() => {
  if (!isNotRun(sqlite)) sqlite.dispose();
});

/** Long enough for clangd to build sqlite3.c (and its baseline) on a loaded machine. */
const SETTLED_MS = 240_000;

describe.skipIf(isNotRun(sqlite))(`preview_edit of a header on ${isNotRun(sqlite) ? `sqlite: not run (${sqlite.notRun})` : `${sqlite.label}, clangd`}`, () => {
  const root = () => (sqlite as Corpus).root;
  const agent = fieldAgent(root, 'c');

  it("a header edit that breaks main.c's call: the error gcc finds, every dependent examined", async () => {
    const answer = await agent().call('preview_edit', { language: 'c', ...HEADER_EDIT, scope: 'workspace', timeout_ms: SETTLED_MS });
    const complete = judgeIntroduced(root(), answer, "sqlite3_libversion(void) → (int) in sqlite3.h, main.c's call breaks", ['main.c', 'sqlite3.c'], HEADER_EDIT);
    expect(complete, answer.text).toBe(true);
    expect(readFileSync(join(root(), 'sqlite3.h'), 'utf8')).toContain(HEADER_EDIT.old_text);
  }, 900_000);
});
