import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inNotIndexedDir, walkSourceTree, walkSourceTreeAsync } from './sourceTree.js';

describe('walkSourceTree', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-tree-'));
    for (const f of ['b.py', 'a.py', 'pkg/z.py', 'pkg/deep/y.py', 'node_modules/m/index.js', '.venv/lib/x.py', '__pycache__/c.pyc', 'target/t.rs', 'build/g.py', '.git/HEAD', 'builder/ok.py']) {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), '');
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('yields files nearest first, names sorted, skipping directories nobody indexes', () => {
    expect([...walkSourceTree(root)].map((p) => relative(root, p))).toEqual(['a.py', 'b.py', 'builder/ok.py', 'pkg/z.py', 'pkg/deep/y.py']);
    expect([...walkSourceTree(root, { maxDepth: 1 })].map((p) => relative(root, p))).toEqual(['a.py', 'b.py', 'builder/ok.py', 'pkg/z.py']);
  });

  it('sorts names by code unit, the same in every locale (capitals first)', async () => {
    writeFileSync(join(root, 'C.py'), '');
    writeFileSync(join(root, 'é.py'), '');
    const walked: string[] = [];
    for await (const p of walkSourceTreeAsync(root, { maxDepth: 0 })) walked.push(relative(root, p));
    expect(walked).toEqual(['C.py', 'a.py', 'b.py', 'é.py']);
    expect([...walkSourceTree(root, { maxDepth: 0 })].map((p) => relative(root, p))).toEqual(walked);
  });

  it('walks the same files in the same order without blocking', async () => {
    const walked = async (options?: { maxDepth?: number; maxEntries?: number }) => {
      const out: string[] = [];
      for await (const p of walkSourceTreeAsync(root, options)) out.push(relative(root, p));
      return out;
    };
    expect(await walked()).toEqual(['a.py', 'b.py', 'builder/ok.py', 'pkg/z.py', 'pkg/deep/y.py']);
    expect(await walked({ maxDepth: 1 })).toEqual([...walkSourceTree(root, { maxDepth: 1 })].map((p) => relative(root, p)));
    expect(await walked({ maxEntries: 4 })).toEqual([...walkSourceTree(root, { maxEntries: 4 })].map((p) => relative(root, p)));
  });

  it('walks the same files in the same order when a level has more directories than it reads at once', async () => {
    for (let i = 0; i < 40; i++) {
      mkdirSync(join(root, `wide/d${40 - i}/sub`), { recursive: true });
      writeFileSync(join(root, `wide/d${40 - i}/f.py`), '');
      writeFileSync(join(root, `wide/d${40 - i}/sub/g.py`), '');
    }
    const out: string[] = [];
    for await (const p of walkSourceTreeAsync(root)) out.push(relative(root, p));
    expect(out).toEqual([...walkSourceTree(root)].map((p) => relative(root, p)));
    expect(out.filter((p) => p.startsWith('wide/'))).toHaveLength(80);
    const capped: string[] = [];
    for await (const p of walkSourceTreeAsync(root, { maxEntries: 30 })) capped.push(relative(root, p));
    expect(capped).toEqual([...walkSourceTree(root, { maxEntries: 30 })].map((p) => relative(root, p)));
  });

  it('tells whether a path lies below such a directory', () => {
    expect(inNotIndexedDir(root, join(root, 'node_modules', 'm', 'index.js'))).toBe(true);
    expect(inNotIndexedDir(root, join(root, '.venv', 'lib', 'x.py'))).toBe(true);
    expect(inNotIndexedDir(root, join(root, 'builder', 'ok.py'))).toBe(false);
    // A file named like such a directory is a file.
    expect(inNotIndexedDir(root, join(root, 'build'))).toBe(false);
  });
});
