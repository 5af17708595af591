import { describe, expect, it } from 'vitest';
import { LineSplitter, OutputCap } from './outputCap.js';

describe('OutputCap', () => {
  it('keeps everything while it fits', () => {
    const cap = new OutputCap(10, 10);
    cap.push('hello ');
    cap.push('world');
    expect(cap.text()).toBe('hello world');
    expect(cap.truncated).toBe(false);
  });

  it('keeps the head and the tail and says how much was left out', () => {
    const cap = new OutputCap(5, 5);
    for (let i = 0; i < 100; i++) cap.push(`${i % 10}`);
    expect(cap.text()).toBe('01234\n… 90 characters omitted …\n56789');
    expect(cap.truncated).toBe(true);
    expect(cap.totalChars).toBe(100);
  });
});

describe('LineSplitter', () => {
  it('joins a line that arrives in pieces and flushes the last one', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    s.push('a\nb');
    s.push('c\n');
    s.push('d');
    s.flush();
    expect(lines).toEqual(['a', 'bc', 'd']);
  });
});
