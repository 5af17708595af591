import { basename } from 'node:path';

/** The rule, as answers and docs state it. */
export const TEST_FILE_RULE =
  'a test file is one under a directory named test, tests, __tests__, spec or testing, or named test_*.py, *_test.py, tests.py, conftest.py, *_test.go, *.test.* or *.spec.*, or test_*, *_test or *_unittest with a C or C++ source extension';

const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'testing']);
const TEST_NAME = /^(test_.*\.py|.*_test\.py|tests\.py|conftest\.py|.*_test\.go|.*\.(test|spec)\.[^.]+|(test_.*|.*_test|.*_unittest)\.(c|cc|cpp|cxx))$/;

/** Whether a (root-relative or absolute) path is a test file by TEST_FILE_RULE: every tool that tells tests apart asks this. */
export function isTestFile(path: string): boolean {
  const parts = path.split(/[\\/]/);
  if (parts.slice(0, -1).some((p) => TEST_DIRS.has(p))) return true;
  return TEST_NAME.test(basename(path));
}
