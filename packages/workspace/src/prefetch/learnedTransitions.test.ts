import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerStatus, LearnedTransitions } from './learnedTransitions.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempFile(): string {
  const d = mkdtempSync(join(tmpdir(), 'prefetch-transitions-'));
  dirs.push(d);
  return join(d, 'nested', 'transitions.json');
}

describe('LearnedTransitions', () => {
  it('learns what follows an answer, by its status, once seen often enough', () => {
    const t = new LearnedTransitions();
    for (let i = 0; i < 6; i++) {
      t.observe('textDocument/definition', 'some');
      t.observe(i % 3 === 0 ? 'textDocument/references' : 'textDocument/hover', 'some');
    }
    expect(t.probability('textDocument/definition', 'some', 'textDocument/hover')).toBeCloseTo(4 / 6);
    expect(t.probability('textDocument/definition', 'some', 'textDocument/references')).toBeCloseTo(2 / 6);
    expect(t.probability('textDocument/definition', 'empty', 'textDocument/hover')).toBeUndefined();
    // hover → definition was seen 3 times: too few to say anything yet.
    expect(t.probability('textDocument/hover', 'some', 'textDocument/definition')).toBeUndefined();
  });

  it('keeps its counts across runs in its file, and ignores a corrupt file', () => {
    const file = tempFile();
    const t = new LearnedTransitions(file);
    for (let i = 0; i < 5; i++) {
      t.observe('workspace/symbol', 'some');
      t.observe('textDocument/definition', 'some');
    }
    t.save();
    expect(new LearnedTransitions(file).probability('workspace/symbol', 'some', 'textDocument/definition')).toBe(1);
    writeFileSync(file, '{"a": {"b": "x"}}');
    expect(new LearnedTransitions(file).probability('a', 'some', 'b')).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toContain('"x"');
  });

  it('tells empty answers from others', () => {
    expect([answerStatus(null), answerStatus([]), answerStatus([1]), answerStatus({ contents: '' })]).toEqual(['empty', 'empty', 'some', 'some']);
  });
});
