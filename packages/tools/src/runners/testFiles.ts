import { basename, extname, sep } from 'node:path';
import { walkSourceTreeAsync } from '@agent-lsp/lsp';

const JS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const C_EXTENSIONS = ['.c', '.cc', '.cpp', '.cxx'];
/** Bounds the walk for naming matches on huge trees. */
const MAX_ENTRIES = 50_000;

/** Whether `candidate` is, by the naming conventions, a test of `source` (same stem). */
export function testsByName(source: string, candidate: string): boolean {
  if (candidate === source) return false;
  const ext = extname(source);
  const stem = basename(source, ext);
  const name = basename(candidate);
  const cext = extname(name);
  const cstem = name.slice(0, name.length - cext.length);
  if (ext === '.py') return cext === '.py' && (cstem === `test_${stem}` || cstem === `${stem}_test`);
  if (ext === '.go') return name === `${stem}_test.go` && candidate.slice(0, -name.length) === source.slice(0, -basename(source).length);
  if (JS_EXTENSIONS.includes(ext)) {
    if (!JS_EXTENSIONS.includes(cext)) return false;
    if (cstem === `${stem}.test` || cstem === `${stem}.spec`) return true;
    return candidate.split(sep).includes('__tests__') && cstem.replace(/\.(test|spec)$/, '') === stem;
  }
  if (C_EXTENSIONS.includes(ext) || ext === '.h' || ext === '.hpp') {
    return C_EXTENSIONS.includes(cext) && (cstem === `test_${stem}` || cstem === `${stem}_test` || cstem === `${stem}_unittest`);
  }
  return false;
}

/** The files under `root` that test `source` by the naming conventions (vendored directories skipped). */
export async function testsByNaming(source: string, root: string): Promise<{ files: string[]; complete: boolean }> {
  const files: string[] = [];
  let seen = 0;
  for await (const path of walkSourceTreeAsync(root, { maxEntries: MAX_ENTRIES })) {
    seen++;
    if (testsByName(source, path)) files.push(path);
  }
  return { files, complete: seen < MAX_ENTRIES };
}
