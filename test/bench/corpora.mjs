// Real code nobody here wrote: the Python standard library of this machine's python3 and the
// TypeScript sources that the `effect` npm package ships. Each is copied to a temp dir.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

export function pythonStdlib(tmp) {
  const stdlib = execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], { encoding: 'utf8' }).trim();
  const root = join(tmp, 'stdlib');
  cpSync(stdlib, root, {
    recursive: true,
    filter: (src) => !/(site-packages|__pycache__|\/idlelib\/|\/tkinter\/|\/turtledemo\/)/.test(src) && !src.endsWith('.pyc'),
  });
  return {
    name: `Python standard library (${stdlib})`,
    language: 'python',
    root,
    files: countFiles(root, '.py'),
    // stdlib imports resolve to typeshed's stubs: os.path.join's references span the whole library.
    previewFile: 'json/encoder.py',
    comment: '#',
    file: 'shutil.py',
    pattern: 'srcname = os.path.@@join(src, srcentry.name)',
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
    language: 'typescript',
    root,
    files: countFiles(join(root, 'src'), '.ts'),
    previewFile: 'src/Duration.ts',
    comment: '//',
    file: 'src/Function.ts',
    pattern: 'export const @@dual',
  };
}
