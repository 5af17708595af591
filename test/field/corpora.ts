// Real code nobody here wrote, for the field tests (DESIGN.md, Field tests): each corpus is a
// private temporary copy (a test may edit it) of sources this machine got from a registry —
// Django 3.2 from Debian's python3-django, rxjs 7.8.2 and the sqlite amalgamation (in
// better-sqlite3) from npm, packages of Go's own standard library, the regex-syntax crate
// from crates.io, libgit2 (vendored in the libgit2-sys crate) from crates.io, and VitePress's
// default theme (Vue single-file components) from npm, and modules of the Python standard library
// with their own tests (from the interpreter's test package). A corpus that cannot be had
// here is `{ notRun }` with the reason, so its tests say they did not run instead of passing.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { copyRegexSyntax, REGEX_SYNTAX_VERSION } from './crateCorpus.js';
import { copyLibgit2, LIBGIT2_SYS_VERSION } from './libgit2Corpus.js';
import { copySqlite } from './sqliteCorpus.mjs';
import { copyVitepress, VITEPRESS_VERSION } from './vueCorpus.js';

export type CorpusName = 'django' | 'rxjs' | 'go-std' | 'sqlite' | 'regex-syntax' | 'vitepress' | 'libgit2' | 'py-stdlib';

export interface Corpus {
  readonly name: CorpusName;
  /** What it is, for test titles and docs/field.md. */
  readonly label: string;
  /** The language id the tools take for it. */
  readonly language: 'python' | 'typescript' | 'go' | 'c' | 'rust' | 'vue';
  /** The private copy's root (a realpath): the workspace root to start servers on. */
  readonly root: string;
  /** Removes the copy. */
  dispose(): void;
}

export interface NotRun {
  readonly notRun: string;
}

export function isNotRun(corpus: Corpus | NotRun): corpus is NotRun {
  return 'notRun' in corpus;
}

const require = createRequire(import.meta.url);

/** Debian's python3-django, with the packages it imports, laid out as a project root. */
const DEBIAN_DIST_PACKAGES = '/usr/lib/python3/dist-packages';
const DJANGO_PACKAGES = ['django', 'asgiref', 'sqlparse'];

/**
 * The Go packages copied (no tests, no testdata), as a module `fieldstd` whose imports of each
 * other are rewritten to the copies, so an edit to go/ast reaches go/printer and go/parser.
 */
export const GO_STD_PACKAGES = [
  'go/ast',
  'go/token',
  'go/scanner',
  'go/parser',
  'go/printer',
  'go/internal/scannerhooks',
  'go/doc/comment',
  'go/build/constraint',
  'encoding/json',
] as const;
export const GO_STD_MODULE = 'fieldstd';

/** A private copy of a corpus, or why it cannot be had on this machine. */
export function prepareCorpus(name: CorpusName): Corpus | NotRun {
  const made = mkdtempSync(join(tmpdir(), `agent-lsp-field-${name}-`));
  const root = join(made, name);
  mkdirSync(root);
  const dispose = (): void => rmSync(made, { recursive: true, force: true });
  try {
    const why = copyInto(name, root);
    if (why !== undefined) {
      dispose();
      return { notRun: why };
    }
  } catch (error) {
    dispose();
    throw error;
  }
  const real = execFileSync('realpath', [root], { encoding: 'utf8' }).trim();
  return { name, label: LABELS[name], language: LANGUAGES[name], root: real, dispose };
}

/** The standard-library modules of the py-stdlib corpus: each has its own test module in the interpreter's test package. */
export const PY_STDLIB_MODULES = ['textwrap', 'shlex', 'fnmatch', 'difflib'] as const;
/** The package holding their copies. */
export const PY_STDLIB_PACKAGE = 'fieldstd';

const LABELS: Record<CorpusName, string> = {
  django: "Django 3.2 (Debian's python3-django)",
  rxjs: 'rxjs 7.8.2 sources (npm)',
  'go-std': `Go ${goVersion() ?? ''} standard library: ${GO_STD_PACKAGES.join(', ')}`,
  sqlite: 'the sqlite amalgamation (npm better-sqlite3 12)',
  'regex-syntax': `the regex-syntax ${REGEX_SYNTAX_VERSION} crate (crates.io)`,
  vitepress: `VitePress ${VITEPRESS_VERSION}'s default theme (npm): Vue single-file components`,
  libgit2: `libgit2 1.9 as the libgit2-sys ${LIBGIT2_SYS_VERSION} crate vendors it (crates.io): 178 sources, 255 headers, no compile_commands.json`,
  'py-stdlib': `Python's standard library: ${PY_STDLIB_MODULES.join(', ')} (as package ${PY_STDLIB_PACKAGE}) and their tests (test/test_*.py, test/support)`,
};
const LANGUAGES: Record<CorpusName, Corpus['language']> = { django: 'python', rxjs: 'typescript', 'go-std': 'go', sqlite: 'c', 'regex-syntax': 'rust', vitepress: 'vue', libgit2: 'c', 'py-stdlib': 'python' };

/** Copies the corpus into `root`; returns why it cannot, when it cannot. */
function copyInto(name: CorpusName, root: string): string | undefined {
  switch (name) {
    case 'django':
      return copyDjango(root);
    case 'rxjs':
      return copyRxjs(root);
    case 'go-std':
      return copyGoStd(root);
    case 'sqlite':
      return copySqlite(root);
    case 'regex-syntax':
      return copyRegexSyntax(root);
    case 'vitepress':
      return copyVitepress(root);
    case 'libgit2':
      return copyLibgit2(root);
    case 'py-stdlib':
      return copyPyStdlib(root);
  }
}

function copyDjango(root: string): string | undefined {
  if (!existsSync(join(DEBIAN_DIST_PACKAGES, 'django'))) return 'Django is not installed (apt-get install python3-django)';
  for (const pkg of DJANGO_PACKAGES) {
    const from = join(DEBIAN_DIST_PACKAGES, pkg);
    if (!existsSync(from)) return `${pkg} is not installed (apt-get install python3-django brings it)`;
    cpSync(from, join(root, pkg), { recursive: true, filter: (src) => !src.includes('__pycache__') && !src.endsWith('.pyc') });
  }
  return undefined;
}

function copyRxjs(root: string): string | undefined {
  let src: string;
  try {
    src = join(dirname(require.resolve('rxjs/package.json')), 'src');
  } catch {
    return 'rxjs is not installed (pnpm install brings it as a devDependency)';
  }
  // Only the TypeScript sources and none of rxjs's own build configs, which extend files the
  // package does not ship; one tsconfig of ours instead, under which tsc finds no errors.
  cpSync(src, join(root, 'src'), { recursive: true, filter: (from) => !/tsconfig[^/]*\.json$/.test(from) && !from.endsWith('.js') });
  const tsconfig = {
    compilerOptions: {
      strict: true,
      target: 'es2017',
      module: 'esnext',
      moduleResolution: 'node',
      lib: ['es2018', 'dom'],
      noEmit: true,
      skipLibCheck: true,
      baseUrl: 'src',
      paths: { rxjs: ['./index.ts'], 'rxjs/*': ['./*'] },
    },
    include: ['src/**/*.ts'],
  };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2) + '\n');
  return undefined;
}

function goVersion(): string | undefined {
  try {
    return execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function copyGoStd(root: string): string | undefined {
  let goroot: string;
  try {
    goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
  } catch {
    return 'Go is not installed (the go command is needed for Go sources and gopls)';
  }
  const rewrite = (text: string): string =>
    text.replace(/"((?:go|encoding)\/[a-z/]+)"/g, (whole, path: string) =>
      (GO_STD_PACKAGES as readonly string[]).includes(path) ? `"${GO_STD_MODULE}/${path}"` : whole,
    );
  for (const pkg of GO_STD_PACKAGES) {
    const from = join(goroot, 'src', pkg);
    const to = join(root, pkg);
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.go') || entry.name.endsWith('_test.go')) continue;
      writeFileSync(join(to, entry.name), rewrite(readFileSync(join(from, entry.name), 'utf8')));
    }
  }
  const version = /^go(\d+\.\d+)/.exec(goVersion() ?? '')?.[1] ?? '1.22';
  writeFileSync(join(root, 'go.mod'), `module ${GO_STD_MODULE}\n\ngo ${version}\n`);
  return undefined;
}


/**
 * The modules in a package `fieldstd` (pyright resolves `import textwrap` to typeshed's stub of the
 * standard library before any copy in the workspace), and their tests, with the test package's
 * support modules, under test/ as CPython lays them out, their imports of the modules made imports
 * of the copies (as the go-std corpus rewrites its imports).
 */
function copyPyStdlib(root: string): string | undefined {
  // Debian's interpreter first: its test modules come with libpython3.X-testsuite (.ci/run).
  const stdlib = ['/usr/bin/python3', 'python3']
    .map((python) => {
      try {
        return execFileSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
      } catch {
        return undefined;
      }
    })
    .find((dir) => dir !== undefined && existsSync(join(dir, 'test', 'support')) && PY_STDLIB_MODULES.every((m) => existsSync(join(dir, 'test', `test_${m}.py`))));
  if (stdlib === undefined) return "no python3 here has CPython's tests of its standard library (Debian: apt-get install libpython3.11-testsuite)";
  const tests = join(stdlib, 'test');
  const modules = PY_STDLIB_MODULES.join('|');
  const rewrite = (text: string): string =>
    text.replace(new RegExp(`^(\\s*)import (${modules})\\b`, 'gm'), `$1from ${PY_STDLIB_PACKAGE} import $2`).replace(new RegExp(`^(\\s*)from (${modules}) import`, 'gm'), `$1from ${PY_STDLIB_PACKAGE}.$2 import`);
  mkdirSync(join(root, PY_STDLIB_PACKAGE));
  writeFileSync(join(root, PY_STDLIB_PACKAGE, '__init__.py'), '');
  cpSync(join(tests, 'support'), join(root, 'test', 'support'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  cpSync(join(tests, '__init__.py'), join(root, 'test', '__init__.py'));
  for (const module of PY_STDLIB_MODULES) {
    writeFileSync(join(root, PY_STDLIB_PACKAGE, `${module}.py`), rewrite(readFileSync(join(stdlib, `${module}.py`), 'utf8')));
    writeFileSync(join(root, 'test', `test_${module}.py`), rewrite(readFileSync(join(tests, `test_${module}.py`), 'utf8')));
  }
  return undefined;
}
