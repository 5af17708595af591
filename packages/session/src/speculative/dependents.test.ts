import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import { pathToUri } from '@agent-lsp/protocol';
import { findDependents, namingFiles, type ServerAsk } from './dependents.js';
import { OverlayFile } from './overlay.js';

describe('namingFiles: the text search for files that name an edited module', () => {
  let root: string;
  const python = { extensions: { '.py': 'python' } };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-naming-'));
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'pkg', 'geometry.py'), 'def distance(a, b):\n    return b - a\n');
    writeFileSync(join(root, 'a_user.py'), 'from pkg.geometry import distance\n');
    writeFileSync(join(root, 'b_other.py'), 'x = 1\n');
    writeFileSync(join(root, 'c_user.py'), 'import pkg.geometry as g\n');
    writeFileSync(join(root, 'notes.txt'), 'geometry\n');
    writeFileSync(join(root, 'geometryx.py'), 'geometryx = 2\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the files of the server\'s languages that name the module as a word', async () => {
    const problems: string[] = [];
    const found = await namingFiles([root], python, [{ path: join(root, 'pkg', 'geometry.py') }], problems);
    expect(found.sort()).toEqual([join(root, 'a_user.py'), join(root, 'c_user.py')]);
    expect(problems).toEqual([]);
  });

  it('says so when it stops at its file limit, instead of looking complete', async () => {
    const problems: string[] = [];
    const found = await namingFiles([root], python, [{ path: join(root, 'pkg', 'geometry.py') }], problems, 2);
    expect(found).toEqual([join(root, 'a_user.py')]);
    expect(problems).toEqual(['only the first 2 files were searched for names of the edited modules; files beyond them were not counted']);
  });
});

describe('findDependents on a server ready on a partial index', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-dependents-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('says the references may have missed dependents, naming what the index misses', async () => {
    const edited = join(root, 'geometry.py');
    const user = join(root, 'user.py');
    const base = 'def distance(a, b):\n    return b - a\n';
    const file = new OverlayFile(edited, pathToUri(edited), 'python', base, undefined);
    file.apply({ range: { start: { line: 0, character: 17 }, end: { line: 0, character: 18 } }, newText: 'b, c' });
    const partial = 'pyrefly indexed 0 of the workspace files (a broken symlink stopped its walk)';
    const conn = { supports: () => true, readiness: { snapshot: () => ({ state: 'ready', ready: true, partial }) }, server: { displayName: 'pyrefly' } } as unknown as LspConnection;
    const symbol = { name: 'distance', kind: 12, range: { start: { line: 0, character: 0 }, end: { line: 1, character: 16 } }, selectionRange: { start: { line: 0, character: 4 }, end: { line: 0, character: 12 } } };
    const ask = (<T>(method: string) => Promise.resolve((method === 'textDocument/documentSymbol' ? [symbol] : [{ uri: pathToUri(user), range: symbol.selectionRange }]) as T)) as ServerAsk;
    const server = { displayName: 'pyrefly', extensions: { '.py': 'python' } } as unknown as ServerDefinition;
    const found = await findDependents(conn, ask, server, [root], [file], Date.now() + 10_000);
    expect(found.paths).toEqual([user]);
    expect(found.problems).toEqual([`pyrefly's index misses part of the workspace, so references may have missed dependents there: ${partial}`]);
  });
});
