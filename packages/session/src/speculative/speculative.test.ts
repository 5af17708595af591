import { describe, expect, it } from 'vitest';
import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits } from '@agent-lsp/protocol';
import { diffDiagnostics } from './diagnosticDiff.js';
import { addEditedRegion, mapRange } from './rangeMapping.js';
import { minimalEdits, positionAt, rangeOfText } from './textLocation.js';

const range = (l1: number, c1: number, l2: number, c2: number): Range => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const diag = (r: Range, message: string, severity: 1 | 2 = 1): Diagnostic => ({ range: r, message, severity, source: 'test' });

/** Applies edits one by one the way a session does, keeping the history and the edited regions. */
function session(text: string, ...edits: TextEdit[]) {
  let regions: Range[] = [];
  for (const e of edits) {
    text = applyTextEdits(text, [e]);
    regions = addEditedRegion(regions, e);
  }
  return { text, edits, regions };
}

describe('mapRange', () => {
  it('moves a range down by the lines inserted above it, and along by text inserted before it on its line', () => {
    const insertLines: TextEdit = { range: range(0, 0, 0, 0), newText: '# a\n# b\n' };
    expect(mapRange(range(3, 4, 3, 9), [insertLines])).toEqual(range(5, 4, 5, 9));
    const insertOnLine: TextEdit = { range: range(3, 0, 3, 2), newText: 'abcd' };
    expect(mapRange(range(3, 4, 3, 9), [insertOnLine])).toEqual(range(3, 6, 3, 11));
  });

  it('gives undefined for a range an edit wrote over, and keeps ranges that only touch an insertion point outside', () => {
    expect(mapRange(range(2, 0, 2, 10), [{ range: range(2, 3, 2, 5), newText: 'x' }])).toBeUndefined();
    // ends exactly where text is inserted: the insertion lands after it
    expect(mapRange(range(2, 0, 2, 4), [{ range: range(2, 4, 2, 4), newText: 'xyz' }])).toEqual(range(2, 0, 2, 4));
    // starts exactly where text is inserted: it moves past the insertion
    expect(mapRange(range(2, 4, 2, 8), [{ range: range(2, 4, 2, 4), newText: 'xyz' }])).toEqual(range(2, 7, 2, 11));
  });

  it('follows several edits in order, deletions included', () => {
    const edits: TextEdit[] = [
      { range: range(0, 0, 0, 0), newText: 'new\n' },
      { range: range(1, 0, 3, 0), newText: '' },
    ];
    expect(mapRange(range(5, 1, 5, 3), edits)).toEqual(range(4, 1, 4, 3));
  });
});

describe('addEditedRegion', () => {
  it('shifts earlier regions below a new edit and merges those it touches', () => {
    let regions = addEditedRegion([], { range: range(5, 0, 5, 3), newText: 'abc' });
    expect(regions).toEqual([range(5, 0, 5, 3)]);
    regions = addEditedRegion(regions, { range: range(0, 0, 0, 0), newText: 'x\n' });
    expect(regions).toEqual([range(0, 0, 1, 0), range(6, 0, 6, 3)]);
    regions = addEditedRegion(regions, { range: range(6, 2, 6, 5), newText: 'ZZZZ' });
    expect(regions).toEqual([range(0, 0, 1, 0), range(6, 0, 6, 6)]);
  });
});

describe('diffDiagnostics', () => {
  const base = 'a\nb\nc = wrong\n';
  const error = diag(range(2, 4, 2, 9), 'bad type');

  it('reports nothing when an error only moved down because lines were inserted above it', () => {
    const s = session(base, { range: range(0, 0, 0, 0), newText: '# one\n# two\n' });
    expect(diffDiagnostics([error], s.edits, [diag(range(4, 4, 4, 9), 'bad type')], s.regions)).toEqual({ introduced: [], resolved: [] });
  });

  it('counts a second identical error on another line as one introduced', () => {
    const s = session(base, { range: range(1, 0, 1, 1), newText: 'b = wrong' });
    const second = diag(range(1, 4, 1, 9), 'bad type');
    expect(diffDiagnostics([error], s.edits, [second, diag(range(2, 4, 2, 9), 'bad type')], s.regions)).toEqual({ introduced: [second], resolved: [] });
  });

  it('counts an identical error far from any edit as introduced, not as the old one', () => {
    const s = session('x\n'.repeat(20), { range: range(0, 0, 0, 1), newText: 'y' });
    const old = diag(range(5, 0, 5, 1), 'dup');
    const fresh = diag(range(15, 0, 15, 1), 'dup');
    expect(diffDiagnostics([old], s.edits, [fresh], s.regions)).toEqual({ introduced: [fresh], resolved: [old] });
  });

  it('matches an error on edited text without its range (the edit reshaped the expression)', () => {
    const s = session(base, { range: range(2, 4, 2, 9), newText: 'still_wrong' });
    expect(diffDiagnostics([error], s.edits, [diag(range(2, 4, 2, 15), 'bad type')], s.regions)).toEqual({ introduced: [], resolved: [] });
  });

  it('reports a fixed error as resolved and a new one as introduced, with warnings kept apart by severity', () => {
    const s = session(base, { range: range(2, 4, 2, 9), newText: '1' });
    const warning = diag(range(0, 0, 0, 1), 'unused', 2);
    const out = diffDiagnostics([error], s.edits, [warning], s.regions);
    expect(out).toEqual({ introduced: [warning], resolved: [error] });
  });
});

describe('text locations and minimal edits', () => {
  it('finds old_text once and refuses zero or several matches', () => {
    expect(rangeOfText('ab\ncd\ncd', 'b\nc', 'f')).toEqual(range(0, 1, 1, 1));
    expect(() => rangeOfText('abc', 'x', 'f')).toThrow(/does not occur/);
    expect(() => rangeOfText('cd cd', 'cd', 'f')).toThrow(/more than once/);
  });

  it('counts \\r\\n as one line end', () => {
    expect(positionAt('a\r\nb', 3)).toEqual({ line: 1, character: 0 });
  });

  it('gives one edit per changed block that reproduces the new text', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\n';
    const after = 'ONE\ntwo\nthree\nfour\nFIVE\nsix';
    const edits = minimalEdits(before, after);
    expect(edits).toHaveLength(2);
    expect(applyTextEdits(before, edits)).toBe(after);
    expect(minimalEdits(before, before)).toEqual([]);
  });
});
