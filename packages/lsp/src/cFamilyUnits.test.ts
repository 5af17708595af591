import { describe, expect, it } from 'vitest';
import { unitBuiltWithout } from './cFamilyUnits.js';

const u = (name: string) => `file:///w/${name}`;
const MAIN = '#include <stdio.h>\n#include "point.h"\nint main(void) { return 0; }\n';

describe('unitBuiltWithout', () => {
  it.each([
    ['a C source that includes none of the changed sources', [u('point.c')], u('main.c'), MAIN, true],
    ['a header beside a changed source', [u('point.c')], u('point.h'), 'int manhattan(void);\n', true],
    ['any C file while nothing changed', [], u('main.c'), MAIN, true],
    ['the changed document itself', [u('main.c')], u('main.c'), MAIN, false],
    ['a file beside a changed header (its includers are not known)', [u('point.h')], u('other.c'), 'int x;\n', false],
    ['a file that includes the changed source', [u('gen/table.c')], u('main.c'), `${MAIN}#  include "table.c"\n`, false],
    ['a file whose include names a macro (what it includes cannot be read)', [u('point.c')], u('main.c'), `${MAIN}#include CONFIG_HEADER\n`, false],
    ['a Python file (modules import each other\'s types)', [u('a.py')], u('b.py'), 'import os\n', false],
    ['a C file beside a changed Python file', [u('a.py')], u('main.c'), MAIN, false],
    ['a TypeScript file while nothing changed', [], u('a.ts'), 'export {};\n', false],
  ])('%s', (_what, changed, uri, text, without) => {
    expect(unitBuiltWithout(changed, uri, text)).toBe(without);
  });
});
