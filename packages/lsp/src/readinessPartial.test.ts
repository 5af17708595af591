import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.js';

// An answer is computed at some moment between the question and the answer: what the index missed
// at any moment in between is what the answer may miss (clangd built a file it had given up on
// while a find_callers still waited for another part of its answer, which said complete with the
// file's old positions).
describe('what a partial index missed since a question was let through', () => {
  it('is the partial of the moment the question was let through, when the index became whole meanwhile', () => {
    const readiness = new Readiness();
    readiness.ready('clangd did not build a.c');
    const asked = readiness.partialMark();
    readiness.ready();
    expect(readiness.snapshot().partial).toBeUndefined();
    expect(readiness.partialSince(asked)).toBe('clangd did not build a.c');
  });

  it('is the partial of a moment in between, and the current one', () => {
    const readiness = new Readiness();
    readiness.ready();
    const asked = readiness.partialMark();
    expect(readiness.partialSince(asked)).toBeUndefined();
    readiness.indexing();
    readiness.ready('given up on b.c');
    expect(readiness.partialSince(asked)).toBe('given up on b.c');
    readiness.indexing();
    readiness.ready();
    expect(readiness.partialSince(asked)).toBe('given up on b.c');
  });

  it('is nothing for a question let through after the index became whole', () => {
    const readiness = new Readiness();
    readiness.ready('partial');
    readiness.ready();
    expect(readiness.partialSince(readiness.partialMark())).toBeUndefined();
  });
});
