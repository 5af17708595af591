import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { EditPlan } from './editPlan.js';
import { resolveWritablePath } from './writablePath.js';

describe('EditPlan', () => {
  let dir: string;
  let root: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-plan-')));
    root = join(dir, 'ws');
    mkdirSync(root);
    writeFileSync(join(root, 'a.ts'), 'const a = 1;\nconst b = a;\n');
    writeFileSync(join(dir, 'outside.ts'), 'secret\n');
    symlinkSync(join(dir, 'outside.ts'), join(root, 'link.ts'));
    symlinkSync(dir, join(root, 'up'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const plan = () => new EditPlan({ resolve: (p) => resolveWritablePath(p, [root]), label: (p) => p.slice(root.length + 1) });
  const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

  it('applies text edits, creations, renames and deletions in order, on a view of the disk', () => {
    const p = plan();
    p.applyWorkspaceEdit({
      documentChanges: [
        { textDocument: { uri: pathToUri(join(root, 'a.ts')), version: null }, edits: [{ range: range(0, 6, 0, 7), newText: 'x' }, { range: range(1, 10, 1, 11), newText: 'x' }] },
        { kind: 'rename', oldUri: pathToUri(join(root, 'a.ts')), newUri: pathToUri(join(root, 'lib', 'x.ts')) },
        { kind: 'create', uri: pathToUri(join(root, 'new.ts')) },
        { textDocument: { uri: pathToUri(join(root, 'new.ts')), version: null }, edits: [{ range: range(0, 0, 0, 0), newText: 'export {};\n' }] },
      ],
    });
    expect(p.changes().map((c) => [c.path.slice(root.length + 1), c.content?.toString()])).toEqual([
      ['a.ts', undefined],
      ['lib/x.ts', 'const x = 1;\nconst b = x;\n'],
      ['new.ts', 'export {};\n'],
    ]);
  });

  it('refuses writes that leave the workspace, through symlinks too', () => {
    expect(() => plan().replaceText('link.ts', 'secret', 'x')).toThrow(/outside the workspace \(it resolves to .*outside\.ts\)/);
    expect(() => plan().applyWorkspaceEdit({ documentChanges: [{ kind: 'create', uri: pathToUri(join(root, 'up', 'evil.ts')) }] })).toThrow(/outside the workspace/);
    expect(() => plan().replaceText('../outside.ts', 'secret', 'x')).toThrow(/outside the workspace/);
  });

  it('says what is wrong with old_text and with file operations', () => {
    expect(() => plan().replaceText('a.ts', 'const', 'let')).toThrow(/more than once/);
    expect(() => plan().replaceText('a.ts', 'nope', 'x')).toThrow(/does not occur/);
    expect(() => plan().applyWorkspaceEdit({ documentChanges: [{ kind: 'create', uri: pathToUri(join(root, 'a.ts')) }] })).toThrow(/already exists/);
    expect(() => plan().applyWorkspaceEdit({ documentChanges: [{ kind: 'delete', uri: pathToUri(join(root, 'gone.ts')) }] })).toThrow(/does not exist/);
    const p = plan();
    p.applyWorkspaceEdit({ documentChanges: [{ kind: 'delete', uri: pathToUri(join(root, 'gone.ts')), options: { ignoreIfNotExists: true } }] });
    expect(p.changes()).toEqual([]);
  });
});
