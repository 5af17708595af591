import { describe, expect, it } from 'vitest';
import { lineWindow } from './lineWindow.js';

const text = 'alpha\nbeta gamma\ndelta\n';

describe('lineWindow', () => {
  it('is whole lines without columns, the last one to its end', () => {
    const w = lineWindow(text, { start_line: 2, end_line: 3 }, 'f');
    expect(w.range).toEqual({ start: { line: 1, character: 0 }, end: { line: 2, character: 5 } });
    expect([w.includes(1, 1), w.includes(2, 1), w.includes(3, 6), w.includes(4, 1)]).toEqual([false, true, true, false]);
  });

  it("narrows the first and last line by the original's range columns (end exclusive)", () => {
    const w = lineWindow(text, { start_line: 2, start_column: 6, end_line: 3, end_column: 3 }, 'f');
    expect(w.range).toEqual({ start: { line: 1, character: 5 }, end: { line: 2, character: 2 } });
    expect([w.includes(2, 5), w.includes(2, 6), w.includes(3, 2), w.includes(3, 3)]).toEqual([false, true, true, false]);
  });

  it("clamps a column past the end of its line to the line's end, and leaves end_column out when end_line is past the file", () => {
    const w = lineWindow(text, { start_line: 1, start_column: 40, end_line: 25, end_column: 1 }, 'f');
    expect(w.range.start).toEqual({ line: 0, character: 5 });
    expect(w.last).toBe(4);
    expect(w.includes(3, 1)).toBe(true);
  });
});
