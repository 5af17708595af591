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
      ['position→symbols', 'textDocument/documentSymbol', { textDocument: { uri: 'file:///w/a.py' } }],
    ]);
  });

  it('references → definition and hover at the first use (in file and line order) of the first distinct files, not at the symbol asked from', () => {
    const locs = [
      { uri: 'file:///w/d.py', range: range(4, 2) },
      { uri: 'file:///w/a.py', range: range(5, 1) },
      { uri: 'file:///w/a.py', range: range(1, 1) },
      { uri: 'file:///w/c.py', range: range(3, 8) },
    ];
    const p = predictNext('textDocument/references', { textDocument: { uri: 'file:///w/a.py' }, position: { line: 1, character: 1 } }, locs);
    const targets = p.map((x) => (x.params as { textDocument: { uri: string }; position: unknown }).textDocument.uri + ':' + JSON.stringify((x.params as { position: unknown }).position));
    expect(new Set(targets)).toEqual(new Set(['file:///w/a.py:{"line":5,"character":1}', 'file:///w/c.py:{"line":3,"character":8}']));
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

  it('diagnostic pull → code action listings over the first diagnostics by position (and the first error), with the diagnostics overlapping each, in server order', () => {
    const d = (line: number, character: number, severity: number, message: string) => ({ range: range(line, character), severity, message });
    const items = [d(9, 0, 1, 'late error'), d(2, 4, 2, 'warning'), d(2, 5, 3, 'overlapping hint'), d(1, 0, 2, 'first')];
    const all = predictNext('textDocument/diagnostic', { textDocument: { uri: 'file:///w/a.py' } }, { kind: 'full', items });
    expect(all.filter((x) => x.rule === 'diagnostics→hover').map((x) => x.params)).toEqual([
      { textDocument: { uri: 'file:///w/a.py' }, position: { line: 1, character: 0 } },
      { textDocument: { uri: 'file:///w/a.py' }, position: { line: 2, character: 4 } },
    ]);
    const p = all.filter((x) => x.rule === 'diagnostics→code actions');
    expect(p).toHaveLength(3);
    expect(p.map((x) => x.params)).toEqual([
      { textDocument: { uri: 'file:///w/a.py' }, range: range(1, 0), context: { diagnostics: [items[3]], triggerKind: 1 } },
      { textDocument: { uri: 'file:///w/a.py' }, range: range(2, 4), context: { diagnostics: [items[1], items[2]], triggerKind: 1 } },
      { textDocument: { uri: 'file:///w/a.py' }, range: range(9, 0), context: { diagnostics: [items[0]], triggerKind: 1 } },
    ]);
    expect(predictNext('textDocument/diagnostic', { textDocument: { uri: 'file:///w/a.py' } }, { kind: 'unchanged', resultId: 'x' })).toEqual([]);
  });

  it('documentSymbol → hover of the innermost non-local symbol around where the agent last stood in that document', () => {
    const cls = { name: 'C', kind: 5, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } }, selectionRange: range(0, 6), children: [
      { name: 'm', kind: 6, range: { start: { line: 4, character: 2 }, end: { line: 10, character: 0 } }, selectionRange: range(4, 6), children: [
        { name: 'local', kind: 13, range: range(6, 4), selectionRange: range(6, 4) },
      ] },
    ] };
    const context = { lastPosition: (uri: string) => (uri === 'file:///w/a.py' ? { line: 6, character: 8 } : undefined) };
    const p = predictNext('textDocument/documentSymbol', { textDocument: { uri: 'file:///w/a.py' } }, [cls], context);
    expect(p[0]).toMatchObject({ rule: 'symbols→enclosing hover', method: 'textDocument/hover', params: { textDocument: { uri: 'file:///w/a.py' }, position: { line: 4, character: 6 } } });
    expect(predictNext('textDocument/documentSymbol', { textDocument: { uri: 'file:///w/b.py' } }, [cls], context).some((x) => x.rule === 'symbols→enclosing hover')).toBe(false);
  });
});
