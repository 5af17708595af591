import { describe, expect, it } from 'vitest';
import { applyTextEdits } from '@agent-lsp/protocol';
import { asRangedChange } from './documentState.js';

describe('asRangedChange', () => {
  const change = (text: string) => ({ textDocument: { uri: 'file:///a.ts', version: 2 }, contentChanges: [{ text }] });

  it('replaces the previous text up to its very end, never a line past it', () => {
    const previous = 'import { area } from "./shapes";\n\nconsole.log(area(3, 4));\n';
    const ranged = asRangedChange(change('x\n'), previous);
    const [c] = ranged.contentChanges;
    expect(c).toEqual({ range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } }, text: 'x\n' });
    expect(ranged.textDocument).toEqual({ uri: 'file:///a.ts', version: 2 });
  });

  it('ends inside the last line when the text has no final newline, in UTF-16 units', () => {
    const previous = 'a\r\nb😀';
    const [c] = asRangedChange(change('new'), previous).contentChanges;
    if (!c || !('range' in c)) throw new Error('no ranged change');
    expect(c.range.end).toEqual({ line: 1, character: 3 });
    expect(applyTextEdits(previous, [{ range: c.range, newText: 'new' }])).toBe('new');
  });
});
