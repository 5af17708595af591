// Real code nobody here wrote: the Python standard library of this machine's python3 (alone, or
// with third-party packages for the large-workspace figures) and the TypeScript sources that the
// `effect` npm package ships. Each is copied to a temp dir.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToUri, resolvePositionPattern, toLspPosition } from '@agent-lsp/protocol';

const require = createRequire(import.meta.url);

function countFiles(dir, ext) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name.endsWith(ext)) n++;
  return n;
}

/** Waits until `conn` is ready, opens the corpus's query file in it, and finds the query position. */
export async function openQueryTarget(conn, corpus) {
  await conn.readiness.waitReady({ timeoutMs: 900_000 });
  const path = join(corpus.root, corpus.file);
  const text = readFileSync(path, 'utf8');
  const uri = pathToUri(path);
  conn.documents.sync(uri, corpus.language, text);
  return { uri, position: toLspPosition(text, resolvePositionPattern(text, corpus.pattern, corpus.file)) };
}

/**
 * The python3 whose standard library the Python corpora copy: AGENT_LSP_BENCH_PYTHON where set,
 * else, of the python3 programs on PATH, the one with the most stdlib files (Debian's leaves its
 * test package out: os.path.join had 387 references there against 1,723 in pyenv's), so a run
 * under pnpm (another PATH order) measures the same corpus as one from the shell.
 */
function benchPython() {
  const chosen = process.env.AGENT_LSP_BENCH_PYTHON;
  if (chosen) return chosen;
  const onPath = [...new Set((process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => join(dir, 'python3')).filter((p) => existsSync(p)))];
  let best = { python: 'python3', files: -1 };
  for (const python of onPath) {
    try {
      const files = countFiles(pythonPath(python, 'stdlib'), '.py');
      if (files > best.files) best = { python, files };
    } catch {
      // Not a working interpreter: the next one.
    }
  }
  return best.python;
}

function pythonPath(python, key) {
  return execFileSync(python, ['-c', `import sysconfig; print(sysconfig.get_paths()['${key}'])`], { encoding: 'utf8' }).trim();
}

function stdlibDir() {
  return pythonPath(benchPython(), 'stdlib');
}

function copyStdlib(stdlib, root) {
  cpSync(stdlib, root, {
    recursive: true,
    filter: (src) => !/(site-packages|__pycache__|\/idlelib\/|\/tkinter\/|\/turtledemo\/)/.test(src) && !src.endsWith('.pyc'),
  });
}

/** The query every Python corpus answers: stdlib imports resolve to typeshed's stubs, so os.path.join's references span the whole corpus. */
const PYTHON_QUERY = { file: 'shutil.py', pattern: 'srcname = os.path.@@join(src, srcentry.name)' };

export function pythonStdlib(tmp, dir = 'stdlib') {
  const stdlib = stdlibDir();
  const root = join(tmp, dir);
  copyStdlib(stdlib, root);
  return {
    name: `Python standard library (${stdlib})`,
    label: 'Python standard library',
    language: 'python',
    root,
    files: countFiles(root, '.py'),
    previewFile: 'json/encoder.py',
    comment: '#',
    ...PYTHON_QUERY,
  };
}

const DEBIAN_DIST_PACKAGES = '/usr/lib/python3/dist-packages';

/**
 * Django 3.2 from Debian's python3-django with the packages it imports, laid out as a project root
 * (as test/field/corpora.ts lays it out), or `{ notRun }`. Query: every use of django.urls.reverse.
 */
export function djangoSources(tmp) {
  const root = join(tmp, 'django');
  for (const pkg of ['django', 'asgiref', 'sqlparse']) {
    const from = join(DEBIAN_DIST_PACKAGES, pkg);
    if (!existsSync(from)) return { notRun: `${pkg} is not installed (apt-get install python3-django)` };
    cpSync(from, join(root, pkg), { recursive: true, filter: (src) => !src.includes('__pycache__') && !src.endsWith('.pyc') });
  }
  return { name: "Django 3.2 (Debian's python3-django)", label: 'Django', language: 'python', root, files: countFiles(root, '.py'), file: 'django/urls/base.py', pattern: 'def @@reverse(viewname' };
}
/** Django first, then its dependencies (Debian's python3-django), then the rest by size. */
const DJANGO_FIRST = ['django', 'asgiref', 'sqlparse', 'pytz'];
/** Pure-Python packages of python3's own site-packages, for when dist-packages is not enough. */
const SITE_PACKAGES_EXTRA = ['networkx', 'IPython', 'docutils', 'sympy'];

/** Top-level Python packages and modules of a site directory (no metadata, no extensions). */
function pythonEntries(dir) {
  const entries = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && !/(^__pycache__$|\.(dist|egg)-info$|^\.)/.test(e.name)) {
      const files = countFiles(join(dir, e.name), '.py');
      if (files > 0) entries.push({ dir, name: e.name, files });
    } else if (e.isFile() && e.name.endsWith('.py')) entries.push({ dir, name: e.name, files: 1 });
  }
  return entries;
}

function sitePackagesDir() {
  return pythonPath(benchPython(), 'purelib');
}

/**
 * Grows a copy of the stdlib (`pythonStdlib(tmp, dir)`) in place with third-party sources until it
 * has at least `multiple` × `stdlibFiles` Python files: Django from Debian's python3-django and its
 * dependencies, the rest of dist-packages (largest first), then pure-Python packages of python3's
 * site-packages. Whole packages, so the count overshoots. Call with growing multiples.
 */
export function growPythonCorpus(corpus, stdlibFiles, multiple) {
  const root = corpus.root;
  const debian = existsSync(DEBIAN_DIST_PACKAGES) ? pythonEntries(DEBIAN_DIST_PACKAGES) : [];
  const rank = (e) => (DJANGO_FIRST.includes(e.name) ? DJANGO_FIRST.indexOf(e.name) - 1e9 : -e.files);
  const site = sitePackagesDir();
  const extra = existsSync(site) ? pythonEntries(site).filter((e) => SITE_PACKAGES_EXTRA.includes(e.name)) : [];
  extra.sort((a, b) => SITE_PACKAGES_EXTRA.indexOf(a.name) - SITE_PACKAGES_EXTRA.indexOf(b.name));
  let files = corpus.files;
  const added = [...(corpus.added ?? [])];
  for (const e of [...debian.sort((a, b) => rank(a) - rank(b)), ...extra]) {
    if (files >= stdlibFiles * multiple) break;
    if (existsSync(join(root, e.name))) continue; // the stdlib's own, or a package already taken from dist-packages
    cpSync(join(e.dir, e.name), join(root, e.name), { recursive: true, filter: (src) => !/__pycache__/.test(src) && !src.endsWith('.pyc') });
    files += e.files;
    added.push(e);
  }
  if (files < stdlibFiles * multiple) throw new Error(`only ${files} Python files for ${multiple}× the stdlib's ${stdlibFiles}: install python3-django (Debian) or more packages`);
  const fromDebian = added.filter((e) => e.dir === DEBIAN_DIST_PACKAGES);
  const fromSite = added.filter((e) => e.dir !== DEBIAN_DIST_PACKAGES);
  const names = (list) => list.map((e) => e.name).join(', ');
  return {
    ...corpus,
    name: `stdlib + ${added.length} packages`,
    label: `Python ${multiple}× (stdlib + ${added.length} packages)`,
    sources: `${DEBIAN_DIST_PACKAGES}: ${names(fromDebian) || 'none'}${fromSite.length ? `; ${site}: ${names(fromSite)}` : ''}`,
    added,
    files: countFiles(root, '.py'),
  };
}

export function effectSources(tmp) {
  const pkg = dirname(require.resolve('effect/package.json'));
  const version = require('effect/package.json').version;
  const root = join(tmp, 'effect');
  mkdirSync(root, { recursive: true });
  cpSync(join(pkg, 'src'), join(root, 'src'), { recursive: true });
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, types: [] }, include: ['src'] }, null, 2),
  );
  return {
    name: `effect ${version} src/ (npm package)`,
    label: `effect ${version} src/`,
    language: 'typescript',
    root,
    files: countFiles(join(root, 'src'), '.ts'),
    previewFile: 'src/Duration.ts',
    comment: '//',
    file: 'src/Function.ts',
    pattern: 'export const @@dual',
  };
}

/** The bundled example's Python project (examples/workspace/py, four files), copied: every use of compute_total. */
export function smallPythonProject(tmp) {
  const root = join(tmp, 'small-py');
  cpSync(fileURLToPath(new URL('../../examples/workspace/py', import.meta.url)), root, { recursive: true });
  return { name: 'a small project (examples/workspace/py)', label: 'small project', language: 'python', root, files: countFiles(root, '.py'), file: 'shop/pricing.py', pattern: 'def @@compute_total(' };
}
