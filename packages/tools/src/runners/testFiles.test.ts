import { describe, expect, it } from 'vitest';
import { isTestFile } from '../analysis/testFiles.js';
import { testsByName } from './testFiles.js';

describe('test file naming', () => {
  it('knows test files of every language by name or directory', () => {
    for (const path of ['/r/tests/test_ops.py', '/r/ops_test.py', '/r/calc_test.go', '/r/src/a.test.ts', '/r/src/a.spec.jsx', '/r/src/__tests__/a.ts', '/r/test/x.c']) {
      expect(isTestFile(path), path).toBe(true);
    }
    for (const path of ['/r/calc/ops.py', '/r/calc.go', '/r/src/a.ts', '/r/src/latest.ts', '/r/contest.py']) expect(isTestFile(path), path).toBe(false);
  });

  it('pairs a source with its tests by stem', () => {
    expect(testsByName('/r/calc/ops.py', '/r/tests/test_ops.py')).toBe(true);
    expect(testsByName('/r/calc/ops.py', '/r/tests/test_other.py')).toBe(false);
    expect(testsByName('/r/src/a.ts', '/r/src/a.test.ts')).toBe(true);
    expect(testsByName('/r/src/a.ts', '/r/src/__tests__/a.test.tsx')).toBe(true);
    expect(testsByName('/r/calc.go', '/r/calc_test.go')).toBe(true);
    // Go tests live beside their package: another directory's calc_test.go tests another calc.go.
    expect(testsByName('/r/calc.go', '/r/sub/calc_test.go')).toBe(false);
  });
});
