import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceState } from './workspaceState.js';

describe('workspaceState', () => {
  const dirs: string[] = [];
  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'agent-lsp-state-'));
    dirs.push(root);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    return root;
  }
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('changes with any file of the workspace, not only the one a question is about', async () => {
    const root = tree({ 'a.py': 'def f(): ...\n', 'pkg/b.py': 'from a import f\n' });
    const before = await workspaceState(root);
    expect(before.files).toBe(2);
    writeFileSync(join(root, 'pkg', 'b.py'), 'from a import f\nf()\n');
    expect((await workspaceState(root)).hash).not.toBe(before.hash);
  });

  it('is the same for the same files at another path, and leaves out the directories nobody indexes', async () => {
    const root = tree({ 'a.py': 'x = 1\n', 'node_modules/m/index.js': '1', '.git/HEAD': 'ref' });
    const copy = mkdtempSync(join(tmpdir(), 'agent-lsp-state-'));
    dirs.push(copy);
    cpSync(root, copy, { recursive: true });
    writeFileSync(join(copy, 'node_modules', 'm', 'index.js'), '2');
    const [a, b] = [await workspaceState(root), await workspaceState(copy)];
    expect(a).toEqual(b);
    expect(a.files).toBe(1);
  });

  it('sees a rewrite that keeps the size and sets the mtime back exactly (its ctime changed)', async () => {
    const root = tree({ 'a.py': 'x = 1\n' });
    const file = join(root, 'a.py');
    // A whole second long past: set back to the nanosecond, and outside the racy window.
    utimesSync(file, 1_600_000_000, 1_600_000_000);
    // Past the racy window, so only the stat comparison can see the rewrite.
    await new Promise((r) => setTimeout(r, 2_200));
    const before = await workspaceState(root);
    writeFileSync(file, 'x = 2\n');
    utimesSync(file, 1_600_000_000, 1_600_000_000);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(1_600_000_000_000_000_000n);
    expect((await workspaceState(root)).hash).not.toBe(before.hash);
  });
});
