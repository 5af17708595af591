import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGcc } from './gcc.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');

describe('parseGcc on real gcc/g++ output', () => {
  it('reads errors and warnings through make', () => {
    expect(parseGcc(captured('gcc_make.txt'), { cwd: '/tmp/cap/c' })).toEqual([
      { file: '/tmp/cap/c/main.c', line: 6, column: 13, severity: 'warning', message: 'initialization of ‘int’ from ‘char *’ makes integer from pointer without a cast [-Wint-conversion]' },
      { file: '/tmp/cap/c/main.c', line: 7, column: 29, severity: 'error', message: 'expected ‘;’ before ‘return’' },
    ]);
  });

  it('reads g++ through cmake --build (absolute paths)', () => {
    expect(parseGcc(captured('cmake_gxx.txt'), { cwd: '/tmp/cap/cm' })).toEqual([
      {
        file: '/tmp/cap/cm/src/main.cpp',
        line: 3,
        column: 21,
        severity: 'error',
        message: 'conversion from ‘int’ to non-scalar type ‘std::string’ {aka ‘std::__cxx11::basic_string<char>’} requested',
      },
    ]);
  });

  it('keeps a link error as a message without a location', () => {
    expect(parseGcc(captured('gcc_link.txt'), { cwd: '/tmp/cap/c' })).toEqual([{ severity: 'error', message: 'undefined reference to `twice\'' }]);
  });
});
