import { describe, expect, it } from 'vitest';
import type { Range } from 'vscode-languageserver-protocol';
import { applyTextEdits } from '@agent-lsp/protocol';
import { deleteEdit, insertEdit, replaceBodyEdit, type SymbolSite } from './symbolEdits.js';
import { fileLines, symbolExtent, syntaxFamily } from './symbolText.js';

/** The site of the symbol whose name is on `nameLine` (0-based) and whose range ends on `endLine`. */
function site(text: string, languageId: string, startLine: number, nameLine: number, endLine: number): SymbolSite {
  const { lines, eol } = fileLines(text);
  const nameAt = (lines[nameLine] as string).search(/\S/);
  const range: Range = { start: { line: startLine, character: (lines[startLine] as string).search(/\S/) }, end: { line: endLine, character: (lines[endLine] as string).length } };
  const selectionRange: Range = { start: { line: nameLine, character: nameAt }, end: { line: nameLine, character: nameAt + 1 } };
  const family = syntaxFamily(languageId);
  return { lines, eol, range, selectionRange, family, extent: symbolExtent(lines, range, family) };
}

const PY = ['class A:', '    x = 1', '', '    # Cached.', '    @cache', '    def f(', '        self,', '    ) -> int:', '        """Doc."""', '        return 1', '', '    def g(self): return 2', ''].join('\n');

describe('symbol edits on Python', () => {
  it('extends the symbol to its comment and decorators', () => {
    expect(site(PY, 'python', 5, 5, 9).extent).toEqual({ start: 3, end: 9 });
  });

  it('replaces the body after a multi-line header, re-indented', () => {
    const out = applyTextEdits(PY, [replaceBodyEdit(site(PY, 'python', 5, 5, 9), 'y = 2\nreturn y')]);
    expect(out).toBe(PY.replace('        """Doc."""\n        return 1', '        y = 2\n        return y'));
  });

  it('turns a one-line body into lines', () => {
    const out = applyTextEdits(PY, [replaceBodyEdit(site(PY, 'python', 11, 11, 11), 'return 3')]);
    expect(out).toBe(PY.replace('def g(self): return 2', 'def g(self):\n        return 3'));
  });

  it('inserts above the comment and deletes with decorators, closing the gap', () => {
    const s = site(PY, 'python', 5, 5, 9);
    expect(applyTextEdits(PY, [insertEdit(s, 'def e(self):\n    pass', 'before')])).toBe(PY.replace('    # Cached.', '    def e(self):\n        pass\n\n    # Cached.'));
    expect(applyTextEdits(PY, [deleteEdit(s)])).toBe(['class A:', '    x = 1', '', '    def g(self): return 2', ''].join('\n'));
  });
});

const TS = ['export class A {', '  /** Doc. */', '  @dec()', '  f(): number {', '    return 1;', '  }', '}', ''].join('\r\n');

describe('symbol edits on brace languages', () => {
  it('replaces between the braces, keeping CRLF', () => {
    const s = site(TS, 'typescript', 2, 3, 5);
    expect(s.extent).toEqual({ start: 1, end: 5 });
    expect(applyTextEdits(TS, [replaceBodyEdit(s, 'const x = 2;\nreturn x;')])).toBe(TS.replace('    return 1;', '    const x = 2;\r\n    return x;'));
  });

  it('gives a declaration after a macro on its line (C\'s SQLITE_API) the comment above it, not one after code', () => {
    const c = ['/*', '** Opens a database.', '*/', 'SQLITE_API int sqlite3_open(', '  const char *filename', ');', 'int a; int b;', ''].join('\n');
    const { lines } = fileLines(c);
    const at = (line: number, column: number): Range => ({ start: { line, character: column }, end: { line, character: column + 5 } });
    expect(symbolExtent(lines, { ...at(3, 11), end: { line: 5, character: 2 } }, 'braces')).toEqual({ start: 0, end: 5 });
    expect(symbolExtent(lines, at(6, 7), 'braces')).toEqual({ start: 6, end: 6 });
  });

  it('finds the body brace after a return type with braces', () => {
    const text = 'function f(): { a: number } {\n  return { a: 1 };\n}\n';
    const out = applyTextEdits(text, [replaceBodyEdit(site(text, 'typescript', 0, 0, 2), 'return { a: 2 };')]);
    expect(out).toBe('function f(): { a: number } {\n  return { a: 2 };\n}\n');
  });

  it('deletes the doc comment and decorator with the method, and inserts after it', () => {
    const s = site(TS, 'typescript', 2, 3, 5);
    expect(applyTextEdits(TS, [deleteEdit(s)])).toBe(['export class A {', '}', ''].join('\r\n'));
    expect(applyTextEdits(TS, [insertEdit(s, 'g() {}', 'after')])).toBe(TS.replace('  }\r\n}', '  }\r\n\r\n  g() {}\r\n}'));
  });
});
