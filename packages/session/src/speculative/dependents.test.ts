import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { namingFiles } from './dependents.js';

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
