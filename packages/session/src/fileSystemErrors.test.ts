import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSystemUserError } from './fileSystemErrors.js';
import { readCurrent } from './restore.js';

const errnoError = (code: string, extra: Record<string, string>) => Object.assign(new Error(`${code}: x`), { code, ...extra });

describe('fileSystemUserError', () => {
  it('turns a real EISDIR (a read of a directory, which names no path itself) into a user error naming the path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-fserr-'));
    try {
      let caught: unknown;
      try {
        readCurrent(dir);
      } catch (err) {
        caught = err;
      }
      const mapped = fileSystemUserError(caught);
      expect(mapped?.name).toBe('UserError');
      expect(mapped?.code).toBe('filesystem');
      expect(mapped?.message).toBe(`${dir} is a directory, not a file (EISDIR). Give the path of a file.`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('says what to do for each errno, names the user\'s path rather than a temp file, and leaves other errors alone', () => {
    expect(fileSystemUserError(errnoError('ENOSPC', { path: '/w/.a.ts.agent-lsp-12-0a1b2c3d.tmp', syscall: 'write' }))?.message).toBe(
      'No space left on the device that holds /w/a.ts (ENOSPC). Free some space and try again.',
    );
    expect(fileSystemUserError(errnoError('EROFS', { path: '/w/.a.ts.agent-lsp-1-ffffffff.tmp', dest: '/w/a.ts', syscall: 'rename' }))?.message).toMatch(/^\/w\/a\.ts is on a read-only filesystem \(EROFS\)/);
    expect(fileSystemUserError(errnoError('EACCES', { path: '/w/b.py' }))?.message).toMatch(/^Permission denied on \/w\/b\.py \(EACCES\)/);
    expect(fileSystemUserError(errnoError('ENOTDIR', { path: '/w/f/x' }))?.message).toMatch(/A part of \/w\/f\/x is a file where a directory is needed/);
    expect(fileSystemUserError(errnoError('ECONNRESET', {}))).toBeUndefined();
    expect(fileSystemUserError(new Error('plain'))).toBeUndefined();
    expect(fileSystemUserError('not an error')).toBeUndefined();
  });
});
