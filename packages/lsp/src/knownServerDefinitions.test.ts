import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { knownServerDefinition } from './knownServerDefinitions.js';
import { TYPESCRIPT_LIB, type KnownServer } from './knownServers.js';

/** A table entry whose command is node itself (always on PATH here), asking for the TypeScript lib. */
const entry: KnownServer = {
  id: 'tsdk-user',
  command: 'node',
  args: ['--stdio'],
  extensions: { '.astro': 'astro' },
  languageIds: ['astro'],
  rootMarkers: [],
  installHint: 'none',
  initializationOptions: { typescript: { tsdk: TYPESCRIPT_LIB }, keep: ['as', 'is'] },
};

describe('known servers: initializationOptions', () => {
  const roots: string[] = [];
  afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));
  const tempRoot = () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-tsdk-')));
    roots.push(root);
    return root;
  };

  it('fills TYPESCRIPT_LIB with agent-lsp\'s own TypeScript lib when the project has none, and keeps the rest', () => {
    const resolved = knownServerDefinition(entry).resolve(tempRoot());
    const options = resolved?.initializationOptions as { typescript: { tsdk: string }; keep: string[] };
    expect(existsSync(join(options.typescript.tsdk, 'tsserver.js'))).toBe(true);
    expect(options.keep).toEqual(['as', 'is']);
    // The lib given changes the answers: the broker key holds it.
    expect(resolved?.profileFingerprint).toContain(options.typescript.tsdk);
  });

  it("prefers the project's own TypeScript", () => {
    const root = tempRoot();
    const lib = join(root, 'node_modules', 'typescript', 'lib');
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, 'tsserverlibrary.js'), '');
    const options = knownServerDefinition(entry).resolve(join(root))?.initializationOptions as { typescript: { tsdk: string } };
    expect(options.typescript.tsdk).toBe(lib);
  });
});

describe('known servers: installedCheck', () => {
  // node stands for an interpreter that is on PATH with or without the server's module (perl).
  it('resolves only when the check exits 0', () => {
    expect(knownServerDefinition({ ...entry, installedCheck: ['-e', 'process.exit(0)'] }).resolve(tmpdir())).toBeDefined();
    expect(knownServerDefinition({ ...entry, installedCheck: ['-e', 'process.exit(1)'] }).resolve(tmpdir())).toBeUndefined();
  });
});
