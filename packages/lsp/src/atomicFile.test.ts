import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from './atomicFile.js';

describe('the atomic writer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-atomic-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, write] of [
    ['writeFileAtomic', writeFileAtomic],
    ['writeFileAtomicSync', (p: string, d: string, o: { mode: number }) => Promise.resolve().then(() => writeFileAtomicSync(p, d, o))],
  ] as const) {
    it(`${name} replaces the file with exactly the mode asked (umask or not) and leaves no temp file`, async () => {
      const path = join(dir, 'f.txt');
      writeFileSync(path, 'old', { mode: 0o644 });
      await write(path, 'new ✓', { mode: 0o664 });
      expect(readFileSync(path, 'utf8')).toBe('new ✓');
      expect(statSync(path).mode & 0o7777).toBe(0o664);
      expect(readdirSync(dir)).toEqual(['f.txt']);
    });

    it(`${name} fails on a directory in the file's place, leaving it and no temp file`, async () => {
      const path = join(dir, 'd');
      mkdirSync(join(path, 'inside'), { recursive: true });
      await expect(write(path, 'x', { mode: 0o600 })).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
      expect(readdirSync(dir)).toEqual(['d']);
    });
  }
});
