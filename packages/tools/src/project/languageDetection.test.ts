import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerRegistry, walkSourceTree, type ServerDefinition } from '@agent-lsp/lsp';
import { detectLanguages } from './languageDetection.js';

/** What detectLanguages counts, the slow way: every file routed by itself. */
function routedOneByOne(root: string, registry: ServerRegistry, maxEntries?: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of walkSourceTree(root, maxEntries === undefined ? {} : { maxEntries })) {
    const route = registry.forFile(basename(path));
    if (route) counts.set(route.server.id, (counts.get(route.server.id) ?? 0) + 1);
  }
  return counts;
}

const byId = (found: { server: ServerDefinition; files: number }[]) => new Map(found.map((d) => [d.server.id, d.files]));

describe('detectLanguages', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-detect-'));
    const files = ['a.py', 'B.PY', 'pkg/c.py', 'pkg/deep/d.pyi', 'web/x.ts', 'web/y.TSX', 'web/z.js', 'go/main.go', 'Dockerfile', 'sub/Dockerfile', 'README', 'notes.txt', 'node_modules/m/i.js', '.venv/v.py', 'build/g.py'];
    for (const f of files) {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), '');
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('counts the files each server routes, by extension or name, whatever their case, skipping vendored directories', async () => {
    const registry = new ServerRegistry();
    const found = await detectLanguages(root, registry);
    expect(byId(found)).toEqual(routedOneByOne(root, registry));
    expect(byId(found).get('pyright')).toBe(4);
    expect(found.map((d) => d.files)).toEqual([...found.map((d) => d.files)].sort((a, b) => b - a));
    // Extensionless names route by name: both Dockerfiles count for one server.
    const docker = registry.forFile('Dockerfile')?.server.id;
    if (docker) expect(byId(found).get(docker)).toBe(2);
  });

  it('counts a wide directory as routing file by file would', async () => {
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `m${String(i).padStart(2, '0')}.py`), '');
    const registry = new ServerRegistry();
    const all = await detectLanguages(root, registry);
    expect(byId(all).get('pyright')).toBe(34);
    expect(byId(all)).toEqual(routedOneByOne(root, registry));
  });
  it("does not count another detected language's manifest as a language of its own; a manifest alone counts", async () => {
    writeFileSync(join(root, 'pyproject.toml'), '');
    writeFileSync(join(root, 'web', 'tsconfig.json'), '');
    const registry = new ServerRegistry();
    const toml = registry.forFile('pyproject.toml')?.server.id as string;
    const json = registry.forFile('tsconfig.json')?.server.id as string;
    const found = byId(await detectLanguages(root, registry));
    expect([found.has(toml), found.has(json)]).toEqual([false, false]);
    expect(found.get('pyright')).toBe(4);
    // A TOML file that is nobody's manifest makes it a TOML workspace too (pyproject.toml stays Python's).
    writeFileSync(join(root, 'settings.toml'), '');
    expect(byId(await detectLanguages(root, registry)).get(toml)).toBe(1);
  });
});
