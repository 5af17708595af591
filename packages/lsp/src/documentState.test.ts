import { describe, expect, it } from 'vitest';
import { applyTextEdits } from '@agent-lsp/protocol';
import { asRangedChange, documentState, type DocumentStateHost } from './documentState.js';

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

describe('documentState: a reopen is no change for the other documents', () => {
  const HEADER = 'file:///w/person.h';
  const USER = 'file:///w/main.cpp';

  it("a push for the edited header settles though its user was reopened after it (an evaluation's dependent, built afresh)", async () => {
    const changedFor: string[] = [];
    const host: DocumentStateHost = {
      notify: () => undefined,
      changedForOthers: (uri) => void changedFor.push(uri),
      incrementalSync: () => false,
      supportsPullDiagnostics: () => false,
      exactDiagnostics: undefined,
      // The server answers no request: only a push stamped with the version can settle.
      request: () => new Promise(() => undefined),
    };
    const { documents, diagnostics } = documentState(host);
    documents.sync(USER, 'cpp', '#include "person.h"\nint main() { return Person().ageIn(1); }\n', { internal: true });
    const header = documents.sync(HEADER, 'cpp', 'struct Person { int ageIn(int year, int month) const; };\n');
    changedFor.length = 0;
    documents.reopen(USER);
    expect(changedFor, 'a reopen counted as a change of what the header sees').toEqual([]);
    diagnostics.onPublish({ uri: HEADER, version: header.version, diagnostics: [] });
    expect((await diagnostics.settle(HEADER, 1000)).settledBy).toBe('version');
  });
});
