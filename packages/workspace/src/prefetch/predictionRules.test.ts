import { describe, expect, it } from 'vitest';
import { predictNext } from './predictionRules.js';

const range = (line: number, character: number) => ({ start: { line, character }, end: { line, character: character + 3 } });

describe('predictNext', () => {
  it('definition → hover and references at the returned target (LocationLink: its selection range)', () => {
    const link = { targetUri: 'file:///w/b.py', targetRange: range(9, 0), targetSelectionRange: range(9, 4) };
    const p = predictNext('textDocument/definition', { textDocument: { uri: 'file:///w/a.py' }, position: { line: 2, character: 7 } }, [link]);
    expect(p.map((x) => [x.rule, x.method, x.params])).toEqual([
      ['definition→hover', 'textDocument/hover', { textDocument: { uri: 'file:///w/b.py' }, position: { line: 9, character: 4 } }],
      ['definition→references', 'textDocument/references', { textDocument: { uri: 'file:///w/b.py' }, position: { line: 9, character: 4 }, context: { includeDeclaration: true } }],
    ]);
  });

  it('references → definition and hover at the first location of the first distinct files', () => {
    const locs = [
      { uri: 'file:///w/a.py', range: range(1, 1) },
      { uri: 'file:///w/a.py', range: range(5, 1) },
      { uri: 'file:///w/c.py', range: range(3, 8) },
      { uri: 'file:///w/d.py', range: range(4, 2) },
    ];
    const p = predictNext('textDocument/references', { textDocument: { uri: 'file:///w/a.py' }, position: { line: 1, character: 1 } }, locs);
    const targets = p.map((x) => (x.params as { textDocument: { uri: string }; position: unknown }).textDocument.uri + ':' + JSON.stringify((x.params as { position: unknown }).position));
    expect(new Set(targets)).toEqual(new Set(['file:///w/a.py:{"line":1,"character":1}', 'file:///w/c.py:{"line":3,"character":8}']));
  });

  it('documentSymbol → hover of the first top-level symbols, in the same document', () => {
    const sym = (name: string, line: number) => ({ name, kind: 12, range: range(line, 0), selectionRange: range(line, 4), children: [{ name: 'inner', kind: 13, range: range(line + 1, 2), selectionRange: range(line + 1, 2) }] });
    const p = predictNext('textDocument/documentSymbol', { textDocument: { uri: 'file:///w/a.py' } }, [sym('f', 0), sym('g', 5), sym('h', 9), sym('k', 12)]);
    expect(p.map((x) => (x.params as { position: { line: number } }).position.line)).toEqual([0, 5, 9]);
    expect(p.every((x) => x.method === 'textDocument/hover' && (x.params as { textDocument: { uri: string } }).textDocument.uri === 'file:///w/a.py')).toBe(true);
  });

  it('workspace/symbol → definition and hover of the top hits; nothing from empty or null answers', () => {
    const hits = [{ name: 'A', kind: 5, location: { uri: 'file:///w/a.ts', range: range(2, 13) } }];
    expect(predictNext('workspace/symbol', { query: 'A' }, hits).map((x) => x.method)).toEqual(['textDocument/definition', 'textDocument/hover']);
    expect(predictNext('workspace/symbol', { query: 'A' }, null)).toEqual([]);
    expect(predictNext('textDocument/definition', {}, null)).toEqual([]);
    expect(predictNext('textDocument/hover', { textDocument: { uri: 'file:///a' }, position: { line: 0, character: 0 } }, null)).toEqual([]);
  });
});
