// preview_edit on the sqlite amalgamation with clangd (issue 28: previews proven at scale on every
// language): the errors a workspace-scope preview says an edit introduces are the ones gcc finds
// in the edited copy, or the answer says which files it did not examine; it never calls a breaking
// edit safe. A 9 MB unit that clangd builds in 15–40 s is what makes C previews slow to settle.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPath } from '../helpers/onPath.js';
import { ok, startAgentLsp, type AgentLspClient, type ToolAnswer } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import type { PreviewDiag, PreviewFile } from './previewChecks.js';

const installed = onPath('clangd') && onPath('gcc');
const sqlite: Corpus | NotRun = installed ? prepareCorpus('sqlite') : { notRun: 'clangd or gcc is not installed' };

afterAll(() => {
  if (!isNotRun(sqlite)) sqlite.dispose();
});

/** Breaks main.c's call (too few arguments); sqlite3.c, which has its own copy of the header, is unaffected. */
const HEADER_EDIT = { file_path: 'sqlite3.h', old_text: 'SQLITE_API const char *sqlite3_libversion(void);', new_text: 'SQLITE_API const char *sqlite3_libversion(int);' };
/** A misspelt name inside sqlite3.c: one error there, nothing elsewhere. */
const SOURCE_EDIT = { file_path: 'sqlite3.c', old_text: 'SQLITE_API const char *sqlite3_libversion(void){ return sqlite3_version; }', new_text: 'SQLITE_API const char *sqlite3_libversion(void){ return sqlite3_versio; }' };
/** Long enough for clangd to build sqlite3.c (and its baseline) on a loaded machine. */
const SETTLED_MS = 240_000;

describe.skipIf(isNotRun(sqlite))(`preview_edit on ${isNotRun(sqlite) ? `sqlite: not run (${sqlite.notRun})` : `${sqlite.label}, clangd`}`, () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = (sqlite as Corpus).root;
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'c' }));
  }, 300_000);
  afterAll(async () => {
    await agent?.close();
  });

  /** `file:line` of gcc's errors in `files` (relative), with `edit` applied on disk meanwhile. */
  function gccErrors(files: string[], edit?: { file_path: string; old_text: string; new_text: string }): string[] {
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

  /** The errors the preview says the edit introduces, judged against gcc's errors after minus before. */
  function judgeIntroduced(answer: ToolAnswer, label: string, files: string[], edit: typeof HEADER_EDIT): void {
    const data = ok(answer);
    expect(answer.text).not.toMatch(/fix errors|break none|is safe/i);
    const before = new Set(gccErrors(files));
    const truth = gccErrors(files, edit).filter((k) => !before.has(k));
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
  }

  it('a header edit that breaks main.c\'s call: the error gcc finds, or main.c listed as not examined', async () => {
    const answer = await agent.call('preview_edit', { language: 'c', ...HEADER_EDIT, scope: 'workspace', timeout_ms: SETTLED_MS });
    judgeIntroduced(answer, "sqlite3_libversion(void) → (int) in sqlite3.h, main.c's call breaks", ['main.c', 'sqlite3.c'], HEADER_EDIT);
    expect(readFileSync(join(root, 'sqlite3.h'), 'utf8')).toContain(HEADER_EDIT.old_text);
  }, 900_000);

  // With timeout_ms long enough for the unit to build, the preview ran past the test client's 300 s
  // without a progress notification (left for the next session, see the session notes).
  it('an edit inside sqlite3.c: its one error, or sqlite3.c listed as not examined (the default timeout rarely sees the 9 MB unit built)', async () => {
    const answer = await agent.call('preview_edit', { language: 'c', ...SOURCE_EDIT, scope: 'workspace' });
    judgeIntroduced(answer, 'a misspelt name in sqlite3.c, the default timeout', ['sqlite3.c'], SOURCE_EDIT);
    expect(readFileSync(join(root, 'sqlite3.c'), 'utf8')).toContain(SOURCE_EDIT.old_text);
  }, 900_000);
});
