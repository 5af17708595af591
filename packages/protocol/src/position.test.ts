import { describe, expect, it } from 'vitest';
import { fromLspPosition, fromLspRange, LineTable, splitLines, toLspPosition, toLspRange, type UserPosition } from './position.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

/** The LSP position of 1-based `line`:`column` (code points) in `text`. */
function lspAt(text: string, line: number, column: number) {
  return toLspPosition(text, { line, column });
}


/** The 1-based column of the first occurrence of `needle` in `line`, counted in code points. */
function codePointColumnOf(line: string, needle: string): number {
  return [...line.slice(0, line.indexOf(needle))].length + 1;
}

describe('splitLines', () => {
  it('ends a line at \\n, \\r\\n and a lone \\r', () => {
    expect(splitLines('a\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('treats \\n\\r as two line ends, not one', () => {
    expect(splitLines('a\n\rb')).toEqual(['a', '', 'b']);
  });

  it('keeps the empty last line after a trailing newline', () => {
    expect(splitLines('a\n')).toEqual(['a', '']);
    expect(splitLines('')).toEqual(['']);
  });
});

describe('toLspPosition', () => {
  it('makes line and column 0-based on an ASCII line', () => {
    expect(lspAt('let total = 1;', 1, 5)).toEqual({ line: 0, character: 4 });
    expect(lspAt('a\nlet total = 1;', 2, 1)).toEqual({ line: 1, character: 0 });
  });

  it('counts an accented letter before the symbol as one column and one UTF-16 unit', () => {
    const line = 'café = total';
    expect(codePointColumnOf(line, 'total')).toBe(8);
    expect(lspAt(line, 1, 8)).toEqual({ line: 0, character: 7 });
  });

  it('counts a decomposed accent (e + combining acute) as two columns, since columns are code points', () => {
    const line = 'cafe\u0301 = total';
    expect(lspAt(line, 1, 9)).toEqual({ line: 0, character: 8 });
  });

  it('counts each CJK character before the symbol as one column and one UTF-16 unit', () => {
    expect(lspAt('漢字 = total', 1, 6)).toEqual({ line: 0, character: 5 });
  });

  it('counts an emoji before the symbol as one column but two UTF-16 units', () => {
    expect(lspAt('😀 = total', 1, 5)).toEqual({ line: 0, character: 5 });
    expect(lspAt('😀😀 total', 1, 4)).toEqual({ line: 0, character: 5 });
  });

  it('points at the emoji itself and at the character right after it', () => {
    expect(lspAt('x😀y', 1, 2)).toEqual({ line: 0, character: 1 });
    expect(lspAt('x😀y', 1, 3)).toEqual({ line: 0, character: 3 });
  });

  it('mixes accents, CJK and emoji on one line', () => {
    const line = 'é漢😀 = total';
    expect(codePointColumnOf(line, 'total')).toBe(7);
    // é (1 unit) + 漢 (1) + 😀 (2) + " = " (3) = 7 units before "total".
    expect(lspAt(line, 1, 7)).toEqual({ line: 0, character: 7 });
  });

  it('finds non-ASCII lines after \\r\\n line endings', () => {
    const text = 'first\r\n😀 total\r\nlast';
    expect(lspAt(text, 2, 3)).toEqual({ line: 1, character: 3 });
    expect(lspAt(text, 3, 1)).toEqual({ line: 2, character: 0 });
  });

  it('finds non-ASCII lines after lone \\r line endings', () => {
    const text = 'first\r😀 total\rlast';
    expect(lspAt(text, 2, 3)).toEqual({ line: 1, character: 3 });
    expect(lspAt(text, 3, 4)).toEqual({ line: 2, character: 3 });
  });

  it('does not count the line ending as part of the line', () => {
    // "ab" has columns 1-3 whether it ends with \n, \r\n or \r.
    for (const eol of ['\n', '\r\n', '\r']) {
      expect(lspAt(`ab${eol}next`, 1, 3)).toEqual({ line: 0, character: 2 });
      expect(lspAt(`ab${eol}next`, 1, 4)).toEqual({ line: 0, character: 2 });
    }
  });

  it('allows the column just past the end of the line', () => {
    expect(lspAt('ab', 1, 3)).toEqual({ line: 0, character: 2 });
    expect(lspAt('a😀', 1, 3)).toEqual({ line: 0, character: 3 });
    expect(lspAt('', 1, 1)).toEqual({ line: 0, character: 0 });
  });

  it('allows the empty line after a trailing newline', () => {
    expect(lspAt('a\n', 2, 1)).toEqual({ line: 1, character: 0 });
  });

  it('clamps a column past the end of the line to its end, as LSP does (the line stays its own)', () => {
    expect(lspAt('a😀\nlonger line', 1, 4)).toEqual({ line: 0, character: 3 });
    expect(lspAt('a😀\nlonger line', 1, 400)).toEqual({ line: 0, character: 3 });
    expect(lspAt('ab\r\n\r\nc', 2, 9)).toEqual({ line: 1, character: 0 });
  });

  it('refuses a line past the end of the file, naming how many lines there are', () => {
    const err = userErrorFrom(() => lspAt('one\ntwo\r\nthree', 4, 1));
    expect(err.code).toBe('invalid_position');
    expect(err.message).toContain('4:1');
    expect(err.message).toContain('3 line(s)');
  });

  it.each<[string, UserPosition]>([
    ['line zero', { line: 0, column: 1 }],
    ['column zero', { line: 1, column: 0 }],
    ['a negative line', { line: -1, column: 1 }],
    ['a negative column', { line: 1, column: -3 }],
    ['a fractional line', { line: 1.5, column: 1 }],
    ['a fractional column', { line: 1, column: 2.5 }],
    ['a NaN column', { line: 1, column: Number.NaN }],
    ['an infinite line', { line: Number.POSITIVE_INFINITY, column: 1 }],
  ])('refuses %s, saying positions are 1-based whole numbers', (_label, pos) => {
    const err = userErrorFrom(() => toLspPosition('abc\ndef', pos));
    expect(err.code).toBe('invalid_position');
    expect(err.message).toContain(`${pos.line}:${pos.column}`);
    expect(err.message).toContain('1-based whole numbers');
  });

  it('names the position in the message with the caller-given word', () => {
    const err = userErrorFrom(() => toLspPosition('abc', { line: 9, column: 1 }, 'end'));
    expect(err.message.startsWith('end 9:1')).toBe(true);
  });
});

describe('fromLspPosition', () => {
  it('makes line and column 1-based', () => {
    expect(fromLspPosition('abc\ndef', { line: 1, character: 2 })).toEqual({ line: 2, column: 3 });
  });

  it('turns UTF-16 offsets after an emoji into code-point columns', () => {
    expect(fromLspPosition('😀 = total', { line: 0, character: 5 })).toEqual({ line: 1, column: 5 });
  });

  it('keeps offsets after accents and CJK unchanged, as those are one unit each', () => {
    expect(fromLspPosition('café 漢字 x', { line: 0, character: 8 })).toEqual({ line: 1, column: 9 });
  });

  it('rounds an offset inside a surrogate pair down to the emoji', () => {
    expect(fromLspPosition('x😀y', { line: 0, character: 2 })).toEqual({ line: 1, column: 2 });
  });

  it('reads lines split at \\r\\n and \\r', () => {
    expect(fromLspPosition('a\r\n😀b\rc', { line: 1, character: 2 })).toEqual({ line: 2, column: 2 });
    expect(fromLspPosition('a\r\n😀b\rc', { line: 2, character: 1 })).toEqual({ line: 3, column: 2 });
  });

  it('accepts lines already split', () => {
    expect(fromLspPosition(['first', '😀😀x'], { line: 1, character: 4 })).toEqual({ line: 2, column: 3 });
  });

  it('maps the end-of-line offset to the column just past the line', () => {
    expect(fromLspPosition('a😀', { line: 0, character: 3 })).toEqual({ line: 1, column: 3 });
  });
});

describe('LineTable', () => {
  // Texts whose line ends and characters each take a path of their own: \n only (no \r), \r\n,
  // a lone \r, \r\r\n, empty lines, a final line end or none, BMP non-ASCII, astral characters.
  const texts = [
    '',
    'x',
    'abc\ndef\n',
    '\n\n\n',
    'a\r\n😀b\rc',
    '\r\r\n\r\n\n\r',
    'café 漢字 x\r\nplain\r\n',
    'one 😀 two 😀😀\nthree\n\u{1F600}\u{10FFFF}end',
    'no surrogate é\rlast line without end',
    'x😀y\r\n\r\n漢😀',
  ];

  it('converts every position exactly as the split lines do, past line and text ends too', () => {
    for (const text of texts) {
      const table = new LineTable(text);
      const lines = splitLines(text);
      expect(table.lineCount).toBe(lines.length);
      for (let line = -1; line <= lines.length + 1; line++) {
        expect(table.line(line)).toBe(lines[line] ?? '');
        const width = (lines[line] ?? '').length;
        for (let character = 0; character <= width + 2; character++) {
          expect(fromLspPosition(table, { line, character })).toEqual(fromLspPosition(lines, { line, character }));
        }
      }
      const range = { start: { line: 0, character: 1 }, end: { line: lines.length - 1, character: 3 } };
      expect(fromLspRange(table, range)).toEqual(fromLspRange(text, range));
    }
  });

  it('counts UTF-16 offsets after an astral character as characters, and not after BMP ones', () => {
    const table = new LineTable('plain\r\n😀 = total\ncafé 漢字 x');
    expect(fromLspPosition(table, { line: 1, character: 5 })).toEqual({ line: 2, column: 5 });
    expect(fromLspPosition(table, { line: 2, character: 8 })).toEqual({ line: 3, column: 9 });
    expect(fromLspPosition(table, { line: 0, character: 99 })).toEqual({ line: 1, column: 6 });
  });
});

describe('round trips', () => {
  const text = ['plain ascii', 'café 漢字 😀 total', '😀😀😀', 'e\u0301 last'].join('\r\n');

  it('every user position comes back unchanged through LSP', () => {
    splitLines(text).forEach((lineText, i) => {
      const width = [...lineText].length;
      for (let column = 1; column <= width + 1; column++) {
        const pos = { line: i + 1, column };
        expect(fromLspPosition(text, toLspPosition(text, pos))).toEqual(pos);
      }
    });
  });

  it('every LSP offset on a code-point boundary comes back unchanged', () => {
    splitLines(text).forEach((lineText, line) => {
      let character = 0;
      for (const ch of [...lineText, '']) {
        const lsp = { line, character };
        expect(toLspPosition(text, fromLspPosition(text, lsp))).toEqual(lsp);
        character += ch.length;
      }
    });
  });
});

describe('toLspRange', () => {
  it('converts both ends of a range across lines', () => {
    const text = 'a😀b\n漢字 total';
    expect(toLspRange(text, { line: 1, column: 3, end_line: 2, end_column: 4 })).toEqual({
      start: { line: 0, character: 3 },
      end: { line: 1, character: 3 },
    });
  });

  it('allows an empty range', () => {
    expect(toLspRange('abc', { line: 1, column: 2, end_line: 1, end_column: 2 })).toEqual({
      start: { line: 0, character: 1 },
      end: { line: 0, character: 1 },
    });
  });

  it('refuses a range that ends before it starts on the same line', () => {
    const err = userErrorFrom(() => toLspRange('abcdef', { line: 1, column: 4, end_line: 1, end_column: 2 }));
    expect(err.code).toBe('invalid_position');
    expect(err.message).toContain('1:4-1:2');
    expect(err.message).toContain('ends before it starts');
  });

  it('refuses a range that ends on an earlier line', () => {
    const err = userErrorFrom(() => toLspRange('abc\ndef', { line: 2, column: 1, end_line: 1, end_column: 3 }));
    expect(err.code).toBe('invalid_position');
    expect(err.message).toContain('ends before it starts');
  });

  it('says which end of the range is out of the file', () => {
    const text = 'abc\ndef';
    expect(userErrorFrom(() => toLspRange(text, { line: 9, column: 1, end_line: 2, end_column: 1 })).message).toMatch(/^start 9:1/);
    expect(userErrorFrom(() => toLspRange(text, { line: 1, column: 1, end_line: 3, end_column: 1 })).message).toMatch(/^end 3:1/);
    // A column past its line's end is no error: it clamps, as LSP does.
    expect(toLspRange(text, { line: 1, column: 1, end_line: 2, end_column: 9 })).toEqual({ start: { line: 0, character: 0 }, end: { line: 1, character: 3 } });
  });
});

describe('fromLspRange', () => {
  it('converts both ends to 1-based code-point positions', () => {
    const text = 'x\r\n😀 total';
    expect(fromLspRange(text, { start: { line: 1, character: 3 }, end: { line: 1, character: 8 } })).toEqual({
      line: 2,
      column: 3,
      end_line: 2,
      end_column: 8,
    });
  });

  it('round-trips with toLspRange', () => {
    const text = 'é😀漢\nsecond 😀 line';
    const range = { line: 1, column: 2, end_line: 2, end_column: 9 };
    expect(fromLspRange(text, toLspRange(text, range))).toEqual(range);
  });
});
