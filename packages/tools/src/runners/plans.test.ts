import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findExecutable } from '@agent-lsp/lsp';
import { findProject, languageOfDirectory, normalizeLanguage } from './detection.js';
import { planRun, type RunRequest } from './plans.js';

const roots: string[] = [];
function project(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-plans-')));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function request(root: string, overrides: Partial<RunRequest>): RunRequest {
  return { kind: 'test', language: 'typescript', dir: root, root, config: {}, signal: new AbortController().signal, ...overrides };
}

describe('runner detection', () => {
  it('finds the nearest project of the language, and the language from markers', () => {
    const root = project({ 'web/package.json': '{}', 'web/src/a.ts': '', 'svc/go.mod': 'module x\n', 'svc/pkg/a.go': '' });
    expect(findProject(join(root, 'web', 'src'), root, undefined)).toEqual({ dir: join(root, 'web'), language: 'typescript' });
    expect(findProject(join(root, 'svc', 'pkg'), root, 'go')).toEqual({ dir: join(root, 'svc'), language: 'go' });
    expect(() => languageOfDirectory(project({ 'notes.txt': '' }))).toThrow(/pass language/);
    expect(normalizeLanguage('JavaScript')).toBe('typescript');
    expect(() => normalizeLanguage('cobol')).toThrow(/has no build\/test runner/);
  });

  it('runs package.json scripts through the package manager the lockfile names, npm with -- before arguments', async () => {
    const scripts = JSON.stringify({ scripts: { test: 'vitest run', build: 'tsc -b' } });
    const npm = await planRun(request(project({ 'package.json': scripts }), { testName: 'adds' }));
    expect(npm.runner).toBe('npm run test');
    expect(npm.argv.slice(1)).toEqual(['run', 'test', '--', '-t', 'adds']);
    const root = project({ 'package.json': scripts, 'pnpm-lock.yaml': '', 'src/a.test.ts': '' });
    const pnpm = planRun(request(root, { target: join(root, 'src', 'a.test.ts') }));
    if (!findExecutable('pnpm')) {
      await expect(pnpm).rejects.toThrow(/pnpm is not installed/);
      return;
    }
    expect((await pnpm).runner).toBe('pnpm run test');
    expect((await pnpm).argv.slice(1)).toEqual(['run', 'test', 'src/a.test.ts']);
  });

  it('gives a configured Python command the same no-bytecode environment as a detected one', async () => {
    const root = project({ 'tests/test_a.py': '' });
    const config = { python: { test: ['sh', '-c', 'true'] } };
    const configured = await planRun(request(root, { language: 'python', config }));
    expect(configured.runner).toBe('configured');
    expect(configured.env).toMatchObject({ PYTHONDONTWRITEBYTECODE: '1', PYTHONPYCACHEPREFIX: expect.any(String) });
    expect((await planRun(request(root, { language: 'typescript', config: { typescript: { test: ['sh', '-c', 'true'] } } }))).env).toEqual({});
  });

  it('says which package manager is missing and how to install it', async () => {
    const root = project({ 'package.json': JSON.stringify({ scripts: { test: 'jest' } }), 'yarn.lock': '' });
    const path = process.env['PATH'];
    process.env['PATH'] = '';
    try {
      await expect(planRun(request(root, {}))).rejects.toThrow(/yarn is not installed \(not found on PATH\)\. Install it with `npm install -g yarn` or `corepack enable`/);
      await expect(planRun(request(root, { language: 'go' }))).rejects.toThrow(/go is not installed \(not found on PATH\)\. Install Go \(https:\/\/go\.dev\/dl\/, or apt-get install golang-go\)/);
    } finally {
      process.env['PATH'] = path;
    }
  });

  it('type-checks with tsc when there is no build script, and refuses tests without a test script', async () => {
    const root = project({ 'tsconfig.json': '{}', 'package.json': JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) });
    const build = await planRun(request(root, { kind: 'build' }));
    expect(build.runner).toBe('tsc');
    expect(build.argv.slice(-5)).toEqual(['--noEmit', '--pretty', 'false', '-p', root]);
    await expect(planRun(request(root, {}))).rejects.toThrow(/has no test script/);
  });

  it.runIf(findExecutable('go'))(`go test -run for test_name, the package of a file target, and the module for resolving files${findExecutable('go') ? '' : ' (go NOT INSTALLED — did not run)'}`, async () => {
    const root = project({ 'go.mod': 'module example.com/m\n\ngo 1.19\n', 'pkg/a.go': '' });
    const plan = await planRun(request(root, { language: 'go', target: join(root, 'pkg', 'a.go'), testName: 'TestA' }));
    expect(plan.argv.slice(1)).toEqual(['test', './pkg', '-run', 'TestA']);
    expect(plan.goModule).toEqual({ path: 'example.com/m', dir: root });
  });

  it('C/C++: a configured CMake build directory, else make, else says to configure', async () => {
    const cmake = project({ 'CMakeLists.txt': '', 'build/CMakeCache.txt': '' });
    if (findExecutable('cmake')) expect((await planRun(request(cmake, { language: 'cpp', kind: 'build' }))).argv.slice(1)).toEqual(['--build', join(cmake, 'build')]);
    if (findExecutable('make')) expect((await planRun(request(project({ Makefile: '' }), { language: 'cpp' }))).argv.slice(1)).toEqual(['test']);
    await expect(planRun(request(project({ 'CMakeLists.txt': '' }), { language: 'cpp', kind: 'build' }))).rejects.toThrow(/no configured build directory: configure it once \(cmake -S \. -B build\)/);
  });

  it('a configured command replaces detection; test_name needs its flag', async () => {
    const root = project({ 'go.mod': 'module x\n' });
    const config = { go: { test: ['sh', '-c', 'exit 0'], test_name_flag: '-run' } };
    expect((await planRun(request(root, { language: 'go', config, testName: 'T' }))).argv.slice(1)).toEqual(['-c', 'exit 0', '-run', 'T']);
    await expect(planRun(request(root, { language: 'go', config: { go: { test: ['sh'] } }, testName: 'T' }))).rejects.toThrow(/has no test_name_flag/);
  });
});
