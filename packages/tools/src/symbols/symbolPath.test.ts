import { describe, expect, it } from 'vitest';
import type { DocumentSymbol, SymbolInformation, SymbolKind } from 'vscode-languageserver-protocol';
import { closeMatches, innermostAt, modulePrefixes, parseSymbolPath, qualifiedName, resolveSymbolPath, symbolTree } from './symbolPath.js';

const range = (l0: number, l1: number) => ({ start: { line: l0, character: 0 }, end: { line: l1, character: 1 } });
const sym = (name: string, kind: SymbolKind, l0: number, l1: number, children: DocumentSymbol[] = []): DocumentSymbol => ({
  name,
  kind,
  range: range(l0, l1),
  selectionRange: { start: { line: l0, character: 4 }, end: { line: l0, character: 4 + name.length } },
  children,
});

const TREE = symbolTree([
  sym('Circle', 5, 0, 10, [sym('area', 6, 1, 3), sym('describe', 6, 4, 6)]),
  sym('Square', 5, 11, 15, [sym('area', 6, 12, 14)]),
  sym('outer', 12, 16, 20, [sym('inner', 12, 17, 19)]),
]);

describe('symbol paths', () => {
  it('parses file-qualified, dotted and C++ paths', () => {
    expect(parseSymbolPath('pkg/file.ts:Ns.fn')).toEqual({ file: 'pkg/file.ts', segments: ['Ns', 'fn'] });
    expect(parseSymbolPath('Class.method')).toEqual({ file: undefined, segments: ['Class', 'method'] });
    expect(parseSymbolPath('ns::Widget::draw')).toEqual({ file: undefined, segments: ['ns', 'Widget', 'draw'] });
  });

  it('resolves Class.method and nested functions exactly, and a bare name to every match', () => {
    expect(resolveSymbolPath(TREE, ['Circle', 'area']).map((m) => [qualifiedName(m.node), m.rank])).toEqual([['Circle.area', 0]]);
    expect(resolveSymbolPath(TREE, ['outer', 'inner']).map((m) => qualifiedName(m.node))).toEqual(['outer.inner']);
    expect(resolveSymbolPath(TREE, ['area']).map((m) => [qualifiedName(m.node), m.rank])).toEqual([['Circle.area', 1], ['Square.area', 1]]);
    expect(resolveSymbolPath(TREE, ['Circle', 'nope'])).toEqual([]);
  });

  it('accepts a leading module name', () => {
    const prefixes = modulePrefixes('app/geometry.py');
    expect(prefixes).toEqual(['app.geometry', 'geometry', 'app']);
    expect(resolveSymbolPath(TREE, ['app', 'geometry', 'outer'], prefixes).map((m) => [qualifiedName(m.node), m.rank])).toEqual([['outer', 0]]);
    expect(modulePrefixes('pkg/__init__.py')).toEqual(['pkg']);
  });

  it('nests flat SymbolInformation by range and adopts Go receivers', () => {
    const info = (name: string, kind: SymbolKind, l0: number, l1: number): SymbolInformation => ({ name, kind, location: { uri: 'file:///a.go', range: range(l0, l1) } });
    const tree = symbolTree([info('Rect', 23, 0, 3), info('(*Rect).Area', 6, 5, 7), info('helper', 12, 8, 9)]);
    expect(resolveSymbolPath(tree, ['Rect', 'Area']).map((m) => qualifiedName(m.node))).toEqual(['Rect.Area']);
    expect(tree.map((n) => n.name)).toEqual(['Rect', 'helper']);
  });

  it('finds a Go method at a position below its type, whose range it lies outside of once adopted', () => {
    // gopls's own shape (go/token/position.go): the type's one line, then a method of it below.
    const tree = symbolTree([sym('Pos', 23, 82, 82), sym('NoPos', 14, 88, 88), sym('(Pos).IsValid', 6, 91, 93)]);
    expect(qualifiedName(innermostAt(tree, { line: 91, character: 13 }) as never)).toBe('Pos.IsValid');
    expect(qualifiedName(innermostAt(tree, { line: 82, character: 0 }) as never)).toBe('Pos');
    expect(innermostAt(tree, { line: 90, character: 0 })).toBeUndefined();
  });

  it('reads an out-of-line C++ definition as its class member', () => {
    const tree = symbolTree([sym('ns', 3, 0, 9, [sym('Widget::draw', 6, 1, 3)])]);
    expect(resolveSymbolPath(tree, parseSymbolPath('ns::Widget::draw').segments).map((m) => m.rank)).toEqual([0]);
    expect(resolveSymbolPath(tree, ['Widget', 'draw']).map((m) => m.rank)).toEqual([1]);
  });

  it('names close matches and finds the innermost symbol at a position', () => {
    expect(closeMatches(TREE, ['Circle', 'aera'])).toContain('Circle.area');
    expect(qualifiedName(innermostAt(TREE, { line: 2, character: 3 }) as never)).toBe('Circle.area');
    expect(qualifiedName(innermostAt(TREE, { line: 18, character: 0 }) as never)).toBe('outer.inner');
    expect(innermostAt(TREE, { line: 30, character: 0 })).toBeUndefined();
  });
});
