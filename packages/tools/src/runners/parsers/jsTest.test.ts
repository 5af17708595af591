import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJsTest } from './jsTest.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');
const ctx = { cwd: '/tmp/cap/vt' };
const expected = [
  { test_id: 'src/calc.test.ts > add > adds wrongly', file: '/tmp/cap/vt/src/calc.test.ts', line: 9, column: 23, message: 'AssertionError: expected 3 to be 4 // Object.is equality' },
  { test_id: 'src/calc.test.ts > throws', file: '/tmp/cap/vt/src/calc.test.ts', line: 14, column: 9, message: 'Error: boom' },
];

describe('parseJsTest on real vitest output', () => {
  it('gives each failed test with the line of its failing expectation', () => {
    expect(parseJsTest(captured('vitest.txt'), ctx)).toEqual(expected);
  });

  it('reads the coloured output the same', () => {
    expect(parseJsTest(captured('vitest_color.txt'), ctx)).toEqual(expected);
  });

  it('reads jest output the same way (suite › test, the frame in the test file)', () => {
    expect(parseJsTest(captured('jest.txt'), { cwd: '/tmp/cap/jest' })).toEqual([
      { test_id: 'src/calc.test.js > add > adds wrongly', file: '/tmp/cap/jest/src/calc.test.js', line: 8, column: 23, message: 'expect(received).toBe(expected) // Object.is equality' },
      { test_id: 'src/calc.test.js > throws', file: '/tmp/cap/jest/src/calc.test.js', line: 13, column: 9, message: 'boom' },
    ]);
  });

  it('finds nothing in node:test output', () => {
    expect(parseJsTest(captured('nodetest.txt'), ctx)).toEqual([]);
  });
});
