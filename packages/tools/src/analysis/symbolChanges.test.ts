import { describe, expect, it } from 'vitest';
import { SymbolKind } from '@agent-lsp/protocol';
import { symbolChanges, type FileSide } from './symbolChanges.js';
import type { SymbolNode } from '../symbols/symbolTree.js';

/** A symbol over lines [first, last] (0-based), named on its first line. */
function sym(name: string, kind: SymbolKind, first: number, last: number, children: SymbolNode[] = []): SymbolNode {
  const node: SymbolNode = { name, kind, range: { start: { line: first, character: 0 }, end: { line: last, character: 1 } }, selectionRange: { start: { line: first, character: 9 }, end: { line: first, character: 9 + name.length } }, children };
  for (const c of children) c.parent = node;
  return node;
}

function side(tree: SymbolNode[], lines: number[]): FileSide {
  return { path: 'a.ts', text: Array.from({ length: 40 }, () => 'function x() {').join('\n'), tree, lines };
}

const names = (r: ReturnType<typeof symbolChanges>) => ({
  changed: r.changed.map((c) => `${c.node.name}${c.signature ? ' signature' : ''}`),
  added: r.added.map((s) => s.name),
  removed: r.removed.map((s) => s.name),
});

describe('symbolChanges', () => {
  it('a pure deletion removes the deleted symbol and leaves its neighbours alone', () => {
    const before = side([sym('load', SymbolKind.Function, 0, 2), sym('normalize', SymbolKind.Function, 4, 6), sym('after', SymbolKind.Function, 8, 9)], [3, 4, 5, 6]);
    const now = side([sym('load', SymbolKind.Function, 0, 2), sym('after', SymbolKind.Function, 4, 5)], []);
    expect(names(symbolChanges(before, now))).toEqual({ changed: [], added: [], removed: ['normalize'] });
  });

  it('a method removed from a class that stays is the one removal; a whole class removed is one, not one per method', () => {
    const klass = (methods: SymbolNode[], last: number) => sym('Store', SymbolKind.Class, 0, last, methods);
    const before = side([klass([sym('get', SymbolKind.Method, 1, 2), sym('put', SymbolKind.Method, 3, 4)], 5), sym('Gone', SymbolKind.Class, 7, 10, [sym('run', SymbolKind.Method, 8, 9)])], [3, 4, 7, 8, 9, 10]);
    const now = side([klass([sym('get', SymbolKind.Method, 1, 2)], 3)], []);
    expect(names(symbolChanges(before, now))).toEqual({ changed: [], added: [], removed: ['put', 'Gone'] });
  });

  it('a changed body on either side is a change of the same symbol; a new one is added; a deleted file removes all', () => {
    const before = side([sym('a', SymbolKind.Function, 0, 3), sym('b', SymbolKind.Function, 5, 7)], [6]);
    const now = side([sym('a', SymbolKind.Function, 0, 3), sym('b', SymbolKind.Function, 5, 6), sym('c', SymbolKind.Function, 8, 9)], [8, 9]);
    expect(names(symbolChanges(before, now))).toEqual({ changed: ['b'], added: ['c'], removed: [] });
    expect(names(symbolChanges(before, undefined))).toEqual({ changed: [], added: [], removed: ['a', 'b'] });
    expect(names(symbolChanges(undefined, now))).toEqual({ changed: [], added: ['a', 'b', 'c'], removed: [] });
  });
});
