import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromLspPosition, fromLspPositionOnLine, splitLines } from '@agent-lsp/protocol';
import { DiskLineReader } from './diskLines.js';

const dir = mkdtempSync(join(tmpdir(), 'disk-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('DiskLineReader', () => {
  const texts: Record<string, string> = {
    plain: 'def f():\n    return 1\n',
    noFinalNewline: 'a\nbb\nccc',
    empty: '',
    blankLines: '\n\n\n',
    wide: '\uFEFFname = "café 🎉 ok" # 注释\nx = "😀😀" + y\n',
  };

  it('gives the lines splitLines gives, one reader reused across files of different sizes', () => {
    const reader = new DiskLineReader();
    for (const [name, text] of Object.entries(texts)) {
      expect(reader.load(file(name, text))).toBe(true);
      const lines = splitLines(text);
      for (let n = -1; n <= lines.length + 1; n++) expect(reader.line(n), `${name} line ${n}`).toBe(lines[n] ?? '');
    }
  });

  it('converts positions as fromLspPosition does on the whole text, surrogate pairs and line ends included', () => {
    const reader = new DiskLineReader();
    const text = texts.wide ?? '';
    reader.load(file('wide', text));
    const lines = splitLines(text);
    for (let line = 0; line < lines.length; line++) {
      for (let character = 0; character <= (lines[line] ?? '').length + 2; character++) {
        expect(fromLspPositionOnLine(reader.line(line), { line, character })).toEqual(fromLspPosition(text, { line, character }));
      }
    }
  });

  it('declines files with carriage returns, directories and missing files', () => {
    const reader = new DiskLineReader();
    expect(reader.load(file('crlf', 'a\r\nb\r\n'))).toBe(false);
    expect(reader.load(file('cr', 'a\rb'))).toBe(false);
    mkdirSync(join(dir, 'sub'));
    expect(reader.load(join(dir, 'sub'))).toBe(false);
    expect(reader.load(join(dir, 'missing.py'))).toBe(false);
  });
});
