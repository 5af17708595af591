import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGoTest } from './goTest.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');
const ctx = { cwd: '/tmp/cap/go', goModule: { path: 'example.com/calc', dir: '/tmp/cap/go' } };
const mathx = [
  { test_id: 'TestMul', file: '/tmp/cap/go/mathx/mul_test.go', line: 7, message: 'Mul(2, 3) = 6, want 7' },
  { test_id: 'TestPanics', file: '/tmp/cap/go/mathx/mul_test.go', line: 13, message: 'panic: assignment to entry in nil map' },
];

describe('parseGoTest on real go test output', () => {
  it('resolves each failing test line against its package directory, subtests by their full name', () => {
    expect(parseGoTest(captured('gotest.txt'), ctx)).toEqual([
      { test_id: 'TestAddWrong', file: '/tmp/cap/go/calc_test.go', line: 13, message: 'Add(1, 2) = 3, want 4' },
      { test_id: 'TestTable/two', file: '/tmp/cap/go/calc_test.go', line: 20, message: '1+1 is not 3' },
      ...mathx,
    ]);
  });

  it('reports compile errors of a package that did not build, and the other packages failures', () => {
    expect(parseGoTest(captured('gotest_build.txt'), ctx)).toEqual([
      { file: '/tmp/cap/go/broken.go', line: 4, column: 9, severity: 'error', message: 'cannot use "x" (untyped string constant) as int value in return statement' },
      ...mathx,
    ]);
  });

  it('reports vet errors', () => {
    expect(parseGoTest(captured('gotest_vet.txt'), ctx)[0]).toEqual({
      file: '/tmp/cap/go/vet_test.go',
      line: 6,
      column: 2,
      severity: 'error',
      message: 'fmt.Printf format %d has arg "s" of wrong type string',
    });
  });

  it('reads go build output', () => {
    expect(parseGoTest(captured('gobuild.txt'), ctx)).toEqual([
      { file: '/tmp/cap/go/broken.go', line: 4, column: 9, severity: 'error', message: 'cannot use "x" (untyped string constant) as int value in return statement' },
    ]);
  });
});
