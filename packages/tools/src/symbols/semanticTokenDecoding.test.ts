import { describe, expect, it } from 'vitest';
import { decodeSemanticTokens } from './semanticTokenDecoding.js';

const LEGEND = { tokenTypes: ['class', 'variable', 'function'], tokenModifiers: ['declaration', 'readonly', 'static'] };

describe('decodeSemanticTokens', () => {
  it('turns relative integers into named tokens with 1-based character columns', () => {
    const lines = ['class Cart {', '  static total = 1;', '}'];
    // Cart (0:6), then total on the next line at 2, then `1`… as a variable at 16 (same line: relative start).
    const data = [0, 6, 4, 0, 1, 1, 9, 5, 1, 0b110, 0, 8, 1, 1, 0];
    expect(decodeSemanticTokens(data, LEGEND, lines)).toEqual([
      { line: 1, column: 7, length: 4, type: 'class', modifiers: ['declaration'], text: 'Cart' },
      { line: 2, column: 10, length: 5, type: 'variable', modifiers: ['readonly', 'static'], text: 'total' },
      { line: 2, column: 18, length: 1, type: 'variable', modifiers: [], text: '1' },
    ]);
  });

  it('counts columns and lengths in characters where the server counts UTF-16 units', () => {
    const lines = ['const 😀x = café(1);'];
    // 😀x starts at UTF-16 offset 6 and is 3 units long; café starts at 12 (character 11).
    const data = [0, 6, 3, 1, 1, 0, 6, 4, 2, 0];
    expect(decodeSemanticTokens(data, LEGEND, lines)).toEqual([
      { line: 1, column: 7, length: 2, type: 'variable', modifiers: ['declaration'], text: '😀x' },
      { line: 1, column: 12, length: 4, type: 'function', modifiers: [], text: 'café' },
    ]);
  });

  it('names a type index outside the legend instead of dropping the token', () => {
    expect(decodeSemanticTokens([0, 0, 1, 7, 0], LEGEND, ['x'])[0]?.type).toBe('unknown(7)');
  });
});
