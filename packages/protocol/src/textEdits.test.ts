import { describe, expect, it } from 'vitest';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits } from './textEdits.js';

/** An edit replacing [startLine:startChar, endLine:endChar) (0-based, UTF-16) with `newText`. */
function edit(startLine: number, startChar: number, endLine: number, endChar: number, newText: string): TextEdit {
  return { range: { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } }, newText };
}

function insert(line: number, character: number, newText: string): TextEdit {
  return edit(line, character, line, character, newText);
}

describe('applyTextEdits', () => {
  it('returns the text unchanged when there are no edits', () => {
    expect(applyTextEdits('a\r\nb', [])).toBe('a\r\nb');
  });

  it('inserts, replaces and deletes', () => {
    expect(applyTextEdits('total = 1', [insert(0, 0, 'let ')])).toBe('let total = 1');
    expect(applyTextEdits('total = 1', [edit(0, 0, 0, 5, 'sum')])).toBe('sum = 1');
    expect(applyTextEdits('total = 1', [edit(0, 5, 0, 9, '')])).toBe('total');
  });

  it('renames every occurrence whatever order the edits come in', () => {
    const text = 'old(1)\nx = old(2) + old(3)';
    const edits = [edit(1, 4, 1, 7, 'new'), edit(0, 0, 0, 3, 'new'), edit(1, 13, 1, 16, 'new')];
    const expected = 'new(1)\nx = new(2) + new(3)';
    expect(applyTextEdits(text, edits)).toBe(expected);
    expect(applyTextEdits(text, [...edits].reverse())).toBe(expected);
  });

  it('applies edits that change the line count', () => {
    const text = 'def f():\n    pass\n\nf()';
    const edits = [edit(0, 8, 2, 0, '\n    return 1\n'), insert(3, 0, 'print('), insert(3, 3, ')')];
    expect(applyTextEdits(text, edits)).toBe('def f():\n    return 1\n\nprint(f())');
  });

  it('reads edit columns as UTF-16 units after an emoji', () => {
    // "😀 = " is 5 UTF-16 units; "old" starts at character 5.
    expect(applyTextEdits('😀 = old', [edit(0, 5, 0, 8, 'new')])).toBe('😀 = new');
  });

  it('keeps \\r\\n line endings outside the edited ranges', () => {
    expect(applyTextEdits('a = 1\r\nb = 2\r\n', [edit(1, 4, 1, 5, '3')])).toBe('a = 1\r\nb = 3\r\n');
  });

  it('keeps the given order of two insertions at the same position', () => {
    expect(applyTextEdits('f()', [insert(0, 2, 'a'), insert(0, 2, ', b')])).toBe('f(a, b)');
  });

  it('does not modify the caller\'s edit list', () => {
    const edits = [edit(0, 4, 0, 5, 'y'), edit(0, 0, 0, 1, 'x')];
    const copy = structuredClone(edits);
    applyTextEdits('a = b', edits);
    expect(edits).toEqual(copy);
  });
});
