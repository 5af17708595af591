import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePytest } from './pytest.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');
const ctx = { cwd: '/tmp/cap/py' };

describe('parsePytest on real pytest output', () => {
  it('gives each failure its node id, the line of the test function that failed, and the E lines', () => {
    expect(parsePytest(captured('pytest.txt'), ctx)).toEqual([
      { test_id: 'tests/test_ops.py::TestOps::test_add_wrong', file: '/tmp/cap/py/tests/test_ops.py', line: 15, message: 'AssertionError: 3 != 4' },
      // The test's own frame (line 18), not the deepest one in calc/ops.py.
      { test_id: 'tests/test_ops.py::TestOps::test_div_zero', file: '/tmp/cap/py/tests/test_ops.py', line: 18, message: 'ZeroDivisionError: division by zero' },
      { test_id: 'tests/test_ops.py::test_plain', file: '/tmp/cap/py/tests/test_ops.py', line: 22, message: 'assert 4 == 5\n+  where 4 = add(2, 2)' },
    ]);
  });

  it('reports a collection error at the import that failed', () => {
    expect(parsePytest(captured('pytest_errors.txt'), ctx)).toEqual([
      { test_id: 'tests/test_broken.py', file: '/tmp/cap/py/tests/test_broken.py', line: 1, message: "ModuleNotFoundError: No module named 'calc.missing_module'" },
    ]);
  });

  it('keeps parametrized ids', () => {
    expect(parsePytest(captured('pytest_param.txt'), ctx)).toEqual([
      { test_id: 'tests/test_param.py::test_add_param[2-2-5]', file: '/tmp/cap/py/tests/test_param.py', line: 8, message: 'assert 4 == 5\n+  where 4 = add(2, 2)' },
    ]);
  });

  it('finds nothing in output of another runner', () => {
    expect(parsePytest(captured('unittest.txt'), ctx)).toEqual([]);
  });
});
