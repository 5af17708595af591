#!/usr/bin/env node
// The project's one test command (`pnpm test`): type-check, lint, then every vitest test against
// the real language servers. Ends with `tests: N passed, N failed`; a failed static check counts
// as one failed test, so a red lint is a red run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
const run = (label, cmd, args) => {
  process.stderr.write(`\n== ${label}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  return r.status === 0;
};

let staticFailures = 0;
if (!run('build', bin('tsc'), ['-b'])) staticFailures++;
// The bundled front bin/agent-lsp runs (it falls back to the packages when the bundle is stale).
if (!run('bundle', process.execPath, ['scripts/bundle.mjs'])) staticFailures++;
if (!run('type-check tests', bin('tsc'), ['-p', 'tsconfig.eslint.json'])) staticFailures++;
if (!run('lint', bin('eslint'), ['.'])) staticFailures++;

const out = mkdtempSync(join(tmpdir(), 'agent-lsp-vitest-'));
const results = join(out, 'results.json');
const extra = process.argv.slice(2);
run('tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...extra]);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(readFileSync(results, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  // A test file that failed without a failing test (it did not load) counts as one failure.
  for (const file of json.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) failed++;
  }
  skipped = json.numPendingTests + (json.numTodoTests ?? 0);
} catch {
  failed += 1; // vitest did not even report
}
rmSync(out, { recursive: true, force: true });
failed += staticFailures;
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
