// A package installed into the project's virtualenv (`pip install` while the agent works) changes
// what its imports resolve to. pyright hears of it only through watched-file events for its
// interpreter's site-packages, which lies in .venv (a directory the workspace watcher skips), and
// applies it five seconds later; before, the import stayed "could not be resolved" — a settled
// error for a package that is there. The next query must describe the environment as it is.
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

/** A project with its own virtualenv (no pip: nothing is fetched) and a file importing a package it does not have yet. */
function projectWithVenv(): { root: string; sitePackages: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-venv-')));
  scope.dirs.push(root);
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(root, '.venv')], { stdio: 'ignore' });
  writeFileSync(join(root, 'main.py'), 'import fancylib\n\nprint(fancylib.VALUE + 1)\n');
  const lib = join(root, '.venv', 'lib');
  const version = readdirSync(lib).find((name) => name.startsWith('python'));
  if (!version) throw new Error(`no python* directory in ${lib}`);
  return { root, sitePackages: join(lib, version, 'site-packages') };
}

for (const mode of ['always', 'never'] as const) {
  describe(`a package installed into the project's virtualenv while the agent works (--daemon ${mode})`, () => {
    it("the import resolves at the next query, and is unresolved again once the package is removed", async () => {
      const { root, sitePackages } = projectWithVenv();
      const front = await scope.front(scope.home(), ['--daemon', mode]);
      ok(await front.call('start_lsp', { root_dir: root, language_id: 'python' }));
      const errors = async () => {
        const data = ok(await front.call('get_diagnostics', { file_path: 'main.py' }));
        return (data['diagnostics'] as { severity: string; message: string }[]).filter((d) => d.severity === 'error').map((d) => d.message);
      };
      expect(await errors()).toEqual([UNRESOLVED]);
      // As pip leaves it: the package and its metadata, no pause before the query.
      const pkg = join(sitePackages, 'fancylib');
      mkdirSync(pkg);
      writeFileSync(join(pkg, '__init__.py'), 'VALUE: int = 3\n');
      mkdirSync(join(sitePackages, 'fancylib-1.0.dist-info'));
      writeFileSync(join(sitePackages, 'fancylib-1.0.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: fancylib\nVersion: 1.0\n');
      expect(await errors()).toEqual([]);
      rmSync(pkg, { recursive: true });
      rmSync(join(sitePackages, 'fancylib-1.0.dist-info'), { recursive: true });
      expect(await errors()).toEqual([UNRESOLVED]);
    });
  });
}
