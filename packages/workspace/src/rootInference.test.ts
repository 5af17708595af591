import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inferRoot } from './rootInference.js';

/** A scratch tree with no VCS marker anywhere above it (tmpdir), and a home outside it. */
let scratch: string;
const HOME = { home: '/nonexistent-home-of-agent-lsp-tests' };
const PYTHON_MARKERS = ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg', 'requirements.txt'];
const TS_MARKERS = ['tsconfig.json', 'jsconfig.json', 'package.json'];

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-roots-')));
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function file(rel: string, content = ''): string {
  const path = join(scratch, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe('inferRoot: Python', () => {
  it('walks up through the package chain to the directory above the outermost package', () => {
    file('proj/pkg/__init__.py');
    file('proj/pkg/utils/__init__.py');
    const funcs = file('proj/pkg/utils/funcs.py', 'def helper(): pass\n');
    expect(inferRoot(funcs, PYTHON_MARKERS, HOME)).toBe(join(scratch, 'proj'));
  });

  it('takes the nearest project file above the outermost package, not a marker inside it', () => {
    file('repo/setup.py');
    file('repo/src/django/__init__.py');
    file('repo/src/django/utils/__init__.py');
    file('repo/src/django/utils/requirements.txt');
    const mod = file('repo/src/django/utils/functional.py');
    expect(inferRoot(mod, PYTHON_MARKERS, HOME)).toBe(join(scratch, 'repo'));
  });

  it('takes pyproject.toml above a plain script directory', () => {
    file('proj/pyproject.toml');
    const script = file('proj/scripts/run.py');
    expect(inferRoot(script, PYTHON_MARKERS, HOME)).toBe(join(scratch, 'proj'));
  });

  it('stays at the file directory when nothing marks a project', () => {
    const lone = file('loose/notes.py');
    expect(inferRoot(lone, PYTHON_MARKERS, HOME)).toBe(join(scratch, 'loose'));
  });
});

describe('inferRoot: JS/TS', () => {
  it('takes the workspace root above a package (package.json workspaces)', () => {
    file('mono/package.json', JSON.stringify({ private: true, workspaces: ['packages/*'] }));
    file('mono/packages/a/package.json', JSON.stringify({ name: 'a' }));
    file('mono/packages/a/tsconfig.json', '{}');
    const src = file('mono/packages/a/src/index.ts');
    expect(inferRoot(src, TS_MARKERS, HOME)).toBe(join(scratch, 'mono'));
  });

  it('takes a pnpm or lerna workspace root', () => {
    file('pnpm/pnpm-workspace.yaml', 'packages:\n  - "packages/*"\n');
    file('pnpm/packages/b/package.json', '{}');
    expect(inferRoot(file('pnpm/packages/b/lib/b.js'), TS_MARKERS, HOME)).toBe(join(scratch, 'pnpm'));
    file('lerna/lerna.json', '{}');
    file('lerna/packages/c/package.json', '{}');
    expect(inferRoot(file('lerna/packages/c/c.ts'), TS_MARKERS, HOME)).toBe(join(scratch, 'lerna'));
  });

  it('takes the outermost package, in a workspace or not', () => {
    file('outer/package.json', JSON.stringify({ name: 'outer' }));
    file('outer/vendor/lib/package.json', '{}');
    file('outer/vendor/lib/tsconfig.json', '{}');
    // The outer package.json is a project too: the outermost project wins.
    expect(inferRoot(file('outer/vendor/lib/src/x.ts'), TS_MARKERS, HOME)).toBe(join(scratch, 'outer'));
    file('solo/package.json', '{}');
    expect(inferRoot(file('solo/src/deep/y.ts'), TS_MARKERS, HOME)).toBe(join(scratch, 'solo'));
  });
});

describe('inferRoot: Go and Cargo', () => {
  it('prefers go.work above a module', () => {
    file('gows/go.work', 'go 1.22\nuse ./svc\n');
    file('gows/svc/go.mod', 'module example.com/svc\n');
    expect(inferRoot(file('gows/svc/internal/h/h.go'), ['go.mod', 'go.work'], HOME)).toBe(join(scratch, 'gows'));
    file('gomod/go.mod', 'module example.com/m\n');
    expect(inferRoot(file('gomod/pkg/a/a.go'), ['go.mod', 'go.work'], HOME)).toBe(join(scratch, 'gomod'));
  });

  it('prefers a Cargo workspace above a crate', () => {
    file('cargo/Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
    file('cargo/crates/core/Cargo.toml', '[package]\nname = "core"\n');
    expect(inferRoot(file('cargo/crates/core/src/lib.rs'), ['Cargo.toml'], HOME)).toBe(join(scratch, 'cargo'));
  });
});

describe('inferRoot: bounds', () => {
  it('stops at a VCS root even when a project lies above it', () => {
    file('outer/pyproject.toml');
    mkdirSync(join(scratch, 'outer/repo/.git'), { recursive: true });
    file('outer/repo/pkg/__init__.py');
    expect(inferRoot(file('outer/repo/pkg/m.py'), PYTHON_MARKERS, HOME)).toBe(join(scratch, 'outer/repo'));
  });

  it('never reaches the home directory, even when it holds markers', () => {
    const home = join(scratch, 'home');
    file('home/package.json', '{}');
    mkdirSync(join(home, '.git'));
    file('home/code/app/pkg/__init__.py');
    expect(inferRoot(file('home/code/app/pkg/m.py'), PYTHON_MARKERS, { home })).toBe(join(home, 'code/app'));
  });
});
