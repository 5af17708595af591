import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUnittest } from './unittest.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');
const ctx = { cwd: '/tmp/cap/py' };

describe('parseUnittest on real unittest output', () => {
  it('gives errors and failures with the test method line and the exception line', () => {
    expect(parseUnittest(captured('unittest.txt'), ctx)).toEqual([
      { test_id: 'tests.test_ops.TestOps.test_div_zero', file: '/tmp/cap/py/tests/test_ops.py', line: 18, message: 'ZeroDivisionError: division by zero' },
      { test_id: 'tests.test_ops.TestOps.test_add_wrong', file: '/tmp/cap/py/tests/test_ops.py', line: 15, message: 'AssertionError: 3 != 4' },
    ]);
  });

  it('reports a module that failed to import at its line in the workspace, not in the stdlib loader', () => {
    const failures = parseUnittest(captured('unittest_errors.txt'), ctx);
    expect(failures[0]).toEqual({
      test_id: 'unittest.loader._FailedTest.tests.test_broken',
      file: '/tmp/cap/py/tests/test_broken.py',
      line: 1,
      message: "ModuleNotFoundError: No module named 'calc.missing_module'",
    });
    expect(failures).toHaveLength(3);
  });

  it('finds nothing in pytest output', () => {
    expect(parseUnittest(captured('pytest.txt'), ctx)).toEqual([]);
  });
});
