import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '@agent-lsp/protocol';
import { MAX_DOCUMENT_BYTES, mayHaveChanged, readDiskText, readRegularTextSync } from './diskText.js';

describe('readDiskText', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-disk-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file with what a later stat compares against', async () => {
    const path = join(dir, 'a.py');
    writeFileSync(path, 'café = 1\n');
    const file = await readDiskText(path);
    expect(file?.text).toBe('café = 1\n');
    expect(file?.state.size).toBe(Buffer.byteLength('café = 1\n'));
    expect(file?.state.hash).toMatch(/^[0-9a-f]{64}$/);
    if (!file) throw new Error('not read');
    expect(await mayHaveChanged(path, file.state)).toBe(false);
    writeFileSync(path, 'café = 22\n');
    expect(await mayHaveChanged(path, file.state)).toBe(true);
  });

  it('answers undefined for a missing file', async () => {
    expect(await readDiskText(join(dir, 'missing.py'))).toBeUndefined();
    expect(await readDiskText(join(dir, 'missing', 'below.py'))).toBeUndefined();
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const fifo = join(dir, 'pipe.py');
    execFileSync('mkfifo', [fifo]);
    // A reader that blocked would never settle; the guard only turns a hang into a failure.
    let guard: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => (guard = setTimeout(() => resolve('hung'), 20_000)));
    const outcome = await Promise.race([readDiskText(fifo, 'pipe.py').then(() => 'read', (err: unknown) => err), hung]);
    clearTimeout(guard);
    expect(outcome).toBeInstanceOf(UserError);
    expect((outcome as UserError).message).toMatch(/pipe\.py is not a regular file/);
  });

  it('refuses a directory and a file past the size limit, saying the limit', async () => {
    await expect(readDiskText(dir, 'the dir')).rejects.toThrow(/the dir is not a regular file/);
    const big = join(dir, 'huge.ts');
    writeFileSync(big, '');
    truncateSync(big, MAX_DOCUMENT_BYTES + 1); // sparse: no 64 MiB written
    await expect(readDiskText(big, 'huge.ts')).rejects.toThrow(/huge\.ts is 67108865 bytes; agent-lsp opens documents of at most 67108864 bytes/);
  });
});

describe('readRegularTextSync', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-disk-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file as UTF-8, byte order mark and invalid bytes as Buffer decodes them', () => {
    const path = join(dir, 'a.py');
    const bytes = Buffer.concat([Buffer.from('\uFEFFcafé 😀\r\n'), Buffer.from([0xff, 0xc3]), Buffer.from('x\n')]);
    writeFileSync(path, bytes);
    expect(readRegularTextSync(path)).toBe(bytes.toString('utf8'));
  });

  it('answers undefined for a missing file, a directory, a FIFO (without blocking) and a file past the size limit', () => {
    expect(readRegularTextSync(join(dir, 'missing.py'))).toBeUndefined();
    expect(readRegularTextSync(join(dir, 'missing', 'below.py'))).toBeUndefined();
    expect(readRegularTextSync(dir)).toBeUndefined();
    const fifo = join(dir, 'pipe.py');
    execFileSync('mkfifo', [fifo]);
    expect(readRegularTextSync(fifo)).toBeUndefined();
    const big = join(dir, 'huge.ts');
    writeFileSync(big, '');
    truncateSync(big, MAX_DOCUMENT_BYTES + 1);
    expect(readRegularTextSync(big)).toBeUndefined();
  });
});
