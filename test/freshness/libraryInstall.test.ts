// A package installed into the project's virtualenv (`pip install` while the agent works) changes
// what its imports resolve to. pyright hears of it only through watched-file events for its
// interpreter's site-packages, which lies in .venv (a directory the workspace watcher skips), and
// applies it five seconds later; before, the import stayed "could not be resolved" — a settled
// error for a package that is there. A virtualenv created once the server runs is another
// interpreter: the server started with the old one kept answering from it (restart_lsp_server
// too, in daemon mode). The next query must describe the environment as it is.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

const UNRESOLVED = 'Import "fancylib" could not be resolved';

/** A project with a file importing a package it does not have yet. */
function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-venv-')));
  scope.dirs.push(root);
  writeFileSync(join(root, 'main.py'), 'import fancylib\n\nprint(fancylib.VALUE + 1)\n');
  return root;
}

/** A virtualenv in the root (no pip: nothing is fetched); its site-packages. */
function createVenv(root: string): string {
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(root, '.venv')], { stdio: 'ignore' });
  const lib = join(root, '.venv', 'lib');
  const version = readdirSync(lib).find((name) => name.startsWith('python'));
  if (!version) throw new Error(`no python* directory in ${lib}`);
  return join(lib, version, 'site-packages');
}

/** As pip leaves it: the package and its metadata. */
function install(sitePackages: string): () => void {
  const pkg = join(sitePackages, 'fancylib');
  const meta = join(sitePackages, 'fancylib-1.0.dist-info');
  mkdirSync(pkg);
  writeFileSync(join(pkg, '__init__.py'), 'VALUE: int = 3\n');
  mkdirSync(meta);
  writeFileSync(join(meta, 'METADATA'), 'Metadata-Version: 2.1\nName: fancylib\nVersion: 1.0\n');
  return () => [pkg, meta].forEach((d) => rmSync(d, { recursive: true }));
}

async function pythonFront(root: string, mode: string): Promise<() => Promise<string[]>> {
  // The root's virtualenv, not one the test runs in.
  const front = await scope.front(scope.home(), ['--daemon', mode], { env: { VIRTUAL_ENV: '' } });
  ok(await front.call('start_lsp', { root_dir: root, language_id: 'python' }));
  return async () => {
    const data = ok(await front.call('get_diagnostics', { file_path: 'main.py' }));
    return (data['diagnostics'] as { severity: string; message: string }[]).filter((d) => d.severity === 'error').map((d) => d.message);
  };
}

for (const mode of ['always', 'never'] as const) {
  describe(`a package installed into the project's virtualenv while the agent works (--daemon ${mode})`, () => {
    it('the import resolves at the next query, and is unresolved again once the package is removed', async () => {
      const root = project();
      const sitePackages = createVenv(root);
      const errors = await pythonFront(root, mode);
      expect(await errors()).toEqual([UNRESOLVED]);
      // No pause before the query.
      const uninstall = install(sitePackages);
      expect(await errors()).toEqual([]);
      uninstall();
      expect(await errors()).toEqual([UNRESOLVED]);
    });

    it('a virtualenv created once the server runs is the one the next query uses', async () => {
      const root = project();
      const errors = await pythonFront(root, mode);
      expect(await errors()).toEqual([UNRESOLVED]);
      install(createVenv(root));
      expect(await errors()).toEqual([]);
    });
  });
}

const TS_UNRESOLVED = "Cannot find module 'fancylib' or its corresponding type declarations.";

/** A TypeScript project whose node_modules (made unless `withNodeModules` is false) lacks the package main.ts imports. */
function tsProject(withNodeModules = true): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-node-modules-')));
  scope.dirs.push(root);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2020' } }));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0' }));
  writeFileSync(join(root, 'main.ts'), 'import { VALUE } from "fancylib";\n\nexport const x: number = VALUE + 1;\n');
  if (withNodeModules) mkdirSync(join(root, 'node_modules'));
  return root;
}

/** As npm leaves it: the package, and its lockfile in node_modules. */
function npmInstall(root: string): string {
  const pkg = join(root, 'node_modules', 'fancylib');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'fancylib', version: '1.0.0', types: 'index.d.ts', main: 'index.js' }));
  writeFileSync(join(pkg, 'index.d.ts'), 'export declare const VALUE: number;\n');
  writeFileSync(join(pkg, 'index.js'), 'exports.VALUE = 3;\n');
  writeFileSync(join(root, 'node_modules', '.package-lock.json'), JSON.stringify({ name: 'p', lockfileVersion: 3, packages: { 'node_modules/fancylib': { version: '1.0.0' } } }));
  return pkg;
}

async function tsFront(root: string, mode: string): Promise<() => Promise<string[]>> {
  const front = await scope.front(scope.home(), ['--daemon', mode]);
  ok(await front.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  return async () => {
    const data = ok(await front.call('get_diagnostics', { file_path: 'main.ts' }));
    return (data['diagnostics'] as { severity: string; message: string }[]).filter((d) => d.severity === 'error').map((d) => d.message);
  };
}

for (const mode of ['always', 'never'] as const) {
  describe(`a package installed into node_modules while the agent works (--daemon ${mode})`, () => {
    it('the import resolves at the next query, and is unresolved again once the package is removed', async () => {
      const root = tsProject();
      const errors = await tsFront(root, mode);
      expect(await errors()).toEqual([TS_UNRESOLVED]);
      // No pause before the query.
      const pkg = npmInstall(root);
      expect(await errors()).toEqual([]);
      rmSync(pkg, { recursive: true });
      writeFileSync(join(root, 'node_modules', '.package-lock.json'), JSON.stringify({ name: 'p', lockfileVersion: 3, packages: {} }));
      expect(await errors()).toEqual([TS_UNRESOLVED]);
    });

    it('the first install, which makes node_modules, is followed too', async () => {
      const root = tsProject(false);
      const errors = await tsFront(root, mode);
      expect(await errors()).toEqual([TS_UNRESOLVED]);
      npmInstall(root);
      expect(await errors()).toEqual([]);
    });
  });
}
