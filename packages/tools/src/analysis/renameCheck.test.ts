import { describe, expect, it } from 'vitest';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { editsByUri, identifierAt, uncoveredOccurrences } from './renameCheck.js';
import { firstHunks } from '../output/writeResult.js';

const edit = (line: number, character: number, length: number, newText = 'renamed'): TextEdit => ({ range: { start: { line, character }, end: { line, character: character + length } }, newText });

describe('the rename scan', () => {
  const header = ['int counter_value(int x);', '#define TWICE(x) (counter_value(x) * 2)', 'int counter_values; /* counter_value */', ''].join('\n');

  it('finds the word-bounded uses no edit covers (a macro body, a comment), not longer names', () => {
    const found = uncoveredOccurrences(header, 'counter_value', [edit(0, 4, 13)]);
    expect(found).toEqual([
      { line: 1, character: 18 },
      { line: 2, character: 23 },
    ]);
    expect(uncoveredOccurrences(header, 'counter_value', [edit(0, 4, 13), edit(1, 18, 13), edit(2, 23, 13)])).toEqual([]);
  });

  it('takes the identifier around a position, and edits from both WorkspaceEdit forms', () => {
    expect(identifierAt(header, { line: 1, character: 20 })).toBe('counter_value');
    expect(identifierAt(header, { line: 1, character: 0 })).toBe(undefined);
    const byUri = editsByUri({ changes: { 'file:///a': [edit(0, 0, 1)] }, documentChanges: [{ textDocument: { uri: 'file:///a', version: 1 }, edits: [edit(1, 0, 1)] }] });
    expect(byUri.get('file:///a')).toHaveLength(2);
  });
});

describe('firstHunks', () => {
  it('cuts a long diff at a hunk boundary and counts the lines left out', () => {
    const hunk = (n: number) => `@@ -${n},1 +${n},1 @@\n-old ${n}\n+new ${n}\n`;
    const diff = `--- a/f\n+++ b/f\n${[1, 2, 3, 4].map(hunk).join('')}`;
    const { shown, omittedLines } = firstHunks(diff, 60);
    expect(shown.endsWith('+new 1\n')).toBe(true);
    expect(omittedLines).toBe(9);
    expect(firstHunks(diff, 10_000)).toEqual({ shown: diff, omittedLines: 0 });
  });
});
