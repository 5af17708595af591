import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLANGD_OPEN_LIMIT, sourcesThenHeaders, unopenedFiles } from './clangdReadiness.js';

describe('the files clangd is given at its start without a compilation database', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-clangd-seed-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('are the sources, then the headers', () => {
    for (const name of ['a.h', 'b.c', 'c.hpp', 'd.cpp']) writeFileSync(join(root, name), '');
    expect(sourcesThenHeaders(root).map((f) => basename(f))).toEqual(['b.c', 'd.cpp', 'a.h', 'c.hpp']);
  });

  it('leave the headers out before any source when there are more than the limit', () => {
    for (let i = 0; i < CLANGD_OPEN_LIMIT; i++) writeFileSync(join(root, `s${i}.c`), '');
    writeFileSync(join(root, 'a.h'), '');
    const files = sourcesThenHeaders(root);
    expect(files).toHaveLength(CLANGD_OPEN_LIMIT);
    expect(files.every((f) => f.endsWith('.c'))).toBe(true);
  });

  it('leave the index partial, saying why, when the workspace has more files than were opened (a header counts)', () => {
    for (let i = 0; i < CLANGD_OPEN_LIMIT - 1; i++) writeFileSync(join(root, `s${i}.c`), '');
    writeFileSync(join(root, 'a.h'), '');
    expect(unopenedFiles(root, sourcesThenHeaders(root).length)).toBeUndefined();
    writeFileSync(join(root, 'b.h'), '');
    const opened = sourcesThenHeaders(root).length;
    expect(opened).toBe(CLANGD_OPEN_LIMIT);
    expect(unopenedFiles(root, opened)).toMatch(/no compile_commands\.json.*clangd knows only the 200/);
  });
});
