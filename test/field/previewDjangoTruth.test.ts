// A workspace-scope preview_edit on Django judged against pyright's CLI on an edited copy (issue 28,
// item 1: on main it once said "net_delta -311 … fix errors and break none" for an edit that breaks
// callers; the truth was +2). With a timeout long enough for every dependent to settle, the errors
// it says the edit introduces and resolves are exactly the CLI's difference (after minus before,
// and before minus after) in the files it examined; a file it did not examine is listed, and the
// answer is then partial. The workspace: django/utils and every module naming force_str.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { pyrightCliErrors } from './fieldCheckers.js';
import { compareSets, judge } from './fieldOutcome.js';
import { djangoUtilsAndImporters, ENCODING, FORCE_STR, naming, type PreviewDiag, type PreviewFile } from './previewChecks.js';

const django: Corpus | NotRun = prepareCorpus('django');

afterAll(() => {
  if (!isNotRun(django)) django.dispose();
});

/** Long enough for pyright to check every dependent with the edit on a loaded machine. */
const SETTLED_MS = 180_000;

describe.skipIf(isNotRun(django))(`preview_edit judged by pyright's CLI on ${isNotRun(django) ? `Django: not run (${django.notRun})` : `${django.label}: django/utils and the modules naming force_str`}`, () => {
  let agent: AgentLspClient;
  let root: string;
  const truth = { introduced: [] as string[], resolved: [] as string[] };

  beforeAll(async () => {
    root = djangoUtilsAndImporters(django as Corpus);
    // The truth first, before any server watches the files: the CLI on the edited file and every
    // file naming force_str, without the edit and with it.
    const files = [ENCODING, ...naming(root, 'force_str', '.py', ENCODING)];
    const path = join(root, ENCODING);
    const original = readFileSync(path, 'utf8');
    const before = pyrightCliErrors(root, files);
    writeFileSync(path, original.replace(FORCE_STR.old_text, FORCE_STR.new_text));
    let after: string[];
    try {
      after = pyrightCliErrors(root, files);
    } finally {
      writeFileSync(path, original);
    }
    truth.introduced = after.filter((k) => !before.includes(k));
    truth.resolved = before.filter((k) => !after.includes(k));
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  }, 600_000);
  afterAll(async () => {
    await agent?.close();
  });

  it("making force_str's encoding required: the errors introduced and resolved are the CLI's, in every file examined", async () => {
    expect(truth.introduced.length, 'the CLI found no error the edit introduces').toBeGreaterThan(0);
    const answer = await agent.call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace', timeout_ms: SETTLED_MS });
    const data = ok(answer);
    expect(answer.text).not.toMatch(/fix errors|break none/);
    const complete = data['confidence'] !== 'partial' && (data['not_examined'] as number) === 0;
    if (!complete) expect(answer.text).toMatch(/not examined/);
    const examined = new Set((data['files'] as PreviewFile[]).filter((f) => f.examined).map((f) => f.file));
    const inExamined = (keys: string[]) => (complete ? keys : keys.filter((k) => examined.has(k.slice(0, k.indexOf(':')))));
    const keys = (list: PreviewDiag[]) => list.map((d) => `${d.file}:${d.line} ${d.message}`);
    const introduced = compareSets(keys(data['errors_introduced'] as PreviewDiag[]), inExamined(truth.introduced), complete);
    judge({ tool: 'preview_edit (workspace scope)', corpus: 'django', case: "force_str's encoding required: errors introduced", ...introduced });
    const resolved = compareSets(keys(data['errors_resolved'] as PreviewDiag[]), inExamined(truth.resolved), complete);
    judge({ tool: 'preview_edit (workspace scope)', corpus: 'django', case: "force_str's encoding required: errors resolved", ...resolved });
    expect(readFileSync(join(root, ENCODING), 'utf8')).toContain(FORCE_STR.old_text);
  }, 900_000);
});
