import { describe, expect, it } from 'vitest';
import { isTestFile } from './testFiles.js';

describe('isTestFile', () => {
  it.each(['tests/test_service.py', 'pkg/tests/helpers.py', 'src/__tests__/a.ts', 'a/service.test.ts', 'b/x.spec.js', 'geo_test.go', 'test_x.py', 'x_test.py', 'conftest.py', 'app/tests.py', 'lib/test_ops.c', 'net/socket_unittest.cc'])(
    '%s is a test file',
    (p) => expect(isTestFile(p)).toBe(true),
  );
  it.each(['src/service.ts', 'graph/store.py', 'contest.py', 'latest/a.py', 'testdata.go', 'src/testing_utils.ts', 'lib/latest.c', 'include/test_ops.h'])('%s is not', (p) => expect(isTestFile(p)).toBe(false));
});
