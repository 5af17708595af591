// run_tests and run_build on real code (issue 28). run_tests: CPython's own tests of textwrap with
// a bug planted in the module (dedent returns its text unchanged); the truth is the tests that fail
// when the test module is run by the standard library's unittest, asked by a script of the test's
// own. run_build: the go-std corpus with errors planted in two packages; the truth is what
// `go build ./...` itself prints, read by the test. Every file a case changes is restored.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { fieldAgent } from './fieldAgent.js';
import { isNotRun, prepareCorpus, PY_STDLIB_PACKAGE, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';

/** Replaces `old` (which must occur once) in a file of the corpus; returns the text to put back. */
function plant(root: string, file: string, old: string, replacement: string): string {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  expect(text.split(old).length, `${file} holds "${old}" once`).toBe(2);
  writeFileSync(path, text.replace(old, replacement));
  return text;
}

interface Failure {
  test_id?: string;
  file?: string;
  line?: number;
  column?: number;
}

const python: Corpus | NotRun = prepareCorpus('py-stdlib');
const go: Corpus | NotRun = onPath('go') ? prepareCorpus('go-std') : { notRun: 'go is not installed' };
afterAll(() => {
  for (const corpus of [python, go]) if (!isNotRun(corpus)) corpus.dispose();
});

describe.skipIf(isNotRun(python))(`run_tests on ${isNotRun(python) ? `the Python standard library: not run (${python.notRun})` : python.label}`, () => {
  const root = (): string => (python as Corpus).root;
  const MODULE = `${PY_STDLIB_PACKAGE}/textwrap.py`;
  const TESTS = 'test/test_textwrap.py';
  const agent = fieldAgent(root, 'python');

  /** `Class.method` of each test of the module that fails or errs, by unittest run here. */
  function failingTests(): string[] {
    const script = [
      'import sys, unittest',
      'suite = unittest.defaultTestLoader.loadTestsFromName(sys.argv[1])',
      'result = unittest.TestResult()',
      'suite.run(result)',
      'for test, _ in result.failures + result.errors: print(".".join(test.id().split(".")[-2:]))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script, TESTS.replace(/\.py$/, '').replace(/\//g, '.')], { cwd: root(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.split('\n').filter(Boolean);
  }

  it('run_tests of the module\'s own tests, with dedent made to return its text unchanged, lists exactly the tests unittest sees fail', async () => {
    expect(failingTests(), 'the tests pass before the bug').toEqual([]);
    const original = plant(root(), MODULE, 'def dedent(text):\n', 'def dedent(text):\n    return text\n');
    try {
      const truth = failingTests();
      expect(truth.length, 'the planted bug fails tests').toBeGreaterThan(0);
      const data = ok(await agent().call('run_tests', { workspace_dir: root(), path: TESTS, language: 'python' }));
      // pytest names a test file::Class::method, unittest method (module.Class): Class.method of either.
      const ours = ((data['failures'] as Failure[] | undefined) ?? []).map((f) => {
        const id = f.test_id ?? '';
        const unittest = /^(\w+) \((?:[\w.]+\.)?(\w+)\)/.exec(id);
        return unittest ? `${unittest[2]}.${unittest[1]}` : id.split('::').slice(-2).join('.');
      });
      judge({ tool: 'run_tests', corpus: 'py-stdlib', case: `${TESTS}, dedent returning its text`, ...compareSets(ours, truth, data['total_failures'] === ours.length) });
      expect(data['passed']).toBe(false);
    } finally {
      writeFileSync(join(root(), MODULE), original);
    }
  });
});

describe.skipIf(isNotRun(go))(`run_build on ${isNotRun(go) ? `Go's standard library: not run (${go.notRun})` : go.label}`, () => {
  const root = (): string => (go as Corpus).root;
  const agent = fieldAgent(root, 'go');

  it('run_build with errors planted in two packages lists exactly the errors `go build ./...` prints', async () => {
    const planted = [
      { file: 'go/ast/walk.go', old: 'func Inspect(node Node, f func(Node) bool) {\n', replacement: 'func Inspect(node Node, f func(Node) bool) {\n\tvar fieldPlanted int = "not an int"\n' },
      { file: 'encoding/json/stream.go', old: 'func (enc *Encoder) Encode(v any) error {\n', replacement: 'func (enc *Encoder) Encode(v any) error {\n\tfieldUndefined()\n' },
    ];
    const originals = planted.map((p) => ({ file: p.file, text: plant(root(), p.file, p.old, p.replacement) }));
    try {
      const r = spawnSync('go', ['build', './...'], { cwd: root(), encoding: 'utf8' });
      const truth = [...`${r.stdout}\n${r.stderr}`.matchAll(/^(?:\.\/)?([\w/]+\.go):(\d+):(\d+): /gm)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
      expect(new Set(truth.map((k) => k.split(':')[0])).size, 'go build finds errors in both packages').toBe(2);
      const data = ok(await agent().call('run_build', { workspace_dir: root(), language: 'go' }));
      const ours = ((data['failures'] as Failure[] | undefined) ?? []).map((f) => `${f.file ?? ''}:${f.line ?? ''}:${f.column ?? ''}`);
      judge({ tool: 'run_build', corpus: 'go-std', case: 'errors planted in go/ast and encoding/json', ...compareSets(ours, truth, data['total_failures'] === ours.length) });
      expect(data['passed']).toBe(false);
    } finally {
      for (const o of originals) writeFileSync(join(root(), o.file), o.text);
    }
  });
});
