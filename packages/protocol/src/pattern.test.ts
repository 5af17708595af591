import { describe, expect, it } from 'vitest';
import { CURSOR_MARK, resolvePositionPattern } from './pattern.js';
import { toLspPosition } from './position.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

const PRICING = [
  'def compute_total(items):',
  '    return sum(i.price for i in items)',
  '',
  'total = compute_total(cart)',
].join('\n');

/** Where `pattern` puts the cursor in `text`, as "line:column". */
function cursorOf(text: string, pattern: string): string {
  const p = resolvePositionPattern(text, pattern, 'pricing.py');
  return `${p.line}:${p.column}`;
}


describe('resolvePositionPattern', () => {
  it('marks the cursor with @@', () => {
    expect(CURSOR_MARK).toBe('@@');
  });

  it('puts the cursor at @@ inside the snippet', () => {
    expect(cursorOf(PRICING, 'def @@compute_total(')).toBe('1:5');
    expect(cursorOf(PRICING, 'total = compute_@@total(')).toBe('4:17');
  });

  it('puts the cursor at the start of the snippet when there is no @@', () => {
    expect(cursorOf(PRICING, 'return sum(')).toBe('2:5');
  });

  it('puts the cursor after the snippet when @@ ends it', () => {
    expect(cursorOf(PRICING, 'def compute_total@@(')).toBe('1:18');
    expect(cursorOf(PRICING, '(items):@@')).toBe('1:26');
  });

  it('gives a position that converts to LSP within the file', () => {
    const p = resolvePositionPattern(PRICING, 'i.@@price', 'pricing.py');
    expect(toLspPosition(PRICING, p)).toEqual({ line: 1, character: 17 });
  });

  describe('multi-line snippets', () => {
    it('puts the cursor on a later line of the snippet', () => {
      expect(cursorOf(PRICING, 'items):\n    return @@sum')).toBe('2:12');
    });

    it('puts the cursor on the first line when @@ is there', () => {
      expect(cursorOf(PRICING, '@@def compute_total(items):\n    return')).toBe('1:1');
    });

    it('spans an empty line', () => {
      expect(cursorOf(PRICING, 'items)\n\n@@total =')).toBe('4:1');
    });

    it('works in a file with \\r\\n line endings when the snippet has them too', () => {
      const crlf = PRICING.replaceAll('\n', '\r\n');
      expect(cursorOf(crlf, 'items):\r\n    return @@sum')).toBe('2:12');
      expect(cursorOf(crlf, 'total = @@compute_total')).toBe('4:9');
    });
  });

  describe('non-ASCII text before the match', () => {
    it('counts an emoji before the cursor as one column', () => {
      // Two emoji are four UTF-16 units but two columns.
      expect(cursorOf('😀😀 = compute()', '@@compute(')).toBe('1:6');
    });

    it('counts accents and CJK as one column each', () => {
      expect(cursorOf('café = 漢字 + compute()', '@@compute(')).toBe('1:13');
    });

    it('counts code points on the cursor line after non-ASCII earlier lines', () => {
      const text = '# 😀😀😀\nlabel = "漢字😀"; total = compute()';
      expect(cursorOf(text, 'total = @@compute')).toBe('2:24');
    });

    it('matches a snippet that itself contains an emoji', () => {
      expect(cursorOf('a = "😀"; b = "😀x"', '"😀x@@"')).toBe('1:17');
    });
  });

  describe('no match', () => {
    it('says the pattern does not occur, naming the file and the pattern', () => {
      const err = userErrorFrom(() => resolvePositionPattern(PRICING, 'def @@compute_totals(', 'shop/pricing.py'));
      expect(err.code).toBe('pattern_not_found');
      expect(err.message).toContain('"def @@compute_totals("');
      expect(err.message).toContain('shop/pricing.py');
      expect(err.message).toContain('line and column');
    });

    it('is exact about whitespace', () => {
      expect(userErrorFrom(() => cursorOf(PRICING, 'def  compute_total')).code).toBe('pattern_not_found');
    });
  });

  describe('several matches', () => {
    it('says how many times and where, at the cursor of each', () => {
      const err = userErrorFrom(() => resolvePositionPattern(PRICING, 'compute_@@total(', 'pricing.py'));
      expect(err.code).toBe('pattern_ambiguous');
      expect(err.message).toContain('occurs 2 times in pricing.py');
      expect(err.message).toContain('(at 1:13, 4:17)');
      expect(err.message).toContain('Make the snippet longer');
    });

    it('reports the positions in code-point columns', () => {
      const err = userErrorFrom(() => cursorOf('😀 f()\n漢字😀 f()', 'f('));
      expect(err.message).toContain('(at 1:3, 2:5)');
    });

    it('lists only the first five positions of many', () => {
      const text = Array.from({ length: 7 }, () => 'x = 1').join('\n');
      const err = userErrorFrom(() => cursorOf(text, 'x ='));
      expect(err.message).toContain('occurs 7 times');
      expect(err.message).toContain('(at 1:1, 2:1, 3:1, 4:1, 5:1, …)');
      expect(err.message).not.toContain('6:1');
    });

    it('says "more than 20" instead of counting a very common snippet', () => {
      const text = Array.from({ length: 50 }, () => 'x = 1').join('\n');
      const err = userErrorFrom(() => cursorOf(text, 'x ='));
      expect(err.code).toBe('pattern_ambiguous');
      expect(err.message).toContain('occurs more than 20 times');
    });

    it('counts overlapping occurrences as separate matches', () => {
      const err = userErrorFrom(() => cursorOf('aaa', 'aa'));
      expect(err.code).toBe('pattern_ambiguous');
      expect(err.message).toContain('(at 1:1, 1:2)');
    });
  });

  describe('empty pattern', () => {
    it.each(['', '@@'])('refuses %j as an invalid argument', (pattern) => {
      const err = userErrorFrom(() => cursorOf(PRICING, pattern));
      expect(err.code).toBe('invalid_argument');
      expect(err.message).toContain('position_pattern is empty');
    });
  });
});

describe('resolvePositionPattern with a line scope', () => {
  const TWICE = 'def foo():\n    pass\n\ndef bar():\n    foo()\n\ndef foo():\n    return 1\n';

  it('picks the one match within line_scope_start..line_scope_end', () => {
    expect(resolvePositionPattern(TWICE, 'def @@foo', 'dup.py', { start: 6, end: 8 })).toEqual({ line: 7, column: 5 });
    expect(resolvePositionPattern(TWICE, 'def @@foo', 'dup.py', { end: 3 })).toEqual({ line: 1, column: 5 });
  });

  it('still refuses a snippet that occurs several times within the scope, naming the lines', () => {
    const err = userErrorFrom(() => resolvePositionPattern(TWICE, 'def @@foo', 'dup.py', { start: 1, end: 8 }));
    expect(err.code).toBe('pattern_ambiguous');
    expect(err.message).toContain('within lines 1-8');
  });

  it('counts a snippet that crosses the scope end as outside it', () => {
    const err = userErrorFrom(() => resolvePositionPattern(TWICE, 'def bar():\n    @@foo', 'dup.py', { start: 4, end: 4 }));
    expect(err.code).toBe('pattern_not_found');
    expect(err.message).toContain('within lines 4-4');
  });

  it('refuses an end before the start', () => {
    expect(userErrorFrom(() => resolvePositionPattern(TWICE, 'foo', 'dup.py', { start: 5, end: 2 })).message).toContain('line_scope_end (2) is before line_scope_start (5)');
  });
});
