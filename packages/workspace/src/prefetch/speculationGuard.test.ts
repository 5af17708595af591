import { describe, expect, it } from 'vitest';
import { predictNext } from './predictionRules.js';
import { canSpeculate, SPECULATABLE_METHODS } from './speculationGuard.js';

const WRITES = [
  'textDocument/rename',
  'textDocument/formatting',
  'textDocument/rangeFormatting',
  'textDocument/onTypeFormatting',
  'workspace/executeCommand',
  'workspace/applyEdit',
  'codeAction/resolve',
  'workspace/willRenameFiles',
  'textDocument/willSaveWaitUntil',
  'textDocument/didChange',
  'textDocument/didOpen',
  'workspace/didChangeWatchedFiles',
  'shutdown',
  'exit',
];

describe('canSpeculate', () => {
  it('refuses every method that edits, executes, formats or renames', () => {
    for (const m of WRITES) expect(canSpeculate(m), m).toBe(false);
  });

  it('refuses unknown methods, including near misses of allowed names', () => {
    for (const m of ['', 'textDocument/Hover', 'textDocument/hover ', 'custom/read', 'textDocument/completion', 'textDocument/codeAction/resolve']) expect(canSpeculate(m), m).toBe(false);
  });

  it('allows exactly the read-only queries of the allow-list', () => {
    for (const m of ['textDocument/hover', 'textDocument/definition', 'textDocument/references', 'workspace/symbol', 'callHierarchy/incomingCalls', 'textDocument/inlayHint']) expect(canSpeculate(m)).toBe(true);
    for (const m of SPECULATABLE_METHODS) expect(m).not.toMatch(/\/rename$|format|execute|apply|resolve|\/did|\/will/i);
  });

  it('no prediction rule, whatever answer it reads, names a method outside the allow-list', () => {
    const loc = { uri: 'file:///a.ts', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } } };
    const answers: [string, unknown, unknown][] = [
      ['textDocument/definition', { textDocument: { uri: 'file:///b.ts' }, position: { line: 0, character: 0 } }, [loc, loc]],
      ['textDocument/references', { textDocument: { uri: 'file:///b.ts' }, position: { line: 0, character: 0 } }, [loc]],
      ['textDocument/documentSymbol', { textDocument: { uri: 'file:///a.ts' } }, [{ name: 'x', kind: 12, range: loc.range, selectionRange: loc.range }]],
      ['workspace/symbol', { query: 'x' }, [{ name: 'x', kind: 12, location: loc }]],
      ['textDocument/hover', { textDocument: { uri: 'file:///a.ts' }, position: { line: 1, character: 2 } }, { contents: 'x' }],
      ['textDocument/rename', { textDocument: { uri: 'file:///a.ts' }, position: { line: 1, character: 2 }, newName: 'y' }, { changes: {} }],
    ];
    for (const [method, params, result] of answers) {
      for (const p of predictNext(method, params, result)) expect(canSpeculate(p.method), `${p.rule} → ${p.method}`).toBe(true);
    }
  });
});
