// The full tier of test/field/preview.test.ts: the whole of Django, where pyright takes a minute
// and a workspace preview at the default timeout leaves many dependents unsettled (on main it said
// "net_delta -50 … fix errors and break none" for an edit that breaks callers); and rxjs, whose
// project tsserver takes half a minute to load, for a TypeScript export renamed at file scope.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { fieldAgent } from './fieldAgent.js';
import { tscProjectErrors } from './fieldCheckers.js';
import { compareSets, judge } from './fieldOutcome.js';
import { ENCODING, expectNoFixFromUnexamined, FORCE_STR, forceStrTruth, judgeByCli, naming, type CliTruth, type PreviewDiag, type PreviewFile } from './previewChecks.js';

const django: Corpus | NotRun = prepareCorpus('django');
const rxjs: Corpus | NotRun = prepareCorpus('rxjs');

// At file level, so the copies go even when a filter or a skip leaves a describe's hooks unrun.
afterAll(() => {
  for (const corpus of [django, rxjs]) if (!isNotRun(corpus)) corpus.dispose();
});

describe.skipIf(isNotRun(django))(`preview_edit at workspace scope on ${isNotRun(django) ? `Django: not run (${django.notRun})` : django.label}`, () => {
  let truth: CliTruth;

  beforeAll(() => {
    truth = forceStrTruth((django as Corpus).root);
  }, 600_000);
  const agent = fieldAgent(() => (django as Corpus).root, 'python');

  it('making force_str\'s encoding required, at the default timeout: unsettled dependents count for nothing and nothing calls it a fix', async () => {
    const answer = await agent().call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace' });
    expectNoFixFromUnexamined(answer, (django as Corpus).root);
  });

  it("the same edit with time to settle: the errors introduced and resolved are pyright CLI's on the edited copy", async () => {
    const answer = await agent().call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace', timeout_ms: 600_000 });
    judgeByCli(answer, truth, 'the whole of Django');
  }, 900_000);
});

describe.skipIf(isNotRun(rxjs))(`preview_edit on ${isNotRun(rxjs) ? `rxjs: not run (${rxjs.notRun})` : rxjs.label}`, () => {
  const IS_FUNCTION = 'src/internal/util/isFunction.ts';
  const RENAME = { old_text: 'export function isFunction(', new_text: 'export function isFunc(' };
  /** The errors tsc finds in the project with the rename on disk and not without it (before any server watches the files). */
  let truth: string[];

  beforeAll(() => {
    const root = (rxjs as Corpus).root;
    const path = join(root, IS_FUNCTION);
    const original = readFileSync(path, 'utf8');
    const clean = tscProjectErrors(root);
    writeFileSync(path, original.replace(RENAME.old_text, RENAME.new_text));
    try {
      truth = [...new Set(tscProjectErrors(root))].filter((k) => !clean.includes(k));
    } finally {
      writeFileSync(path, original);
    }
  }, 600_000);
  const agent = fieldAgent(() => (rxjs as Corpus).root, 'typescript');

  it('file scope: renaming the exported isFunction says the importers naming it were not checked, and is not high', async () => {
    const truth = naming((rxjs as Corpus).root, 'isFunction', '.ts', IS_FUNCTION);
    expect(truth.length).toBeGreaterThan(20);
    const answer = await agent().call('preview_edit', { language: 'typescript', file_path: IS_FUNCTION, ...RENAME });
    const data = ok(answer);
    expect(data['confidence'], answer.text).toBe('partial');
    expect(data['changed_declarations']).toEqual(['isFunction (isFunction.ts)']);
    expect(data['dependents']).toMatchObject({ found: truth.length, examined: 0, not_examined: truth.length });
    expect(answer.text).toMatch(new RegExp(`named in ${truth.length} other file\\(s\\) that file scope did not check.*scope: "workspace"`));
  });

  it('workspace scope: the rename introduces exactly the errors tsc finds in the edited project', async () => {
    expect(truth.length, 'tsc found no error the rename introduces').toBeGreaterThan(0);
    const answer = await agent().call('preview_edit', { language: 'typescript', file_path: IS_FUNCTION, ...RENAME, scope: 'workspace', timeout_ms: 600_000 });
    const data = ok(answer);
    expect(answer.text).not.toMatch(/fix errors|break none/);
    const complete = data['confidence'] !== 'partial' && (data['not_examined'] as number) === 0;
    const examined = new Set((data['files'] as PreviewFile[]).filter((f) => f.examined).map((f) => f.file));
    const judged = complete ? truth : truth.filter((k) => examined.has(k.slice(0, k.indexOf(':'))));
    const introduced = (data['errors_introduced'] as PreviewDiag[]).map((d) => `${d.file}:${d.line}`);
    judge({ tool: 'preview_edit (workspace scope)', corpus: 'rxjs', case: 'isFunction renamed: errors introduced', ...compareSets(introduced, judged, complete) });
  }, 900_000);
});
