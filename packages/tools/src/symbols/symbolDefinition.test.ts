import { describe, expect, it } from 'vitest';
import type { Range } from 'vscode-languageserver-protocol';
import { applyTextEdits, UserError } from '@agent-lsp/protocol';
import { classifyNewBody, symbolBodyEdit } from './symbolDefinition.js';
import type { SymbolSite } from './symbolEdits.js';
import { fileLines, symbolExtent, syntaxFamily } from './symbolText.js';

/** The site of the symbol whose header (and name) is on `nameLine` and whose range ends on `endLine` (0-based). */
function site(text: string, languageId: string, nameLine: number, endLine: number): SymbolSite {
  const { lines, eol } = fileLines(text);
  const at = (lines[nameLine] as string).search(/\S/);
  const range: Range = { start: { line: nameLine, character: at }, end: { line: endLine, character: (lines[endLine] as string).length } };
  const family = syntaxFamily(languageId);
  return { lines, eol, range, selectionRange: { start: { line: nameLine, character: at }, end: { line: nameLine, character: at + 1 } }, family, extent: symbolExtent(lines, range, family) };
}

const PY = ['class Circle:', '    # The label.', '    @property', '    def describe(self) -> str:', '        return "circle"', '', '    def area(self): return 1', ''].join('\n');
const TS = ['export class Circle {', '  describe(): string {', "    return 'circle';", '  }', '}', ''].join('\n');
const GO = ['package main', '', 'func (g Greeter) SayHello() string {', '\treturn "hi"', '}', ''].join('\n');

describe('replace_symbol_body: a whole definition or a body', () => {
  it('Python: a def of the symbol replaces the symbol from its def line, keeping the decorators; no nested duplicate', () => {
    const s = site(PY, 'python', 3, 4);
    const { edit, took } = symbolBodyEdit(s, 'describe', 'def describe(self) -> str:\n    return "round"\n');
    expect(took).toBe('definition');
    expect(applyTextEdits(PY, [edit])).toBe(PY.replace('        return "circle"', '        return "round"'));
  });

  it('Python: a definition that brings its own decorators replaces them too', () => {
    const { edit } = symbolBodyEdit(site(PY, 'python', 3, 4), 'describe', '@cached\ndef describe(self) -> str:\n    return "round"');
    expect(applyTextEdits(PY, [edit])).toBe(PY.replace('    # The label.\n    @property\n    def describe(self) -> str:\n        return "circle"', '    @cached\n    def describe(self) -> str:\n        return "round"'));
  });

  it('Python: a body (no def line) keeps the signature', () => {
    const { edit, took } = symbolBodyEdit(site(PY, 'python', 3, 4), 'describe', 'return "round"');
    expect(took).toBe('body');
    expect(applyTextEdits(PY, [edit])).toBe(PY.replace('return "circle"', 'return "round"'));
  });

  it('refuses a definition of another name, changing nothing', () => {
    expect(() => classifyNewBody(site(PY, 'python', 3, 4), 'describe', 'def summary(self):\n    return 1')).toThrow(UserError);
    expect(() => classifyNewBody(site(PY, 'python', 3, 4), 'describe', 'def summary(self):\n    return 1')).toThrow(/starts a definition of summary, not of describe/);
    expect(() => classifyNewBody(site(GO, 'go', 2, 4), 'SayHello', 'func (g Greeter) Wave() string {\n\treturn "o/"\n}')).toThrow(/not of SayHello/);
  });

  it('TypeScript: a method with its signature and braces is the definition; statements are a body', () => {
    const s = site(TS, 'typescript', 1, 3);
    const whole = symbolBodyEdit(s, 'describe', "describe(): string {\n  return 'round';\n}");
    expect(whole.took).toBe('definition');
    expect(applyTextEdits(TS, [whole.edit])).toBe(TS.replace("return 'circle';", "return 'round';"));
    expect(classifyNewBody(s, 'describe', "if (this.r > 1) {\n  return 'big';\n}\nreturn 'small';")).toBe('body');
  });

  it('Go: a func with its receiver is the definition', () => {
    const { edit, took } = symbolBodyEdit(site(GO, 'go', 2, 4), 'SayHello', 'func (g Greeter) SayHello() string {\n\treturn "hello"\n}');
    expect(took).toBe('definition');
    expect(applyTextEdits(GO, [edit])).toBe(GO.replace('"hi"', '"hello"'));
  });
});
