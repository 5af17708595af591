import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNodeTest } from './nodeTest.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');

describe('parseNodeTest on real node --test (TAP) output', () => {
  it('gives failed tests (not the suite that failed through them) at the failing line', () => {
    expect(parseNodeTest(captured('nodetest.txt'), { cwd: '/tmp/cap/js' })).toEqual([
      { test_id: 'add > adds wrongly', file: '/tmp/cap/js/src/calc.test.mjs', line: 10, column: 12, message: 'Expected values to be strictly equal:\n3 !== 4' },
      { test_id: 'throws', file: '/tmp/cap/js/src/calc.test.mjs', line: 15, column: 9, message: 'boom' },
    ]);
  });

  it('reads the spec reporter\'s list of failing tests the same way', () => {
    expect(parseNodeTest(captured('nodetest_spec.txt'), { cwd: '/tmp/cap/js' })).toEqual([
      { test_id: 'adds wrongly', file: '/tmp/cap/js/src/calc.test.mjs', line: 10, column: 12, message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n3 !== 4' },
      { test_id: 'throws', file: '/tmp/cap/js/src/calc.test.mjs', line: 15, column: 9, message: 'Error: boom' },
    ]);
  });

  it('finds nothing in vitest output', () => {
    expect(parseNodeTest(captured('vitest.txt'), { cwd: '/tmp/cap/js' })).toEqual([]);
  });
});
