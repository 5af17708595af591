import { describe, expect, it } from 'vitest';
import type { DocumentSymbol, Range } from 'vscode-languageserver-protocol';
import { changedDeclarations, declarationsOf, headOf, usedName } from './declarations.js';
import { minimalEdits } from './textLocation.js';

const r = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

const PY = [
  'def force_str(s, encoding="utf-8",', // 0
  '              errors="strict") -> str:', // 1
  '    return str(s)', // 2
  '', // 3
  'class cached_property:', // 4
  '    def __init__(self, func, name=None):', // 5
  '        self.func = func', // 6
  '', // 7
].join('\n');

const SYMBOLS: DocumentSymbol[] = [
  // pyright lists a function's parameters as its children: nothing outside uses them by name.
  { name: 'force_str', kind: 12, range: r(0, 0, 2, 17), selectionRange: r(0, 4, 0, 13), children: [{ name: 'errors', kind: 13, range: r(1, 14, 1, 29), selectionRange: r(1, 14, 1, 20) }] },
  { name: 'cached_property', kind: 5, range: r(4, 0, 6, 24), selectionRange: r(4, 6, 4, 21), children: [{ name: '__init__', kind: 6, range: r(5, 4, 6, 24), selectionRange: r(5, 8, 5, 16) }] },
];

const changedBy = (oldText: string, newText: string) =>
  changedDeclarations(declarationsOf(SYMBOLS), PY, minimalEdits(PY, PY.replace(oldText, newText)).map((e) => e.range)).map((d) => `${d.container ? `${d.container}.` : ''}${d.name}`);

describe('changed declarations: what an edit changes that other files may use', () => {
  it('a head runs to the line where the brackets opened after the name close', () => {
    const [forceStr] = declarationsOf(SYMBOLS);
    expect(forceStr && headOf(PY.split('\n'), forceStr)).toEqual(r(0, 0, 1, 38));
  });

  it('a parameter made required, on the continuation line of the signature, changes the function', () => {
    expect(changedBy('errors="strict"', 'errors')).toEqual(['force_str']);
  });

  it('a rename changes it; a body edit does not', () => {
    expect(changedBy('def force_str', 'def force_text')).toEqual(['force_str']);
    expect(changedBy('return str(s)', 'return repr(s)')).toEqual([]);
  });

  it('a member\'s signature changes the member (and only it), used through its class when it is special', () => {
    const changed = declarationsOf(SYMBOLS).filter((d) => changedBy('name=None', 'name').includes(`${d.container ? `${d.container}.` : ''}${d.name}`));
    expect(changed.map((d) => d.name)).toEqual(['__init__']);
    expect(changed.map(usedName)).toEqual(['cached_property']);
  });

  it('a line inserted above a declaration does not change it', () => {
    expect(changedBy('class cached_property:', 'X = 1\nclass cached_property:')).toEqual([]);
  });

  it('uses the last identifier of a qualified name, as gopls gives methods', () => {
    expect(usedName({ name: '(*File).Pos', range: r(0, 0, 0, 0), selectionRange: r(0, 0, 0, 0) })).toBe('Pos');
  });
});
