import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registration } from 'vscode-languageserver-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { inLibraryTarget, libraryWatchTargets } from './libraryWatchTargets.js';

const base = mkdtempSync(join(tmpdir(), 'agent-lsp-library-targets-'));
const root = join(base, 'project');
const venvSite = join(root, '.venv', 'lib', 'python3.11', 'site-packages');
const systemSite = join(base, 'usr', 'lib', 'python3', 'dist-packages');
const src = join(root, 'src');
for (const d of [venvSite, systemSite, src]) mkdirSync(d, { recursive: true });
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A registration as pyright sends it: its config file and everything by plain globs, then relative patterns per search path. */
function pyrightWatchers(...bases: string[]): Registration {
  const relative = bases.map((b) => ({ globPattern: { baseUri: pathToUri(b), pattern: '**' } }));
  return { id: '1', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/pyrightconfig.json' }, { globPattern: '**' }, ...relative] } };
}

describe('libraryWatchTargets', () => {
  it("takes the relative patterns' bases the workspace watcher misses: outside the root, or in a directory it skips", () => {
    const missing = join(base, 'nowhere');
    expect(libraryWatchTargets([pyrightWatchers(venvSite, systemSite, src, root, missing)], [root])).toEqual([venvSite, systemSite].sort());
  });

  it('ignores other methods and a base given as a workspace folder inside the root', () => {
    const folder = { id: '2', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: { baseUri: { uri: pathToUri(src), name: 'src' }, pattern: '**/*.py' } }] } };
    expect(libraryWatchTargets([folder, { id: '3', method: 'textDocument/diagnostic' }], [root])).toEqual([]);
  });

  it('inLibraryTarget: a target or below one', () => {
    expect(inLibraryTarget([venvSite], join(venvSite, 'fancylib'))).toBe(true);
    expect(inLibraryTarget([venvSite], venvSite)).toBe(true);
    expect(inLibraryTarget([venvSite], join(src, 'main.py'))).toBe(false);
  });
});
