import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTsc } from './tsc.js';

const captured = (name: string) => readFileSync(new URL(`./captured/${name}`, import.meta.url), 'utf8');
const expected = [
  { file: '/tmp/cap/ts/src/a.ts', line: 2, column: 9, severity: 'error', message: "TS2322: Type 'number' is not assignable to type 'string'." },
  { file: '/tmp/cap/ts/src/a.ts', line: 3, column: 3, severity: 'error', message: "TS2322: Type 'string' is not assignable to type 'number'." },
  { file: '/tmp/cap/ts/src/b.ts', line: 1, column: 10, severity: 'error', message: 'TS2305: Module \'"./a"\' has no exported member \'missing\'.' },
];

describe('parseTsc on real tsc output', () => {
  it('reads plain diagnostics', () => {
    expect(parseTsc(captured('tsc.txt'), { cwd: '/tmp/cap/ts' })).toEqual(expected);
  });

  it('reads --pretty diagnostics (colours and all)', () => {
    expect(parseTsc(captured('tsc_pretty.txt'), { cwd: '/tmp/cap/ts' })).toEqual(expected);
  });
});
