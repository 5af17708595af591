import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The house rules of packages/*\/src (issue 34): no file over 350 lines, and no import circle,
 * type imports included. Imports are read from the text (relative specifiers, `@agent-lsp/<pkg>`
 * and its subpaths), so the check needs no build and no dependency.
 */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = join(REPO, 'packages');
const MAX_LINES = 350;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const files = readdirSync(PACKAGES).flatMap((p) => {
  const src = join(PACKAGES, p, 'src');
  try {
    return statSync(src).isDirectory() ? sourceFiles(src) : [];
  } catch {
    return [];
  }
});
const known = new Set(files);

/** The package's subpath exports (`@agent-lsp/tools/daemonReport` → its source file). */
function packageTarget(pkg: string, subpath: string | undefined): string | undefined {
  if (subpath === undefined) return join(PACKAGES, pkg, 'src', 'index.ts');
  const manifest = JSON.parse(readFileSync(join(PACKAGES, pkg, 'package.json'), 'utf8')) as { exports?: Record<string, { default?: string }> };
  const target = manifest.exports?.[`./${subpath}`]?.default;
  return target ? join(PACKAGES, pkg, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) : undefined;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[2]!;
    let target: string | undefined;
    if (spec.startsWith('.')) target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    else {
      const pkg = /^@agent-lsp\/([^/]+)(?:\/(.+))?$/.exec(spec);
      if (pkg) target = packageTarget(pkg[1]!, pkg[2]);
    }
    if (target !== undefined && known.has(target)) out.push(target);
  }
  return out;
}

/** Every strongly connected group of more than one file, or a file importing itself. */
function circles(): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(relative(REPO, w));
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

describe('house rules of packages/*/src', () => {
  it('reads the sources (the check is not vacuous)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(importsOf(join(PACKAGES, 'tools', 'src', 'index.ts')).length).toBeGreaterThan(3);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((f) => ({ file: relative(REPO, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('has no import circle, type imports included', () => {
    expect(circles()).toEqual([]);
  });
});
