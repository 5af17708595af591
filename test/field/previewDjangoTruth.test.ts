// A workspace-scope preview_edit on Django judged against pyright's CLI on an edited copy (issue 28,
// item 1: on main it once said "net_delta -311 … fix errors and break none" for an edit that breaks
// callers; the truth was +2). With a timeout long enough for every dependent to settle, the errors
// it says the edit introduces and resolves are exactly the CLI's difference (after minus before,
// and before minus after) in the files it examined; a file it did not examine is listed, and the
// answer is then partial. The workspace: django/utils and every module naming force_str.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { fieldAgent } from './fieldAgent.js';
import { djangoUtilsAndImporters, ENCODING, FORCE_STR, forceStrTruth, judgeByCli, type CliTruth } from './previewChecks.js';

const django: Corpus | NotRun = prepareCorpus('django');

afterAll(() => {
  if (!isNotRun(django)) django.dispose();
});

/** Long enough for pyright to check every dependent with the edit on a loaded machine. */
const SETTLED_MS = 180_000;

describe.skipIf(isNotRun(django))(`preview_edit judged by pyright's CLI on ${isNotRun(django) ? `Django: not run (${django.notRun})` : `${django.label}: django/utils and the modules naming force_str`}`, () => {
  let root: string;
  let truth: CliTruth;

  beforeAll(() => {
    root = djangoUtilsAndImporters(django as Corpus);
    truth = forceStrTruth(root);
  }, 600_000);
  const agent = fieldAgent(() => root, 'python');

  it("making force_str's encoding required: the errors introduced and resolved are the CLI's, in every file examined", async () => {
    const answer = await agent().call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace', timeout_ms: SETTLED_MS });
    judgeByCli(answer, truth, 'django/utils and the modules naming it');
    expect(readFileSync(join(root, ENCODING), 'utf8')).toContain(FORCE_STR.old_text);
  }, 900_000);
});
