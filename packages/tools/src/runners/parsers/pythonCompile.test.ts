import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePythonCompile } from './pythonCompile.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');

describe('parsePythonCompile on real compileall output', () => {
  it('gives each file that does not compile with its line and error', () => {
    expect(parsePythonCompile(captured('compileall.txt'), { cwd: '/tmp/cap/pyc' })).toEqual([
      { file: '/tmp/cap/pyc/pkg/bad.py', line: 1, severity: 'error', message: 'SyntaxError: invalid syntax' },
      { file: '/tmp/cap/pyc/top.py', line: 2, severity: 'error', message: 'IndentationError: unexpected indent' },
    ]);
  });
});
